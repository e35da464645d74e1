#!/usr/bin/env bash
# Status writes per usage-sampling interval while a run's load runs (#14: goal <= 1): one
# direct-path PerfRun (config/samples/perf_v1alpha1_perfrun_direct.yaml, 45 s of load) on the
# current cluster with the operator deployed, every change of the object watched; the writes
# while it is Running are counted against the manager's --usage-interval (BENCH_INTERVAL,
# the binary's default 5s).
set -euo pipefail
cd "$(dirname "$0")/../.."
KUBECTL=${KUBECTL:-kubectl}
export KUBECONFIG=${KUBECONFIG:-$HOME/.cache/daprbench/cluster/kubeconfig}
NS=${BENCH_NAMESPACE:-daprbench-writes}
INTERVAL=${BENCH_INTERVAL:-5}
kc() { "$KUBECTL" "$@"; }

kc create namespace "$NS" --dry-run=client -o yaml | kc apply -f - >/dev/null
kc -n "$NS" delete perfrun direct-floor --ignore-not-found --wait=true >/dev/null
log=$(mktemp)
trap 'rm -f "$log"; kill %1 2>/dev/null || true' EXIT
kc -n "$NS" get perfrun --watch -o jsonpath='{.metadata.resourceVersion} {.status.phase}{"\n"}' 2>/dev/null |
  while read -r line; do echo "$(date +%s.%N) $line"; done >"$log" &
sleep 1
kc -n "$NS" apply -f config/samples/perf_v1alpha1_perfrun_direct.yaml >/dev/null
kc -n "$NS" wait perfrun/direct-floor --for=jsonpath='{.status.phase}'=Succeeded --timeout=5m >/dev/null
sleep 1
# Running: from the write that set it to the write that ended it.
read -r writes seconds < <(awk '$3 == "Running" {n++; if (!first) first = $1} $3 != "Running" && first && !end {end = $1}
  END {printf "%d %.1f\n", n, end - first}' "$log")
echo "status writes while Running: $writes in ${seconds}s ($(awk -v w="$writes" -v s="$seconds" -v i="$INTERVAL" 'BEGIN {printf "%.2f", w / (s / i)}') per ${INTERVAL}s sampling interval)"
echo "writes by phase: $(awk '{print $3}' "$log" | uniq -c | awk '{printf "%s×%s ", $2, $1}')"

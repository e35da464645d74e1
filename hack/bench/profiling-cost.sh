#!/usr/bin/env bash
# What profiling daprd costs the latency it measures (spec.profiling), on a real cluster, one
# run at a time: Dapr's published invocation scenario (1000 rps, 16 connections, 1 KiB, mTLS
# as the cluster has it, tracing 0.1, sidecar limited to LIMIT, default 500m) in runs of one
# repetition of DURATION per path (default 24s), so that the profile's window (SECONDS,
# default 20: the longest admission allows, 2 s from either edge) covers most of the one
# Dapr phase. Four runs in a counterbalanced order — unprofiled, profiled, profiled,
# unprofiled — and two comparisons (`compare`, each profiled run against the unprofiled run
# beside it) whose added-latency change is the profiler's cost plus the drift between two
# runs; the drift cancels in their mean. Prints each comparison.
#
# REVERSED=1 runs the mirror order (profiled, unprofiled, unprofiled, profiled), for a second
# series whose drift runs the other way.
#
#   KUBECONFIG=... [LIMIT=500m] [REVERSED=1] hack/bench/profiling-cost.sh [DURATION] [SECONDS]
#     (after make demo: the operator installed, watching NS)
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-24s}
seconds=${2:-20}
limit=${LIMIT:-500m}
ns=${NS:-daprbench-demo}
plugin=${PLUGIN:-bin/kubectl-daprbench}
out=${OUT:-$(mktemp -d -t daprbench-profiling-cost-XXXX)}
mkdir -p "$out"
[ -x "$plugin" ] || make --no-print-directory plugin >/dev/null

run() { # name extra-spec-line: runs to its end through the plugin, prints the run's name
  local name
  echo "$(date -u +%T) $1 started" >&2
  name=$(cat <<YAML | "$plugin" -n "$ns" run -f - --wait -o name 2>>"$out/progress.log" | cut -d/ -f2
apiVersion: perf.daprbench.io/v1alpha1
kind: PerfRun
metadata: {name: $1}
spec:
  scenario: ServiceInvocation
  load: {qps: 1000, connections: 16, duration: $duration, warmup: 10s, payloadBytes: 1024, repetitions: 1}
  baseline: true
  dapr: {mtls: Enabled, tracingSamplingRate: "0.1", sidecar: {cpuLimit: "$limit", cpuRequest: 100m}}
$2
YAML
) || true
  echo "$(date -u +%T) $1 finished: $name" >&2
  [ -n "$name" ] || { echo "no run was created for $1; see $out/progress.log" >&2; exit 1; }
  echo "$name"
}

profiling="  profiling: {seconds: $seconds}"
if [ -n "${REVERSED:-}" ]; then
  p1=$(run profiled "$profiling")
  u1=$(run unprofiled "")
  u2=$(run unprofiled "")
  p2=$(run profiled "$profiling")
else
  u1=$(run unprofiled "")
  p1=$(run profiled "$profiling")
  p2=$(run profiled "$profiling")
  u2=$(run unprofiled "")
fi
for pair in "$u1 $p1" "$u2 $p2"; do
  set -- $pair
  echo
  echo "== compare perfrun/$1 perfrun/$2 (profiled minus unprofiled)"
  "$plugin" -n "$ns" compare "perfrun/$1" "perfrun/$2" || true
done
echo
echo "== kubectl daprbench report $p1"
"$plugin" -n "$ns" report "$p1" --dir "$out/$p1"
echo
echo "reports: $out"

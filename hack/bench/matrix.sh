#!/usr/bin/env bash
# What bounds the published invocation scenario on this cluster: a 2 × 2 matrix of arrival
# (Synchronized, Uniform) × server sidecar CPU limit (500m as published, 2 CPUs), each a
# PerfRun of the published settings (1000 rps, 16 connections, 1 KiB, mTLS, sampling 0.1)
# with three interleaved repetitions of DURATION. One cell at a time: a cell's run is created
# only once the one before it has finished, so no cell shares the node with another (every
# sidecar requests 500m, as the published 500m limit does, so all four fit the same node). Prints one row per cell: latency from the
# scheduled send and service time (added p50/p90/p99), send lag, the sidecars' throttled
# share of CFS periods, node CPU busy and what the run says bounded it.
#
#   KUBECONFIG=... hack/bench/matrix.sh [DURATION]      (default 30s; the operator installed)
set -euo pipefail
duration=${1:-30s}
ns=${NS:-daprbench-matrix}
kubectl get ns "$ns" >/dev/null 2>&1 || kubectl create ns "$ns" >/dev/null
for arrival in Synchronized Uniform; do
  for limit in 500m 2; do
    name=$(echo "m-${arrival}-${limit}" | tr 'A-Z' 'a-z')
    kubectl -n "$ns" delete perfrun "$name" --ignore-not-found >/dev/null
    cat <<YAML | kubectl -n "$ns" apply -f - >/dev/null
apiVersion: perf.daprbench.io/v1alpha1
kind: PerfRun
metadata: {name: $name}
spec:
  scenario: ServiceInvocation
  load: {qps: 1000, connections: 16, duration: $duration, warmup: 10s, payloadBytes: 1024, repetitions: 3, arrival: $arrival}
  baseline: true
  dapr: {mtls: Enabled, tracingSamplingRate: "0.1", sidecar: {cpuLimit: "$limit", cpuRequest: 500m}}
YAML
    echo "$(date -u +%T) $name started" >&2
    kubectl -n "$ns" wait perfrun "$name" --for=jsonpath='{.status.completionTime}' --timeout=30m >/dev/null
  done
done
cd "$(dirname "$0")/../.."
. hack/bench/result.sh
jp() { run_jsonpath "$ns" "$1" "$2"; }
cpu() { # role -> "throttled% / cpu"
  run_jsonpath "$ns" "$1" "{range .status.result.cpu.measured[?(@.role==\"$2\")]}{.throttledPeriodsPercent}% of periods, {.cpu}{end}"
}
node() { run_jsonpath "$ns" "$1" '{range .status.result.cpu.measured[*]}{.role}={.capacityPercent} {end}' | tr ' ' '\n' | grep '^node/' | sed 's/.*=//' | head -1; }
printf '| arrival | sidecar limit | added p50 / p90 / p99 (from scheduled send) | interval p90 | service-time p50 / p90 / p99, Dapr | send-lag p99, Dapr | server sidecar throttled | client sidecar throttled | node busy | bounded by |\n|---|---|---|---|---|---|---|---|---|---|\n'
for name in m-synchronized-500m m-synchronized-2 m-uniform-500m m-uniform-2; do
  a=$(jp "$name" '{.spec.load.arrival}'); l=$(jp "$name" '{.spec.dapr.sidecar.cpuLimit}')
  added=$(jp "$name" '{.status.result.added.p50} / {.status.result.added.p90} / {.status.result.added.p99}')
  { [ -z "$added" ] || [ "$added" = " /  / " ]; } && added="none claimed ($(jp "$name" '{.status.conditions[?(@.type=="Succeeded")].reason}'))"
  interval=$(jp "$name" '[{.status.result.addedInterval.low.p90}, {.status.result.addedInterval.high.p90}]')
  st=$(jp "$name" '{.status.result.serviceTime.p50} / {.status.result.serviceTime.p90} / {.status.result.serviceTime.p99}')
  lag=$(jp "$name" '{.status.result.sendLag.p99}')
  bound=$(jp "$name" '{.status.conditions[?(@.type=="Succeeded")].message}' | grep -o 'bounded by[^;]*\|nothing found bounding it' | head -1)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s%% | %s |\n' "$a" "$l" "$added" "$interval" "$st" "$lag" \
    "$(cpu "$name" serverSidecar)" "$(cpu "$name" clientSidecar)" "$(node "$name")" "$bound"
done

#!/usr/bin/env bash
# One load, sent by one load-tester pod and then split over several
# (config/samples/perf_v1alpha1_perfrun_split_load.yaml with loadTester.replicas 1, then N),
# one run after the other on a quiet cluster, and their figures side by side: the merged
# result of the split load should match the single pod's within its noise (the added
# latency's 95% intervals overlap). Driven by hack/local-cluster/demo.sh (the local cluster with real Dapr
# when no cluster is configured).
#
# Through Dapr each load-tester pod has its own caller sidecar, so N pods measure N callers'
# sidecars at 1/N of the rate each: a different path. BENCH_DAPR=false compares the direct
# path (no sidecar on either side), where only the splitting differs; BENCH_SEQUENCE repeats
# runs so that the run-to-run drift shows beside the difference.
#
#   hack/bench/load-split.sh                                  # 500 rps, 1 vs 3 pods, 2 × 30 s, Uniform
#   BENCH_ARRIVAL=Synchronized hack/bench/load-split.sh       # fortio's default: bursts
#   BENCH_DAPR=false BENCH_SEQUENCE="1 3 1 3" hack/bench/load-split.sh
#   BENCH_QPS=1000 BENCH_REPLICAS=2 hack/bench/load-split.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. hack/bench/result.sh

QPS=${BENCH_QPS:-500}
CONNECTIONS=${BENCH_CONNECTIONS:-16}
ARRIVAL=${BENCH_ARRIVAL:-Uniform}
REPLICAS=${BENCH_REPLICAS:-3}
DURATION=${BENCH_DURATION:-30s}
REPETITIONS=${BENCH_REPETITIONS:-2}
DAPR=${BENCH_DAPR:-true}
SEQUENCE=${BENCH_SEQUENCE:-1 $REPLICAS}
NS=${DEMO_NAMESPACE:-daprbench-split}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
KUBECTL=${KUBECTL:-kubectl}
export DEMO_NAMESPACE=$NS KUBECONFIG=${KUBECONFIG:-$HOME/.cache/daprbench/cluster/kubeconfig}

rows=()
direct=()
if [ "$DAPR" = false ]; then direct=(-e "s/^  baseline: true/  baseline: false/" -e "s/^  dapr:$/  dapr:\n    enabled: false/"); fi
i=0
for replicas in $SEQUENCE; do
  i=$((i + 1))
  name="split-$i-$replicas"
  sed -E -e "s/^  name: .*/  name: $name/" -e "s/^(    replicas: )[0-9]+$/\1$replicas/" -e "s/^(    qps: )[0-9]+$/\1$QPS/" -e "s/^(    connections: )[0-9]+$/\1$CONNECTIONS/" \
    -e "s/^(    arrival: ).*/\1$ARRIVAL/" \
    -e "s/^(    duration: ).*/\1$DURATION/" -e "s/^(    warmup: .*)/\1\n    repetitions: $REPETITIONS/" "${direct[@]}" \
    config/samples/perf_v1alpha1_perfrun_split_load.yaml >"$work/$name.yaml"
  DEMO_SAMPLE="$work/$name.yaml" DEMO_REPORT_DIR="$work/report-$name" hack/local-cluster/demo.sh >"$work/$name.log" 2>&1 ||
    { echo "bench-load-split: the run with $replicas pod(s) did not succeed; its log:" >&2; tail -30 "$work/$name.log" >&2; exit 1; }
  jp() { run_jsonpath "$NS" "$name" "$1"; }
  rows+=("$(printf '| %s | %s | %s | %s | %s | %s [%s, %s] | %s [%s, %s] | %s |' "$replicas" "$(jp '{.status.result.actualQPS}')" \
    "$(jp '{.status.result.latency.p50}')" "$(jp '{.status.result.latency.p90}')" "$(jp '{.status.result.latency.p99}')" \
    "$(jp '{.status.result.added.p50}')" "$(jp '{.status.result.addedInterval.low.p50}')" "$(jp '{.status.result.addedInterval.high.p50}')" \
    "$(jp '{.status.result.added.p90}')" "$(jp '{.status.result.addedInterval.low.p90}')" "$(jp '{.status.result.addedInterval.high.p90}')" \
    "$(jp '{range .status.result.loadTesters[*]}{.actualQPS}/{.requestedQPS} {end}')")")
  echo "${rows[-1]}"
done
echo
echo "One load ($QPS rps, 1 KiB, $CONNECTIONS connections, $REPETITIONS × $DURATION, arrival $ARRIVAL, through Dapr: $DAPR), runs in the order $SEQUENCE pod(s):"
echo "| pods | achieved qps | p50 | p90 | p99 | added p50 [95%] | added p90 [95%] | per-pod qps (achieved/share) |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"

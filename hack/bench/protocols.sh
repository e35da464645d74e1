#!/usr/bin/env bash
# The four invocation paths Dapr's page names, one run each, one after the other on a quiet
# cluster, and their table: added latency (p50/p90/p99 with the p90 interval) and the target
# sidecar's CPU per 1000 rps. Each run is config/samples/perf_v1alpha1_perfrun_grpc.yaml with
# the two protocols set (1 KiB bodies, 16 connections, baseline over the caller's protocol),
# driven by hack/local-cluster/demo.sh (the local cluster with real Dapr when no cluster is configured).
#
#   hack/bench/protocols.sh                      # 1000 rps, as published
#   BENCH_QPS=500 hack/bench/protocols.sh        # what a two-core node sustains
#   BENCH_CONNECTIONS=1 BENCH_QPS=200 hack/bench/protocols.sh   # one request at a time: no queueing
set -euo pipefail
cd "$(dirname "$0")/../.."
. hack/bench/result.sh

QPS=${BENCH_QPS:-1000}
CONNECTIONS=${BENCH_CONNECTIONS:-16}
NS=${DEMO_NAMESPACE:-daprbench-protocols}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
KUBECTL=${KUBECTL:-kubectl}
export DEMO_NAMESPACE=$NS KUBECONFIG=${KUBECONFIG:-$HOME/.cache/daprbench/cluster/kubeconfig}

rows=()
for caller in HTTP GRPC; do
  for app in HTTP GRPC; do
    name="path-$(tr 'A-Z' 'a-z' <<<"$caller")-$(tr 'A-Z' 'a-z' <<<"$app")"
    sed -E -e "s/^  name: .*/  name: $name/" -e "s/^    caller: .*/    caller: $caller/" -e "s/^    app: .*/    app: $app/" \
      -e "s/^(    qps: )[0-9]+$/\1$QPS/" -e "s/^(    connections: )[0-9]+$/\1$CONNECTIONS/" config/samples/perf_v1alpha1_perfrun_grpc.yaml >"$work/$name.yaml"
    DEMO_SAMPLE="$work/$name.yaml" DEMO_REPORT_DIR="$work/report-$name" hack/local-cluster/demo.sh >"$work/$name.log" 2>&1 ||
      { echo "bench-protocols: $caller → $app did not succeed; its log:" >&2; tail -30 "$work/$name.log" >&2; exit 1; }
    jp() { run_jsonpath "$NS" "$name" "$1"; }
    rows+=("$(printf '| %s → %s | %s | %s [%s, %s] | %s | %s | %s |' "$caller" "$app" \
      "$(jp '{.status.result.added.p50}')" "$(jp '{.status.result.added.p90}')" \
      "$(jp '{.status.result.addedInterval.low.p90}')" "$(jp '{.status.result.addedInterval.high.p90}')" \
      "$(jp '{.status.result.added.p99}')" "$(jp '{.status.result.resources.sidecarPer1kQPS.cpu}')" "$(jp '{.status.result.actualQPS}')")")
    echo "${rows[-1]}"
  done
done
echo
echo "Four invocation paths at $QPS rps (1 KiB, $CONNECTIONS connections, mTLS on, sampling 0.1, sidecar limit 500m):"
echo "| caller → app | added p50 | added p90 [95% interval] | added p99 | sidecar CPU per 1000 rps | achieved qps |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"

#!/usr/bin/env bash
# The State scenario at Dapr's suite setting (config/samples/perf_v1alpha1_perfrun_state_perfsuite.yaml:
# 1000 qps, 16 connections, 1 KiB, 3 × 30 s per path, daprd limited to 4 vCPU): a Get over
# daprd's HTTP API, the same over gRPC, and a Save over HTTP, each against a Redis the run
# deploys, with the go-redis baseline. Prints each run's Dapr-path latency, baseline, added
# latency with its 95% interval (this run's: repetitions and bootstrap), the client daprd's CPU
# per request (its own counter) and the store's CPU and memory, beside Dapr's suite figures.
# OPERATIONS=bulk measures the other operations instead, over HTTP: SaveThenGet, BulkGet and
# Transaction of 10 keys a request, and BulkGet over gRPC (Dapr's suite has no figure for them).
#
#   KUBECONFIG=... hack/bench/state.sh      (the operator installed, with redisImage pullable;
#                                            ~13 min; DURATION=10s shortens each repetition;
#                                            TABLE_ONLY=1 prints the table of runs already made)
set -euo pipefail
cd "$(dirname "$0")/../.."
ns=${NS:-daprbench-state}
if [ "${OPERATIONS:-suite}" = bulk ]; then
  names=(state-savethenget-http state-bulkget-http state-bulkget-grpc state-transaction-http)
  runs=("state-savethenget-http=s/^    operation: Get\$/    operation: SaveThenGet/"
    "state-bulkget-http=s/^    operation: Get\$/    operation: BulkGet\\n    bulkSize: 10/"
    "state-bulkget-grpc=s/^    operation: Get\$/    operation: BulkGet\\n    bulkSize: 10/;s/^  dapr:\$/  protocol:\\n    caller: GRPC\\n  dapr:/"
    "state-transaction-http=s/^    operation: Get\$/    operation: Transaction\\n    bulkSize: 10/")
else
  names=(state-get-http state-get-grpc state-save-http)
  runs=("state-get-http"
    "state-get-grpc=s/^  dapr:\$/  protocol:\\n    caller: GRPC\\n  dapr:/"
    "state-save-http=s/^    operation: Get\$/    operation: Save/")
fi
hack/bench/sample-runs.sh config/samples/perf_v1alpha1_perfrun_state_perfsuite.yaml "$ns" "${runs[@]}"
for name in "${names[@]}"; do
  kubectl -n "$ns" get perfrun "$name" -o json
done | PYTHONPATH=hack/bench python3 -c '
from perfruns import read, g, bounded_by
runs = read()
print("| run | dapr p50 / p90 / p99 | baseline p50 / p90 / p99 | added p50 [95%] | added p90 [95%] | added p99 [95%] | client daprd CPU per request [per repetition] | store CPU / memory (avg) | errors | bounded by |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in runs:
    res = r["status"].get("result", {})
    lat = lambda k: " / ".join(str(g(res, k, p)) for p in ("p50", "p90", "p99"))
    added = lambda p: "%s [%s, %s]" % (g(res, "added", p), g(res, "addedInterval", "low", p), g(res, "addedInterval", "high", p))
    cost = next((c for c in res.get("sidecarCost", []) if c.get("role") == "clientSidecar"), {})
    d = cost.get("daprd", {})
    store = g(res, "resources", "store")
    print("| %s | %s | %s | %s | %s | %s | %s %s | %s / %s | %s | %s |" % (r["metadata"]["name"], lat("latency"), lat("baseline"), added("p50"), added("p90"), added("p99"),
        d.get("cpuPerRequest", "-"), d.get("perRepetition", "-"), g(store, "cpuAvg") if store != "-" else "-", g(store, "memoryAvg") if store != "-" else "-",
        res.get("errors", 0), bounded_by(r)))
print()
print("Dapr v1.17 perf suite, state get (3 x 2-vCPU AKS nodes, in-cluster store; its baseline is a no-op target, so its figure is the whole call): p50 0.73 ms (HTTP), 0.57 ms (gRPC); gate p90 <= 2 ms.")
'

#!/usr/bin/env bash
# The PubSub scenario at Dapr's suite setting (config/samples/perf_v1alpha1_perfrun_pubsub_perfsuite.yaml:
# 1000 qps, 16 connections, 1 KiB, 3 × 30 s per path, daprd limited to 4 vCPU): publish over
# daprd's gRPC API and over its HTTP API, each against a Redis the run deploys, delivered back
# to the load tester's subscriber, with the go-redis baseline (XADD, a consumer group). Prints
# each run's publish latency (Dapr path, baseline, added with its 95% interval: this run's),
# its delivery latency likewise, messages lost and duplicated, the load tester's daprd's CPU per
# message (its own counter: publishing and delivering) and the broker's CPU, beside Dapr's suite.
# OPERATIONS=bulk measures bulk publish (100 requests a second of 10 messages each) and bulk
# subscribe (1000 single publishes a second, delivered in batches of at most 100 after at most
# 50 ms), over gRPC. OPERATIONS=known-answer makes the known answer: the suite's gRPC run
# twice, the second with every delivery through daprd held 2 ms in the subscriber, and
# compare's change of the added delivery latency between them (it must hold 2 ms).
#
#   KUBECONFIG=... hack/bench/pubsub.sh     (the operator installed, with redisImage pullable;
#                                            ~9 min; DURATION=10s shortens each repetition;
#                                            TABLE_ONLY=1 prints the table of runs already made)
set -euo pipefail
cd "$(dirname "$0")/../.."
ns=${NS:-daprbench-pubsub}
if [ "${OPERATIONS:-suite}" = known-answer ]; then
  names=(pubsub-plain pubsub-held)
  runs=("pubsub-plain"
    "pubsub-held=s/^  name: pubsub-held\$/  name: pubsub-held\\n  annotations: {perf.daprbench.io\/known-answer-dapr-delay: 2ms}/")
elif [ "${OPERATIONS:-suite}" = bulk ]; then
  names=(pubsub-bulkpublish-grpc pubsub-bulksubscribe-grpc)
  runs=("pubsub-bulkpublish-grpc=s/^    subscription: Programmatic\$/    subscription: Programmatic\\n    bulkPublish: 10/;s/^    qps: 1000\$/    qps: 100/"
    "pubsub-bulksubscribe-grpc=s/^    subscription: Programmatic\$/    subscription: Programmatic\\n    bulkSubscribe: {maxMessagesCount: 100, maxAwaitDurationMs: 50}/")
else
  names=(pubsub-grpc pubsub-http)
  runs=("pubsub-grpc" "pubsub-http=s/^    caller: GRPC\$/    caller: HTTP/")
fi
hack/bench/sample-runs.sh config/samples/perf_v1alpha1_perfrun_pubsub_perfsuite.yaml "$ns" "${runs[@]}"
for name in "${names[@]}"; do
  kubectl -n "$ns" get perfrun "$name" -o json
done | PYTHONPATH=hack/bench python3 -c '
from perfruns import read, g, bounded_by
runs = read()
print("| run | figure | dapr p50 / p90 / p99 | baseline p50 / p90 / p99 | added p50 [95%] | added p90 [95%] | added p99 [95%] |")
print("|---|---|---|---|---|---|---|")
for r in runs:
    res = r["status"].get("result", {})
    for figure, base in (("publish", res), ("delivery", res.get("delivery", {}))):
        dapr_key = "latency"
        lat = lambda k: " / ".join(str(g(base, k, p)) for p in ("p50", "p90", "p99"))
        added = lambda p: "%s [%s, %s]" % (g(base, "added", p), g(base, "addedInterval", "low", p), g(base, "addedInterval", "high", p))
        print("| %s | %s | %s | %s | %s | %s | %s |" % (r["metadata"]["name"], figure, lat(dapr_key), lat("baseline"), added("p50"), added("p90"), added("p99")))
print()
print("| run | messages (dapr): published / delivered / lost / duplicated | baseline | load tester daprd CPU per message [per repetition] | broker CPU / memory (avg) | errors | bounded by |")
print("|---|---|---|---|---|---|---|")
for r in runs:
    res = r["status"].get("result", {})
    d = res.get("delivery", {})
    n = lambda m: "%s / %s / %s / %s" % (g(m, "published"), g(m, "delivered"), m.get("lost", 0) if m else "-", m.get("duplicated", 0) if m else "-")
    cost = next((c for c in res.get("sidecarCost", []) if c.get("role") == "clientSidecar"), {})
    dc = cost.get("daprd", {})
    store = g(res, "resources", "store")
    print("| %s | %s | %s | %s %s | %s / %s | %s | %s |" % (r["metadata"]["name"], n(d.get("messages")), n(d.get("baselineMessages")),
        dc.get("cpuPerRequest", "-"), dc.get("perRepetition", "-"), g(store, "cpuAvg") if store != "-" else "-", g(store, "memoryAvg") if store != "-" else "-",
        res.get("errors", 0), bounded_by(r)))
print()
print("Dapr v1.17 perf suite, pubsub_publish_grpc (3 x 2-vCPU AKS nodes; the publish call alone, no baseline, no delivery): p50 0.60 ms, p90 0.94 ms, p99 1.87 ms; gate p90 <= 2 ms.")
'
if [ "${OPERATIONS:-suite}" = known-answer ]; then
  go run ./cmd/kubectl-daprbench compare -n "$ns" pubsub-plain pubsub-held --max-slowdown 0 | grep -E "^(figure|delivery added|added|messages)" || true
fi

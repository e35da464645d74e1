#!/usr/bin/env bash
# The Go SDK's share of actor activation: Dapr's published actor scenario
# (config/samples/perf_v1alpha1_perfrun_actors.yaml: 500 calls a second, each to a fresh
# actor id) with the target's actors hosted by hand (Minimal: Dapr's routing alone) and by
# Dapr's Go SDK actor runtime (GoSDK), in the order Minimal, GoSDK, GoSDK, Minimal so a
# drift of the node over the four runs falls on both hosts alike. Prints each run's latency
# (from each call's slot), its p50's range over the repetitions, the target's CPU, and
# GoSDK − Minimal of each figure between the runs next to each other in time.
#
#   KUBECONFIG=... hack/bench/actor-host.sh   (the operator installed; ~20 min; DURATION=20s
#                                             shortens each repetition; TABLE_ONLY=1 prints
#                                             the table of runs already made)
set -euo pipefail
cd "$(dirname "$0")/../.."
ns=${NS:-daprbench-actor-host}
sdk='s/^    host: Minimal$/    host: GoSDK/;/^    method: activate$/d'
names=(actors-minimal-1 actors-gosdk-1 actors-gosdk-2 actors-minimal-2)
hack/bench/sample-runs.sh config/samples/perf_v1alpha1_perfrun_actors.yaml "$ns" \
  actors-minimal-1 "actors-gosdk-1=$sdk" "actors-gosdk-2=$sdk" actors-minimal-2
for name in "${names[@]}"; do
  kubectl -n "$ns" get perfrun "$name" -o json
done | PYTHONPATH=hack/bench python3 -c '
from perfruns import read, g, bounded_by
def us(d):
    """A duration string ("1.234ms", "567µs", "1.2s") in microseconds; None for "-"."""
    if not isinstance(d, str):
        return None
    for unit, f in (("µs", 1), ("us", 1), ("ms", 1e3), ("s", 1e6)):
        if d.endswith(unit):
            return float(d[: -len(unit)]) * f
    return None
print("| run | host | calls/s achieved | latency p50 / p90 / p99 (mean) | p50 over repetitions min–max | target app / its sidecar CPU avg | bounded by |")
print("|---|---|---|---|---|---|---|")
runs = read()
for r in runs:
    res = r["status"].get("result", {})
    lat = res.get("latency", {})
    spread = g(r["status"], "result", "spread", "latency")
    print("| %s | %s | %s | %s / %s / %s (%s) | %s–%s | %s | %s |" % (r["metadata"]["name"], res.get("actorHost", "-"), res.get("actualQPS", "-"),
        g(lat, "p50"), g(lat, "p90"), g(lat, "p99"), g(lat, "avg"), g(spread, "min", "p50"), g(spread, "max", "p50"),
        "%s / %s" % (g(res, "resources", "serverApp", "cpuAvg"), g(res, "resources", "serverSidecar", "cpuAvg")), bounded_by(r)))
print()
print("GoSDK − Minimal between neighbouring runs (a difference of two runs'"'"' figures, not a sum of parts):")
by = {r["metadata"]["name"]: r["status"].get("result", {}).get("latency", {}) for r in runs}
for a, b in (("actors-minimal-1", "actors-gosdk-1"), ("actors-minimal-2", "actors-gosdk-2")):
    diffs = []
    for p in ("p50", "p90", "p99", "avg"):
        x, y = us(g(by.get(a), p)), us(g(by.get(b), p))
        diffs.append("%s %s" % (p, "-" if None in (x, y) else "%+.0f µs" % (y - x)))
    print("- %s vs %s: %s" % (b, a, ", ".join(diffs)))
'

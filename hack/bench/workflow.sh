#!/usr/bin/env bash
# The Workflow scenario (config/samples/perf_v1alpha1_perfrun_workflow_chain.yaml: 20
# instances a second started open loop, 5 activities of no work, 1 KiB input, 3 × 30 s): a
# chain, a fan-out, and the chain's known answer — every activity held 2 ms, so its mean
# completion must rise by 5 × 2 ms = 10 ms. Prints each run's start rate, start-call latency,
# completion latency (start slot to completion, on the load tester's clock) with the 95%
# intervals of its p50 and p99 (BetweenRepetitions: how the repetitions differ), each
# activity's dispatch (its workflow scheduling it to the worker running it), the instances,
# the load tester's daprd's CPU per workflow, and the control plane's CPU per 1000 workflows:
# the scheduler's and placement's cumulative CPU counters (the kubelet's stats summary) read
# before and after each run, less their idle rate over the 30 s before it.
#
#   KUBECONFIG=... hack/bench/workflow.sh   (the operator installed; ~8 min; DURATION=10s
#                                           shortens each repetition; QPS=N changes the rate;
#                                           TABLE_ONLY=1 prints the table of runs already made)
set -euo pipefail
cd "$(dirname "$0")/../.."
ns=${NS:-daprbench-workflow}
dapr_ns=${DAPR_NAMESPACE:-dapr-system}
qps=${QPS:-20}
names=(workflow-chain workflow-fanout workflow-chain-held)
edits=("s/^    qps: 20\$/    qps: $qps/"
  "s/^    pattern: Chain\$/    pattern: FanOut/;s/^    qps: 20\$/    qps: $qps/"
  "s/^    activities: 5\$/    activities: 5\\n    activityDelay: 2ms/;s/^    qps: 20\$/    qps: $qps/")
cp=$(mktemp -d)
trap 'rm -rf "$cp"' EXIT

# cpu_ns POD: the pod's containers' cumulative CPU (ns) as its node's kubelet counts it.
cpu_ns() {
  local node
  node=$(kubectl -n "$dapr_ns" get pod "$1" -o jsonpath='{.spec.nodeName}')
  kubectl get --raw "/api/v1/nodes/$node/proxy/stats/summary" | python3 -c '
import json, sys
pod = sys.argv[1]
for p in json.load(sys.stdin)["pods"]:
    if p["podRef"]["name"] == pod:
        print(sum(c.get("cpu", {}).get("usageCoreNanoSeconds", 0) for c in p.get("containers", [])))
' "$1"
}
control_plane=$(kubectl -n "$dapr_ns" get pods -l 'app in (dapr-scheduler-server,dapr-placement-server)' -o jsonpath='{.items[*].metadata.name}')

for i in "${!names[@]}"; do
  name=${names[$i]}
  [ -n "${TABLE_ONLY:-}" ] && continue
  for p in $control_plane; do echo "$(date +%s.%N) $(cpu_ns "$p")" > "$cp/$name.$p.idle0"; done
  sleep 30
  for p in $control_plane; do echo "$(date +%s.%N) $(cpu_ns "$p")" > "$cp/$name.$p.before"; done
  hack/bench/sample-runs.sh config/samples/perf_v1alpha1_perfrun_workflow_chain.yaml "$ns" "$name=${edits[$i]}"
  for p in $control_plane; do echo "$(date +%s.%N) $(cpu_ns "$p")" > "$cp/$name.$p.after"; done
  kubectl -n "$ns" get perfrun "$name" -o json > "$cp/$name.json"
done
[ -n "${TABLE_ONLY:-}" ] && for name in "${names[@]}"; do kubectl -n "$ns" get perfrun "$name" -o json > "$cp/$name.json"; done

CP_DIR=$cp CONTROL_PLANE="$control_plane" NAMES="${names[*]}" PYTHONPATH=hack/bench python3 -c '
import json, os
from perfruns import g, bounded_by
cp, pods, names = os.environ["CP_DIR"], os.environ["CONTROL_PLANE"].split(), os.environ["NAMES"].split()
def counter(name, pod, edge):
    try:
        t, ns = open(os.path.join(cp, "%s.%s.%s" % (name, pod, edge))).read().split()
        return float(t), int(ns)
    except (OSError, ValueError):
        return None
print("| run | starts/s asked / achieved | start p50 / p90 / p99 | completion p50 / p90 / p99 / p99.9 (mean) | completion p50 [95%], p99 [95%] | activity dispatch p50 / p99 (mean) | instances started / completed / failed / unfinished | load tester daprd CPU per workflow | bounded by |")
print("|---|---|---|---|---|---|---|---|---|")
runs = {}
for name in names:
    r = json.load(open(os.path.join(cp, name + ".json")))
    runs[name] = r
    res = r["status"].get("result", {})
    c = res.get("completion", {})
    n = c.get("workflows", {})
    lat = lambda s, ps: " / ".join(str(g(s, p)) for p in ps)
    cost = next((x for x in res.get("sidecarCost", []) if x.get("role") == "clientSidecar"), {})
    iv = c.get("latencyInterval", {})
    within = lambda p: "%s [%s–%s]" % (g(c, "latency", p), g(iv, "low", p), g(iv, "high", p))
    act = c.get("activityDispatch")
    print("| %s | %s / %s | %s | %s (%s) | %s, %s (%s) | %s (%s) | %s / %s / %s / %s | %s %s | %s |" % (name, res.get("requestedQPS", "-"), res.get("actualQPS", "-"),
        lat(res.get("latency"), ("p50", "p90", "p99")), lat(c.get("latency"), ("p50", "p90", "p99", "p999")), g(c, "latency", "avg"),
        within("p50"), within("p99"), iv.get("basis", "-"), lat(act, ("p50", "p99")), g(act, "avg"),
        n.get("started", "-"), n.get("completed", "-"), n.get("failed", 0), n.get("unfinished", 0),
        g(cost, "daprd", "cpuPerRequest"), g(cost, "daprd", "perRepetition"), bounded_by(r)))
print()
print("| run | pod | CPU during the run (s) | idle rate before (m) | CPU per 1000 workflows, less idle (CPU-s) |")
print("|---|---|---|---|---|")
for name in names:
    started = g(runs[name]["status"], "result", "completion", "workflows", "started")
    for pod in pods:
        i0, b, a = (counter(name, pod, e) for e in ("idle0", "before", "after"))
        if None in (i0, b, a) or started in ("-", 0):
            continue
        idle = (b[1] - i0[1]) / 1e9 / (b[0] - i0[0])
        used = (a[1] - b[1]) / 1e9
        per = (used - idle * (a[0] - b[0])) / started * 1000
        print("| %s | %s | %.2f over %.0f s | %.1f | %.3f |" % (name, pod, used, a[0] - b[0], idle * 1000, per))
print()
print("Dapr v1.17 perf charts (k6 virtual users driving Dapr'"'"'s workflow test app, which starts and hosts the workflows; closed loop: a user starts its next workflow when its last one completed):")
print("parallel pattern, 110 VUs closed loop: 97.91 workflows/s, median 1.06 s; scale, 500 VUs: 35.45 workflows/s, p95 29.94 s.")
'

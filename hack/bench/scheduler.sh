#!/usr/bin/env bash
# The Scheduler scenario (config/samples/perf_v1alpha1_perfrun_scheduler_jobs.yaml: 100
# registrations a second, each due 1 s later, 3 × 30 s): one-shot jobs, one-shot actor
# reminders (on 100 actor ids of the run's type, which the load tester hosts), then
# one-shot actor timers on them (kept by the load tester's daprd, not the scheduler). Prints
# each run's registration latency, trigger lateness (receipt minus the registration's slot
# plus the due time, on the load tester's clock) with the 95% intervals of its p50 and p99,
# the counts, the load tester's daprd's CPU per
# registration and the scheduler's CPU as metrics-server sampled it (the control plane's
# resources in the result), beside Dapr's suite, which counts rates only.
#
#   KUBECONFIG=... hack/bench/scheduler.sh   (the operator installed; ~5 min; DURATION=10s
#                                            shortens each repetition; QPS=N changes the rate;
#                                            TABLE_ONLY=1 prints the table of runs already made)
set -euo pipefail
cd "$(dirname "$0")/../.."
ns=${NS:-daprbench-scheduler}
qps=${QPS:-100}
names=(scheduler-jobs scheduler-reminders scheduler-timers)
hack/bench/sample-runs.sh config/samples/perf_v1alpha1_perfrun_scheduler_jobs.yaml "$ns" \
  "scheduler-jobs=s/^    qps: 100\$/    qps: $qps/" \
  "scheduler-reminders=s/^    api: Jobs\$/    api: ActorReminders/;s/^    qps: 100\$/    qps: $qps/" \
  "scheduler-timers=s/^    api: Jobs\$/    api: ActorTimers/;s/^    qps: 100\$/    qps: $qps/"
for name in "${names[@]}"; do
  kubectl -n "$ns" get perfrun "$name" -o json
done | PYTHONPATH=hack/bench python3 -c '
from perfruns import read, g, bounded_by
print("| run | registrations/s asked / achieved | registration p50 / p90 / p99 | lateness p50 / p90 / p99 / p99.9 (mean) | lateness p50 [95%], p99 [95%] | registered / triggered / missed / doubled | load tester daprd CPU per registration | scheduler CPU avg / max (all replicas) | bounded by |")
print("|---|---|---|---|---|---|---|---|---|")
for r in read():
    res = r["status"].get("result", {})
    t = res.get("triggers", {})
    n = t.get("counts", {})
    lat = lambda s, ps: " / ".join(str(g(s, p)) for p in ps)
    cost = next((x for x in res.get("sidecarCost", []) if x.get("role") == "clientSidecar"), {})
    sched = [c.get("usage", {}) for c in g(res, "resources", "controlPlane") or [] if isinstance(c, dict) and "scheduler" in c.get("component", "")] if g(res, "resources", "controlPlane") != "-" else []
    cp = "; ".join("%s / %s (%s samples)" % (g(s, "cpuAvg"), g(s, "cpuMax"), g(s, "samples")) for s in sched) or "-"
    iv = t.get("latenessInterval", {})
    within = lambda p: "%s [%s–%s]" % (g(t, "lateness", p), g(iv, "low", p), g(iv, "high", p))
    print("| %s | %s / %s | %s | %s (%s) | %s, %s (%s) | %s / %s / %s / %s | %s %s | %s | %s |" % (r["metadata"]["name"], res.get("requestedQPS", "-"), res.get("actualQPS", "-"),
        lat(res.get("latency"), ("p50", "p90", "p99")), lat(t.get("lateness"), ("p50", "p90", "p99", "p999")), g(t, "lateness", "avg"),
        within("p50"), within("p99"), iv.get("basis", "-"),
        n.get("registered", "-"), n.get("triggered", "-"), n.get("missed", 0), n.get("doubled", 0),
        g(cost, "daprd", "cpuPerRequest"), g(cost, "daprd", "perRepetition"), cp, bounded_by(r)))
print()
print("Dapr perf suite (v1.17; k6, counts rates only): jobs at 1000 qps asked, gate >= 600 +- 100 scheduled/s and 20,000 triggered; reminders at 3000 qps asked, gate >= 600 +- 120 registrations/s.")
'

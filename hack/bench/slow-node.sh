#!/usr/bin/env bash
# Does the calibration travel? Runs Dapr's perf-suite invocation setting twice on the
# cluster of the current kubeconfig (the local one after `make demo`, which deploys the
# operator): on a quiet node, then beside a busy neighbour — a pod running the calibration
# workload on one core for the whole run — and prints, per condition, the node's calibration,
# each sidecar's CPU per request raw and in calibration units (raw ÷ the node's score: the
# status offers no normalised cost, this bench is where the calibration is studied), and the added p90.
# If the neighbour slows the core (shared caches, memory bandwidth, a host's SMT sibling),
# the calibration drops and the raw cost rises while the cost in units stays; if it does not
# slow the core, neither moves, and this is no stand-in for a slower machine on this host.
#
#   hack/bench/slow-node.sh            # QPS=500 DURATION=30s REPEATS=1 (make bench-slow-node; ~12 min)
set -euo pipefail
cd "$(dirname "$0")/../.."
KUBECTL=${KUBECTL:-kubectl}
kubectl() { command "$KUBECTL" "$@"; }
IMG=${IMG:-daprbench:dev}
NS=${BENCH_NAMESPACE:-daprbench-bench-slow-node}
QPS=${QPS:-500}
DURATION=${DURATION:-30s}
REPEATS=${REPEATS:-1}
TIMEOUT=${TIMEOUT:-900}

kubectl -n daprbench-system rollout status deploy/daprbench-controller-manager --timeout=60s >/dev/null ||
  { echo "the operator is not running here: run make demo (or make deploy) first" >&2; exit 1; }
kubectl create namespace "$NS" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
cleanup() { kubectl -n "$NS" delete deploy/busy-neighbour --ignore-not-found --wait=false >/dev/null 2>&1 || true; }
trap cleanup EXIT

neighbour() {
  kubectl -n "$NS" apply -f - >/dev/null <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: {name: busy-neighbour}
spec:
  replicas: 1
  selector: {matchLabels: {app: busy-neighbour}}
  template:
    metadata: {labels: {app: busy-neighbour}}
    spec:
      containers:
      - name: burn
        image: $IMG
        imagePullPolicy: IfNotPresent
        command: [/loadtester, --calibrate=24h, --termination-log=/dev/null]
        env: [{name: GOMAXPROCS, value: "1"}]
        resources: {requests: {cpu: 100m}}
EOF
  kubectl -n "$NS" rollout status deploy/busy-neighbour --timeout=120s >/dev/null
}

run_once() { # name
  local name=$1 phase deadline
  kubectl -n "$NS" delete perfrun "$name" --ignore-not-found --wait=true >/dev/null
  sed -e "s/^  name: invocation-perfsuite/  name: $name/" -e "s/^    qps: 1000/    qps: $QPS/" -e "s/^    duration: 30s/    duration: $DURATION/" \
    config/samples/perf_v1alpha1_perfrun_invocation_perfsuite.yaml | kubectl -n "$NS" apply -f - >/dev/null
  deadline=$(( $(date +%s) + TIMEOUT ))
  while :; do
    phase=$(kubectl -n "$NS" get perfrun "$name" -o jsonpath='{.status.phase}' 2>/dev/null || true)
    case "$phase" in Succeeded|Failed) break ;; esac
    [ "$(date +%s)" -lt "$deadline" ] || { echo "$name did not finish in ${TIMEOUT}s" >&2; exit 1; }
    sleep 10
  done
  kubectl -n "$NS" get perfrun "$name" -o json
}

echo "# $(kubectl get nodes -o jsonpath='{.items[0].metadata.name}'), host CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD), $QPS qps, phases of $DURATION"
out=$(mktemp -d)
for i in $(seq "$REPEATS"); do
  cleanup; kubectl -n "$NS" wait --for=delete pod -l app=busy-neighbour --timeout=60s >/dev/null 2>&1 || true
  run_once "quiet-$i" > "$out/quiet-$i.json"
  neighbour
  run_once "busy-$i" > "$out/busy-$i.json"
  cleanup
done
python3 - "$out" <<'EOF'
import glob, json, os, sys
print(f"{'run':10s} {'calibration':>11s} {'slow%':>5s} {'server µs/req':>13s} {'units':>7s} {'client µs/req':>13s} {'units':>7s} {'added p90':>10s} {'qps':>7s}")
def us(d):
    for unit, f in (("ms", 1000), ("µs", 1), ("us", 1), ("s", 1e6)):
        if d.endswith(unit):
            return float(d[:-len(unit)]) * f
    return float("nan")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    run = json.load(open(path))
    st = run["status"]
    env = st.get("environment", {})
    cal = next((c for c in env.get("calibration", []) if c["node"] == env.get("targetNode")), {})
    res = st.get("result", {})
    cost = {c["role"]: c for c in res.get("sidecarCost", [])}
    s, c = cost.get("serverSidecar", {}), cost.get("clientSidecar", {})
    def units(x):
        try:
            return f"{us(x.get('cpuPerRequest','nan')) * 1e-6 * float(cal['perCPUSecond']):.2f}"
        except (KeyError, ValueError):
            return "-"
    print(f"{run['metadata']['name']:10s} {cal.get('perCPUSecond','-'):>11s} {cal.get('slowWindowsPercent',0):>5} "
          f"{us(s.get('cpuPerRequest','nan')):13.1f} {units(s):>7s} {us(c.get('cpuPerRequest','nan')):13.1f} "
          f"{units(c):>7s} {res.get('added',{}).get('p90','-'):>10s} {res.get('actualQPS','-'):>7s}")
EOF

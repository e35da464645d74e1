#!/usr/bin/env bash
# A CI-style comparison gate, end to end on a real cluster: main's result is exported as main's
# pipeline would keep it, then two "pull requests" are compared against it with
# `kubectl daprbench compare --max-slowdown`: an unchanged rerun (expected to pass, exit 0) and
# the same scenario with the sidecar's CPU limit halved (a deliberate slowdown, expected to
# fail, exit 4). The scenario is the published one (1000 rps, 16 connections, 1 KiB, mTLS,
# sampling 0.1) with three interleaved repetitions of DURATION and a sidecar CPU limit of
# LIMIT (default the published 500m). Halving it slows Dapr only where half the limit is
# near what daprd uses at 1000 rps: on a node where daprd costs ~150 µs of CPU a request,
# 500m → 250m leaves room and shows no slowdown beyond noise; LIMIT=300m (→ 150m) does.
# One run at a time. Prints each comparison and its exit code; exits 1 when either gate gave
# another code than expected.
#
#   KUBECONFIG=... [LIMIT=300m] hack/bench/compare-gate.sh [DURATION] [MAX_SLOWDOWN]
#     (default 30s and 10%; LIMIT in millicores; after make demo: the operator installed,
#     watching NS)
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-30s}
slowdown=${2:-10%}
limit=${LIMIT:-500m}
halved="$(( ${limit%m} / 2 ))m"
ns=${NS:-daprbench-demo}
plugin=${PLUGIN:-bin/kubectl-daprbench}
out=${OUT:-$(mktemp -d -t daprbench-compare-gate-XXXX)}
mkdir -p "$out"
[ -x "$plugin" ] || make --no-print-directory plugin >/dev/null

scenario() { # name cpuLimit
  cat <<YAML
apiVersion: perf.daprbench.io/v1alpha1
kind: PerfRun
metadata: {name: $1}
spec:
  scenario: ServiceInvocation
  load: {qps: 1000, connections: 16, duration: $duration, warmup: 10s, payloadBytes: 1024, repetitions: 3}
  baseline: true
  dapr: {mtls: Enabled, tracingSamplingRate: "0.1", sidecar: {cpuLimit: "$2", cpuRequest: 100m}}
  cleanup: Always
YAML
}

# start NAME LIMIT: runs the scenario to its end through the plugin (stdin, --wait) and
# prints the created run's name; the run's own verdict does not matter here.
start() {
  local name
  echo "$(date -u +%T) $1 (sidecar CPU limit $2) started" >&2
  name=$(scenario "$1" "$2" | "$plugin" -n "$ns" run -f - --wait -o name 2>>"$out/progress.log" | cut -d/ -f2) || true
  echo "$(date -u +%T) $1 finished: $name" >&2
  [ -n "$name" ] || { echo "no run was created for $1; see $out/progress.log" >&2; exit 1; }
  echo "$name"
}

main=$(start main "$limit")
"$plugin" -n "$ns" export "$main" -o json >"$out/main-result.json"
unchanged=$(start unchanged "$limit")
halved_run=$(start halved "$halved")

status=0
gate() { # label run expected
  local code=0
  echo
  echo "== compare main-result.json perfrun/$2 --max-slowdown $slowdown   ($1)"
  "$plugin" -n "$ns" compare "$out/main-result.json" "perfrun/$2" --max-slowdown "$slowdown" \
    --junit "$out/$1.xml" --summary "$out/summary.md" || code=$?
  echo "exit $code (expected $3)"
  [ "$code" = "$3" ] || status=1
}
gate unchanged "$unchanged" 0
gate halved "$halved_run" 4
echo
echo "results, JUnit and the Markdown summary: $out"
exit $status

#!/usr/bin/env bash
# The instrument's calibration (issue #44): the same PerfRun three times, its target app
# holding every request that arrives through Dapr for 0, then 500 µs, then 2 ms (annotation
# perf.daprbench.io/known-answer-dapr-delay; the baseline calls the app directly and is not
# held). The added p50 must rise by the injected amount: prints each run's added p50 and mean
# with their intervals, what the app measured it held, and compare's change against the
# 0 µs run with its interval.
#
#   KUBECONFIG=... hack/bench/known-answer.sh [SAMPLE]
#     (default config/samples/perf_v1alpha1_perfrun_invocation.yaml, Dapr's published
#      setting, ~7 min a run; DURATION=20s shortens each repetition; QPS=200 and
#      ARRIVAL=Uniform set another rate and arrival; TABLE_ONLY=1 prints the table of runs
#      already made; the operator installed)
set -euo pipefail
cd "$(dirname "$0")/../.."
sample=${1:-config/samples/perf_v1alpha1_perfrun_invocation.yaml}
ns=${NS:-daprbench-known-answer}
make --no-print-directory plugin >/dev/null
plugin=bin/kubectl-daprbench
kubectl get ns "$ns" >/dev/null 2>&1 || kubectl create ns "$ns" >/dev/null
base=$(kubectl create --dry-run=client -o jsonpath='{.metadata.name}' -f "$sample")
names=()
for delay in 0 500us 2ms; do
  name="$base-ka-$delay"
  names+=("$name")
  [ -n "${TABLE_ONLY:-}" ] && continue # the runs exist: print their table again
  kubectl -n "$ns" delete perfrun "$name" --ignore-not-found --wait=true >/dev/null
  doc=$(sed -E "s/^  name: $base\$/  name: $name/" "$sample")
  [ -n "${DURATION:-}" ] && doc=$(sed -E "s/^    duration: .*/    duration: $DURATION/" <<<"$doc")
  [ -n "${QPS:-}" ] && doc=$(sed -E "s/^    qps: .*/    qps: $QPS/" <<<"$doc")
  [ -n "${ARRIVAL:-}" ] && doc=$(sed -E "s/^    qps: (.*)/    qps: \1\n    arrival: $ARRIVAL/" <<<"$doc")
  if [ "$delay" != 0 ]; then
    doc=$(sed -E "s/^  name: $name\$/  name: $name\n  annotations:\n    perf.daprbench.io\/known-answer-dapr-delay: \"$delay\"/" <<<"$doc")
  fi
  kubectl -n "$ns" apply -f - >/dev/null <<<"$doc"
  echo "$(date -u +%T) $name started" >&2
  kubectl -n "$ns" wait perfrun "$name" --for=jsonpath='{.status.completionTime}' --timeout=30m >/dev/null
  echo "$(date -u +%T) $name finished: $(kubectl -n "$ns" get perfrun "$name" -o jsonpath='{.status.conditions[?(@.type=="Succeeded")].reason}')" >&2
done
. hack/bench/result.sh
jp() { run_jsonpath "$ns" "$1" "$2"; }
# change SPREAD NAME: compare's change of the added p50 from the 0 µs run to NAME and its
# interval, each run's own interval widened by --rerun-spread SPREAD (0: within-run only).
change() {
  # compare exits 4 when B is slower than its (zero) gate: the injected delay is meant to be.
  ("$plugin" compare "perfrun/${names[0]}" "perfrun/$2" -n "$ns" --rerun-spread "$1" -o json 2>/dev/null || true) |
    python3 -c 'import json,sys
d=[x for x in json.load(sys.stdin)["differences"] if x["figure"]=="added p50"]
print(d[0]["change"]+" "+d[0].get("changeInterval","-") if d else "-")'
}
printf '\n| injected | added p50 [95%%] | added mean [95%%] | tester lateness p99 | change of added p50 vs 0: within-run [95%%] | covering a rerun (3%%) [95%%] |\n|---|---|---|---|---|---|\n'
for i in 0 1 2; do
  name=${names[$i]}
  within="-" rerun="-"
  if [ "$i" != 0 ]; then
    within=$(change 0 "$name") rerun=$(change 3% "$name")
  fi
  printf '| %s | %s [%s, %s] | %s [%s, %s] | %s | %s | %s |\n' "${name##*-ka-}" \
    "$(jp "$name" '{.status.result.added.p50}')" "$(jp "$name" '{.status.result.addedInterval.low.p50}')" "$(jp "$name" '{.status.result.addedInterval.high.p50}')" \
    "$(jp "$name" '{.status.result.added.avg}')" "$(jp "$name" '{.status.result.addedInterval.low.avg}')" "$(jp "$name" '{.status.result.addedInterval.high.avg}')" \
    "$(jp "$name" '{.status.result.testerLag.p99}')" "$within" "$rerun"
done

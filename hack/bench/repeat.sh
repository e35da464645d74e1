#!/usr/bin/env bash
# How far unchanged runs of one scenario agree: applies a PerfRun sample RUNS times, one after
# another (each created only once the one before has finished, so no two share the node), and
# prints per run the added latency with its interval, the achieved rate, the sidecars'
# throttled share and the verdict's reason; then the spread of the added p90 over the runs and
# how many runs' intervals contain every other run's added p90.
#
#   KUBECONFIG=... hack/bench/repeat.sh [SAMPLE] [RUNS]
#     (default config/samples/perf_v1alpha1_perfrun_invocation.yaml, 5; the operator installed)
set -euo pipefail
sample=${1:-config/samples/perf_v1alpha1_perfrun_invocation.yaml}
runs=${2:-5}
ns=${NS:-daprbench-repeat}
kubectl get ns "$ns" >/dev/null 2>&1 || kubectl create ns "$ns" >/dev/null
base=$(kubectl create --dry-run=client -o jsonpath='{.metadata.name}' -f "$sample")
for i in $(seq 1 "$runs"); do
  name="$base-$i"
  kubectl -n "$ns" delete perfrun "$name" --ignore-not-found --wait=true >/dev/null
  sed -E "s/^  name: $base\$/  name: $name/" "$sample" | kubectl -n "$ns" apply -f - >/dev/null
  echo "$(date -u +%T) $name started" >&2
  kubectl -n "$ns" wait perfrun "$name" --for=jsonpath='{.status.completionTime}' --timeout=30m >/dev/null
  echo "$(date -u +%T) $name finished" >&2
done

jp() { kubectl -n "$ns" get perfrun "$1" -o jsonpath="$2"; }
# Durations as kubectl prints them (1.234ms, 812µs, 2.1s) in microseconds.
us() { python3 -c 'import re,sys
s=sys.argv[1]; m=re.fullmatch(r"([0-9.]+)(ns|µs|us|ms|s)", s)
print("" if not m else round(float(m[1])*{"ns":1e-3,"µs":1,"us":1,"ms":1e3,"s":1e6}[m[2]], 1))' "$1"; }
cpu() { kubectl -n "$ns" get perfrun "$1" -o jsonpath="{range .status.result.cpu.measured[?(@.role==\"$2\")]}{.throttledPeriodsPercent}% of {.periods}, {.cpu}{end}"; }

printf '| run | added p50 / p90 / p99 | p90 interval | achieved qps | server sidecar throttled | client sidecar throttled | verdict |\n|---|---|---|---|---|---|---|\n'
table=""
for i in $(seq 1 "$runs"); do
  name="$base-$i"
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$i" \
    "$(jp "$name" '{.status.result.added.p50} / {.status.result.added.p90} / {.status.result.added.p99}')" \
    "$(jp "$name" '[{.status.result.addedInterval.low.p90}, {.status.result.addedInterval.high.p90}]')" \
    "$(jp "$name" '{.status.result.actualQPS}')" "$(cpu "$name" serverSidecar)" "$(cpu "$name" clientSidecar)" \
    "$(jp "$name" '{.status.conditions[?(@.type=="Succeeded")].reason}')"
  table+="$(us "$(jp "$name" '{.status.result.added.p90}')") $(us "$(jp "$name" '{.status.result.addedInterval.low.p90}')") $(us "$(jp "$name" '{.status.result.addedInterval.high.p90}')")"$'\n'
done
python3 - "$table" <<'PY'
import statistics, sys
rows = [tuple(float(x) for x in line.split()) for line in sys.argv[1].splitlines() if len(line.split()) == 3]
if len(rows) < 2:
    sys.exit("fewer than two runs with an added p90 and its interval")
p90 = [r[0] for r in rows]
mean = statistics.mean(p90)
print(f"\nadded p90 over {len(rows)} runs: min {min(p90)/1000:.2f} ms, max {max(p90)/1000:.2f} ms, "
      f"range {(max(p90)-min(p90))/1000:.2f} ms ({(max(p90)-min(p90))/mean*100:.0f}% of the mean {mean/1000:.2f} ms), "
      f"sd {statistics.stdev(p90)/1000:.2f} ms")
pairs = [(i, j) for i in range(len(rows)) for j in range(len(rows)) if i != j]
held = sum(rows[i][1] <= rows[j][0] <= rows[i][2] for i, j in pairs)
whole = sum(all(rows[i][1] <= rows[j][0] <= rows[i][2] for j in range(len(rows)) if j != i) for i in range(len(rows)))
print(f"a run's interval holds another run's added p90 in {held} of {len(pairs)} pairs; "
      f"{whole} of {len(rows)} intervals hold every other run's")
PY

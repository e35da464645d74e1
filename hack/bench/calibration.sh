#!/usr/bin/env bash
# How repeatable the node calibration is, and whether it sees a slower CPU: runs the
# calibration workload (loadtester --calibrate, the init container's command) REPEATS times on
# this machine, pinned to one CPU,
#   idle     nothing else running,
#   quota    under a 500m CFS quota (the sidecar's published limit; needs cgroup v2 and root),
#   burner   beside a second copy of the workload pinned to the other CPU (a busy neighbour:
#            shared caches and memory bandwidth, and a host's SMT sibling where the vCPUs are
#            hyperthreads),
# and prints each condition's scores and their spread ((max-min)/median).
# Usage: hack/bench/calibration.sh [REPEATS] [SECONDS]   (make bench-calibration)
set -euo pipefail
cd "$(dirname "$0")/../.."
repeats=${1:-5}
seconds=${2:-2}
work=$(mktemp -d)
burner=
cleanup() {
  [ -z "$burner" ] || kill -9 "$burner" 2>/dev/null || true
  rmdir /sys/fs/cgroup/cpu/daprbench-calibration /sys/fs/cgroup/daprbench-calibration 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
CGO_ENABLED=0 go build -o "$work/loadtester" ./cmd/loadtester
cpus=$(nproc)
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $cpus CPUs, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD)"

score() { # condition, extra command prefix
  local cond=$1; shift
  for i in $(seq "$repeats"); do
    "$@" taskset -c 0 "$work/loadtester" --calibrate="${seconds}s" --termination-log="$work/score.json" >/dev/null
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(sys.argv[2], sys.argv[3], round(s["single"]), round(s.get("perCPUSecond", 0)), round(s["parallel"]), s["parallelism"], round(s.get("slowShare", 0), 2))' "$work/score.json" "$cond" "$i"
  done
}

quota_cgroup() { # a cgroup limited to 500m (cgroup v2, else v1's cpu controller), or nothing
  if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
    mkdir -p /sys/fs/cgroup/daprbench-calibration && echo "50000 100000" > /sys/fs/cgroup/daprbench-calibration/cpu.max \
      && echo /sys/fs/cgroup/daprbench-calibration
  elif [ -d /sys/fs/cgroup/cpu ]; then
    local cg=/sys/fs/cgroup/cpu/daprbench-calibration
    mkdir -p "$cg" && echo 100000 > "$cg/cpu.cfs_period_us" && echo 50000 > "$cg/cpu.cfs_quota_us" && echo "$cg"
  fi
}
in_quota() { # runs "$@" inside the quota cgroup
  sh -c 'echo $$ > "$0/cgroup.procs"; exec "$@"' "$cg" "$@"
}

{
  echo "condition repeat single perCPUSecond parallel parallelism slowShare"
  score idle env
  cg=$(quota_cgroup 2>/dev/null || true)
  if [ -n "$cg" ]; then score quota in_quota; else echo "# no cgroup CPU controller here: quota not measured" >&2; fi
  if [ "$cpus" -ge 2 ]; then
    taskset -c 1 "$work/loadtester" --calibrate=24h --termination-log=/dev/null >/dev/null 2>&1 &
    burner=$!
    sleep 1
    score burner env
    kill -9 "$burner"; burner=
  fi
} | tee "$work/scores.txt"
python3 - "$work/scores.txt" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
print("\ncondition   perCPUSecond median   spread   single median   spread")
for cond in dict.fromkeys(r[0] for r in rows):
    per = [float(r[3]) for r in rows if r[0] == cond]
    single = [float(r[2]) for r in rows if r[0] == cond]
    spread = lambda v: (max(v) - min(v)) / statistics.median(v) * 100
    print(f"{cond:10s}  {statistics.median(per):19.0f}  {spread(per):6.1f}%  {statistics.median(single):14.0f}  {spread(single):6.1f}%")
EOF

#!/usr/bin/env bash
# Where Dapr's added latency goes, and what each Dapr feature costs, on a real cluster, one run at a time, in Dapr's
# published invocation scenario (1000 rps, 16 connections, 1 KiB, mTLS as the cluster has it,
# tracing sampling 0.1, sidecar limited to LIMIT, default 500m, request 100m), three
# interleaved repetitions of DURATION per path:
#
#   1. four-paths: direct, client sidecar only, server sidecar only and both; the added
#      latency split into client sidecar, server sidecar and interaction, with intervals;
#   2. features: a PerfSweep over settings (mTLS off — measured only where the cluster has it
#      off —, tracing 0 / 0.1 / 1, app protocol gRPC), each point's added latency and sidecar
#      CPU per 1000 rps with intervals.
#
# Writes every report under OUT and prints the figures.
#
# What profiling costs is hack/bench/profiling-cost.sh.
#
#   KUBECONFIG=... [LIMIT=500m] [SKIP=four-paths,features] hack/bench/attribution.sh [DURATION]
#     (default 30s; after make demo: the operator installed, watching NS)
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-30s}
limit=${LIMIT:-500m}
ns=${NS:-daprbench-demo}
skip=${SKIP:-}
plugin=${PLUGIN:-bin/kubectl-daprbench}
out=${OUT:-$(mktemp -d -t daprbench-attribution-XXXX)}
mkdir -p "$out"
[ -x "$plugin" ] || make --no-print-directory plugin >/dev/null

spec() { # extra spec lines
  cat <<YAML
  scenario: ServiceInvocation
  load: {qps: 1000, connections: 16, duration: $duration, warmup: 10s, payloadBytes: 1024, repetitions: 3}
  baseline: true
  dapr: {mtls: Enabled, tracingSamplingRate: "0.1", sidecar: {cpuLimit: "$limit", cpuRequest: 100m}}
$1
YAML
}

run() { # name extra-spec: runs to its end through the plugin, prints the run's name
  local name
  echo "$(date -u +%T) $1 started" >&2
  name=$({ printf 'apiVersion: perf.daprbench.io/v1alpha1\nkind: PerfRun\nmetadata: {name: %s}\nspec:\n' "$1"; spec "$2"; } |
    "$plugin" -n "$ns" run -f - --wait -o name 2>>"$out/progress.log" | cut -d/ -f2) || true
  echo "$(date -u +%T) $1 finished: $name" >&2
  [ -n "$name" ] || { echo "no run was created for $1; see $out/progress.log" >&2; exit 1; }
  echo "$name"
}

report() { # run-or-sweep
  echo
  echo "== kubectl daprbench report $1"
  "$plugin" -n "$ns" report "$1" --dir "$out/${1//\//-}"
}

if [[ $skip != *four-paths* ]]; then
  four=$(run four-paths "  serviceInvocation: {paths: FourPaths}")
  report "$four"
fi
if [[ $skip != *features* ]]; then
  echo "$(date -u +%T) features sweep started" >&2
  {
    printf 'apiVersion: perf.daprbench.io/v1alpha1\nkind: PerfSweep\nmetadata: {name: features}\nspec:\n'
    printf '  points:\n    settings:\n'
    printf '    - {name: mtls-off, mtls: Disabled}\n    - {name: trace-0, tracingSamplingRate: "0"}\n'
    printf '    - {name: trace-0.1, tracingSamplingRate: "0.1"}\n    - {name: trace-1, tracingSamplingRate: "1"}\n'
    printf '    - {name: grpc, appProtocol: GRPC}\n'
    printf '  template:\n    spec:\n'
    spec "" | sed 's/^/    /'
  } | "$plugin" -n "$ns" run -f - --wait -o name 2>>"$out/progress.log" >"$out/sweep-name" || true
  sweep=$(cut -d/ -f2 <"$out/sweep-name")
  echo "$(date -u +%T) features sweep finished: $sweep" >&2
  [ -n "$sweep" ] || { echo "no sweep was created; see $out/progress.log" >&2; exit 1; }
  report "perfsweep/$sweep"
fi
echo
echo "reports: $out"

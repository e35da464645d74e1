#!/usr/bin/env bash
# How far an unchanged rerun moves the figures (issue #44): the same PerfRun N times back
# to back, then, per percentile of the added latency, how often one run's interval holds
# another run's point, the runs' spread, and the smallest slowdown two runs can tell from
# that spread here; beside them what may drive the drift (the baseline's p50, the node's CPU
# busy, each daprd's CPU per request from its own counter). A PubSub sample's runs get the
# same table for their added delivery latency, a Workflow sample's for its completion and a
# Scheduler sample's for its trigger lateness (their own latency: no baseline).
#
#   KUBECONFIG=... hack/bench/rerun.sh [SAMPLE]
#     (default config/samples/perf_v1alpha1_perfrun_invocation.yaml, Dapr's published
#      setting; RUNS=6; DURATION=20s shortens each repetition; TABLE_ONLY=1 prints the
#      tables of runs already made; DOCS=dir keeps their result documents there; the
#      operator installed)
#
# Beside the spread: how often each run's interval, widened by the other runs' robust spread
# as compare widens it, holds another run's point; and compare with its default flags on every
# pair (how often it calls an unchanged pair different). A known slowdown's detection by a
# schedule's judge: go run ./hack/bench/regression-replay over the documents.
set -euo pipefail
cd "$(dirname "$0")/../.."
sample=${1:-config/samples/perf_v1alpha1_perfrun_invocation.yaml}
ns=${NS:-daprbench-rerun}
runs=${RUNS:-6}
kubectl get ns "$ns" >/dev/null 2>&1 || kubectl create ns "$ns" >/dev/null
base=$(kubectl create --dry-run=client -o jsonpath='{.metadata.name}' -f "$sample")
names=()
for i in $(seq 1 "$runs"); do
  name="$base-rerun-$i"
  names+=("$name")
  [ -n "${TABLE_ONLY:-}" ] && continue
  kubectl -n "$ns" delete perfrun "$name" --ignore-not-found --wait=true >/dev/null
  doc=$(sed -E "s/^  name: $base\$/  name: $name/" "$sample")
  [ -n "${DURATION:-}" ] && doc=$(sed -E "s/^    duration: .*/    duration: $DURATION/" <<<"$doc")
  kubectl -n "$ns" apply -f - >/dev/null <<<"$doc"
  echo "$(date -u +%T) $name started" >&2
  kubectl -n "$ns" wait perfrun "$name" --for=jsonpath='{.status.completionTime}' --timeout=30m >/dev/null
  echo "$(date -u +%T) $name finished: $(kubectl -n "$ns" get perfrun "$name" -o jsonpath='{.status.conditions[?(@.type=="Succeeded")].reason}')" >&2
done
# The figures are in each run's result document: the plugin's export, one JSON document a
# run, kept in DOCS (default a new temporary directory) for compare and regression-replay.
. hack/bench/result.sh
build_daprbench_plugin
docs=${DOCS:-$(mktemp -d)}
mkdir -p "$docs"
files=()
for name in "${names[@]}"; do
  if "$daprbench_plugin" -n "$ns" export "$name" -o json > "$docs/$name.json"; then
    files+=("$docs/$name.json")
  else
    echo "$name: no result document" >&2
    rm -f "$docs/$name.json"
  fi
done
echo "documents: $docs" >&2
DAPRBENCH_PLUGIN=$daprbench_plugin python3 "$(dirname "$0")/rerun_table.py" "${files[@]}"

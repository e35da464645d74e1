#!/usr/bin/env bash
# Runs variants of one sample, one after another, each to its end: the loop the scenario
# benchmarks (state.sh, pubsub.sh) share.
#
#   hack/bench/sample-runs.sh SAMPLE NAMESPACE NAME[=SED-EDIT] ...
#
# Each NAME is the sample renamed (its metadata.name replaced), edited by the optional sed
# expression; DURATION replaces each repetition's duration; TABLE_ONLY=1 runs nothing.
set -euo pipefail
sample=$1 ns=$2
shift 2
base=$(sed -nE 's/^  name: (.*)$/\1/p' "$sample" | head -1)
kubectl get ns "$ns" >/dev/null 2>&1 || kubectl create ns "$ns" >/dev/null
for spec in "$@"; do
  [ -n "${TABLE_ONLY:-}" ] && continue
  name=${spec%%=*} edit=""
  [ "$spec" != "$name" ] && edit=${spec#*=}
  kubectl -n "$ns" delete perfrun "$name" --ignore-not-found --wait=true >/dev/null
  doc=$(sed -E "s/^  name: $base\$/  name: $name/" "$sample")
  [ -n "$edit" ] && doc=$(sed -E "$edit" <<<"$doc")
  [ -n "${DURATION:-}" ] && doc=$(sed -E "s/^    duration: .*/    duration: $DURATION/" <<<"$doc")
  kubectl -n "$ns" apply -f - >/dev/null <<<"$doc"
  echo "$(date -u +%T) $name started" >&2
  kubectl -n "$ns" wait perfrun "$name" --for=jsonpath='{.status.completionTime}' --timeout=30m >/dev/null
  echo "$(date -u +%T) $name finished: $(kubectl -n "$ns" get perfrun "$name" -o jsonpath='{.status.conditions[?(@.type=="Succeeded")].reason}')" >&2
done

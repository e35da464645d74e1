#!/usr/bin/env bash
# The main job: Dapr's published service-invocation scenario, end to end, and its result.
#
# Uses the cluster of the current kubeconfig when one answers; otherwise brings up the local
# one-node cluster (hack/local-cluster, root) with real Dapr installed by its own Helm chart,
# and loads the image into it. Then deploys the operator, applies the sample, streams its
# progress and prints the finished status beside Dapr's published figures.
#
#   make demo                                   # local cluster + Dapr when no cluster is configured
#   DEMO_QPS=1000 make demo                     # the published rate, where the cluster sustains it
#   DEMO_SAMPLE=config/samples/perf_v1alpha1_perfrun_actors.yaml make demo
#   DEMO_SAMPLE=config/samples/perf_v1alpha1_perfrun_direct.yaml make demo    # no Dapr needed
set -euo pipefail
cd "$(dirname "$0")/.."

IMG=${IMG:-daprbench:dev}
KUSTOMIZE=$(realpath "${KUSTOMIZE:-bin/kustomize}")
NS=${DEMO_NAMESPACE:-daprbench-demo}
TIMEOUT=${DEMO_TIMEOUT:-600}

KUBECTL=${KUBECTL:-kubectl}
kubectl() { command "$KUBECTL" "$@"; }
say() { printf '\n== %s\n' "$*"; }

if kubectl version --request-timeout=5s >/dev/null 2>&1; then
  say "using the cluster of the current kubeconfig ($(kubectl config current-context 2>/dev/null || echo in-cluster)); image $IMG must be pullable there"
  local_cluster=false
else
  say "no cluster configured: bringing up the local one-node cluster with Dapr ${DAPR_VERSION:-} (first time: builds Kubernetes and Dapr from Go modules, ~20 min)"
  make --no-print-directory cluster-dapr
  export KUBECONFIG=${DAPRBENCH_KUBECONFIG:-$HOME/.cache/daprbench/cluster/kubeconfig}
  make --no-print-directory cluster-image IMG="$IMG" >/dev/null
  local_cluster=true
fi

if [ -z "${DEMO_SAMPLE:-}" ]; then
  if kubectl get crd configurations.dapr.io >/dev/null 2>&1; then
    DEMO_SAMPLE=config/samples/perf_v1alpha1_perfrun_invocation.yaml
  else
    DEMO_SAMPLE=config/samples/perf_v1alpha1_perfrun_direct.yaml
    echo "Dapr is not installed here: measuring the cluster's own network floor (dapr.enabled=false)"
  fi
fi
# The one departure from the published setup on the local cluster: its rate. One node of
# 2 cores carries both sidecars, the app, the load tester and Dapr's control plane, where
# Dapr's published run had three 4-core nodes; at 1000 rps the rate falls short and the
# result would measure queueing, not Dapr. The e2e suite runs at the same rate.
if [ -z "${DEMO_QPS:-}" ] && $local_cluster && [ "$DEMO_SAMPLE" = config/samples/perf_v1alpha1_perfrun_invocation.yaml ]; then
  DEMO_QPS=500
  echo "Adjusted for this machine: qps $DEMO_QPS instead of the published 1000 ($(nproc) cores, one node; set DEMO_QPS to override)."
fi

say "deploying the operator"
(cd config/manager && "$KUSTOMIZE" edit set image controller="$IMG")
"$KUSTOMIZE" build config/default | kubectl apply --server-side --force-conflicts -f - >/dev/null
(cd config/manager && "$KUSTOMIZE" edit set image controller=daprbench:dev)
kubectl -n daprbench-system rollout status deploy/daprbench-controller-manager --timeout=120s

say "running $DEMO_SAMPLE in namespace $NS"
kubectl create namespace "$NS" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
name=$(kubectl create --dry-run=client -o jsonpath='{.metadata.name}' -f "$DEMO_SAMPLE")
kubectl -n "$NS" delete perfrun "$name" --ignore-not-found --wait=true >/dev/null
if [ -n "${DEMO_QPS:-}" ]; then
  sed -E "s/^(    qps: )[0-9]+$/\1$DEMO_QPS/" "$DEMO_SAMPLE" | kubectl -n "$NS" apply -f -
else
  kubectl -n "$NS" apply -f "$DEMO_SAMPLE"
fi

last="" start=$SECONDS
while :; do
  phase=$(kubectl -n "$NS" get perfrun "$name" -o jsonpath='{.status.phase}' 2>/dev/null || true)
  # What the run waits on (conditions not True) and the usage sampled so far.
  notes=$(kubectl -n "$NS" get perfrun "$name" -o jsonpath='{range .status.conditions[*]}{.type}{"|"}{.status}{"|"}{.message}{"\n"}{end}' 2>/dev/null |
    awk -F'|' '$3 != "" && ($2 != "True" || $1 == "ResourceUsageAvailable") && $1 != "Failed" && $1 != "Succeeded" {printf "%s%s: %s", sep, $1, $3; sep="; "}')
  line="${phase:-Pending}${notes:+ | $notes}"
  if [ "$line" != "$last" ]; then printf '[%4ss] %s\n' $((SECONDS - start)) "$line"; last=$line; fi
  case "$phase" in Succeeded|Failed) break ;; esac
  if ((SECONDS - start > TIMEOUT)); then echo "demo: no result after ${TIMEOUT}s" >&2; exit 1; fi
  sleep 2
done

say "result"
kubectl -n "$NS" get perfrun "$name"
echo
kubectl -n "$NS" get perfrun "$name" -o custom-columns='PATH:.spec.scenario,REQUESTS:.status.result.requests,ERRORS:.status.result.errors,P50:.status.result.latency.p50,P75:.status.result.latency.p75,P90:.status.result.latency.p90,P99:.status.result.latency.p99,P99.9:.status.result.latency.p999,MAX:.status.result.latency.max,ADDED-P90:.status.result.added.p90,ADDED-P99:.status.result.added.p99'
echo
printf '%-15s %8s %8s %10s %10s %8s\n' ROLE CPU-AVG CPU-MAX MEM-AVG MEM-MAX SAMPLES
for role in serverApp serverSidecar clientSidecar loadTester baselineApp; do
  row=$(kubectl -n "$NS" get perfrun "$name" -o jsonpath="{.status.result.resources.$role.cpuAvg} {.status.result.resources.$role.cpuMax} {.status.result.resources.$role.memoryAvg} {.status.result.resources.$role.memoryMax} {.status.result.resources.$role.samples}")
  # shellcheck disable=SC2086
  [ -n "${row// /}" ] && printf '%-15s %8s %8s %10s %10s %8s\n' "$role" $row
done
echo
jp() { kubectl -n "$NS" get perfrun "$name" -o jsonpath="$1"; }
cp_rows=$(jp '{range .status.result.resources.controlPlane[*]}{.component} {.usage.cpuAvg} {.usage.cpuMax} {.usage.memoryAvg} {.usage.memoryMax} {.usage.samples}{"\n"}{end}')
if [ -n "$cp_rows" ]; then
  echo
  printf '%-22s %8s %8s %10s %10s %8s\n' CONTROL-PLANE CPU-AVG CPU-MAX MEM-AVG MEM-MAX SAMPLES
  while read -r row; do
    # shellcheck disable=SC2086
    printf '%-22s %8s %8s %10s %10s %8s\n' $row
  done <<<"$cp_rows"
fi
per1k="$(jp '{.status.result.resources.sidecarPer1kQPS.cpu} {.status.result.resources.sidecarPer1kQPS.memory}')"
if [ -n "${per1k// /}" ]; then
  echo
  echo "Beside Dapr's published v1.0 figures (3 nodes of 4 cores, 1000 rps; this run: $(jp '{.status.environment.sidecarImage}'), $(jp '{.status.result.requestedQPS}') rps, $(nproc) cores, one node):"
  printf '  %-30s %-16s %s\n' FIGURE PUBLISHED MEASURED
  printf '  %-30s %-16s %s\n' "added latency p90" "~1.40ms" "$(jp '{.status.result.added.p90}')"
  printf '  %-30s %-16s %s\n' "added latency p99" "~2.10ms" "$(jp '{.status.result.added.p99}')"
  printf '  %-30s %-16s %s\n' "sidecar CPU per 1000 rps" "0.48 vCPU" "$(jp '{.status.result.resources.sidecarPer1kQPS.cpu}')"
  printf '  %-30s %-16s %s\n' "sidecar memory per 1000 rps" "23 MB" "$(jp '{.status.result.resources.sidecarPer1kQPS.memory}')"
fi
echo
jp '{range .status.conditions[*]}{.type}={.status} ({.reason}): {.message}{"\n"}{end}'
phase=$(kubectl -n "$NS" get perfrun "$name" -o jsonpath='{.status.phase}')
if $local_cluster; then
  echo
  echo "The local cluster stays up: export KUBECONFIG=$KUBECONFIG; tear it down with 'make cluster-down'."
fi
[ "$phase" = Succeeded ]

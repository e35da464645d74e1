#!/usr/bin/env bash
# The main job: Dapr's published service-invocation scenario, end to end, and its result.
#
# Uses the cluster of the current kubeconfig when one answers; otherwise brings up the local
# one-node cluster (hack/local-cluster, root) with real Dapr installed by its own Helm chart,
# and loads the image into it. Then deploys the operator, applies the sample, streams its
# progress and prints the finished status (kubectl daprbench report, which also writes a
# self-contained report.html) beside Dapr's published figures. When the published setting was
# bounded on this machine (its 0.5 vCPU sidecar limit throttled, or a path saturated), it says
# what Dapr cost per request there and runs the same scenario under Dapr's current perf-suite
# setting (4 vCPU limit), shown beside that suite's figures: an added latency on any machine.
#
#   make demo                                   # local cluster + Dapr when no cluster is configured
#   DEMO_QPS=500 make demo                      # another rate
#   DEMO_SAMPLE=config/samples/perf_v1alpha1_perfrun_actors.yaml make demo
#   DEMO_SAMPLE=config/samples/perf_v1alpha1_perfrun_direct.yaml make demo    # no Dapr needed
#   DEMO_SKIP_PERFSUITE=1 make demo             # the published setting only
#   DEMO_CONTEXT=my-ctx make demo               # a cluster that is not local: named, or refused
#   DEMO_LOCAL_CLUSTER=1 make demo              # the local cluster, whatever the kubeconfig says
#   make demo-down                              # remove what the demo installed (the local cluster: make cluster-down)
#
# The operator goes in through the Helm chart (release daprbench in daprbench-system, its
# RBAC limited to the demo's namespace), so a later `helm upgrade` of the same release works.
set -euo pipefail
cd "$(dirname "$0")/../.."

IMG=${IMG:-daprbench:dev}
REDIS_IMG=${REDIS_IMG:-daprbench-redis:debian}
NS=${DEMO_NAMESPACE:-daprbench-demo}
TIMEOUT=${DEMO_TIMEOUT:-600}

KUBECTL=${KUBECTL:-kubectl}
kubectl() { command "$KUBECTL" "$@"; }
HELM=${HELM:-bin/helm}
helm() { command "$HELM" "$@"; }
say() { printf '\n== %s\n' "$*"; }
RELEASE=daprbench
OPERATOR_NS=daprbench-system

# local_context: a context whose cluster is a throwaway one on this machine (the project's
# local cluster, kind, minikube): the demo installs there without being told.
local_context() {
  case "$1" in daprbench-local | kind-* | minikube) return 0 ;; esac
  return 1
}

# refuse_foreign_context stops, having changed nothing, when the kubeconfig points at a
# cluster that is not local and the user did not name it: the demo installs CRDs, an
# operator and RBAC, and runs an exclusive benchmark that queues every other run.
refuse_foreign_context() {
  local ctx=$1 what=$2
  if local_context "$ctx" || [ "${DEMO_CONTEXT:-}" = "$ctx" ]; then
    return
  fi
  {
    echo "make $what refuses context \"$ctx\": it is not a local cluster (daprbench-local, kind-*, minikube). Nothing was changed."
    echo "The demo installs daprbench's CRDs, its operator (Helm release $RELEASE in $OPERATOR_NS) and RBAC for namespace $NS,"
    echo "and runs a benchmark of several minutes that queues every other exclusive run on the cluster."
    echo "  DEMO_CONTEXT=$ctx make $what     # yes, this cluster"
    echo "  DEMO_LOCAL_CLUSTER=1 make $what  # the local one-node cluster instead (root; built the first time)"
  } >&2
  exit 2
}

# image_parts splits IMG into repository and tag, or digest (a registry's port is not a tag).
image_parts() {
  local last=${IMG##*/}
  digest=""
  if [[ "$IMG" == *@* ]]; then
    repository=${IMG%%@*} digest=${IMG#*@} tag=""
    [[ "${repository##*/}" != *:* ]] || repository=${repository%:*} # name:tag@digest: the digest decides
  elif [[ "$last" == *:* ]]; then
    repository=${IMG%:*} tag=${last##*:}
  else
    repository=$IMG tag=latest
  fi
}

if [ "${1:-}" = down ]; then
  if [ -n "${DEMO_LOCAL_CLUSTER:-}" ] || ! kubectl version --request-timeout=5s >/dev/null 2>&1; then
    export KUBECONFIG=${DAPRBENCH_KUBECONFIG:-$HOME/.cache/daprbench/cluster/kubeconfig}
    if ! kubectl version --request-timeout=5s >/dev/null 2>&1; then
      echo "No cluster answers (neither the kubeconfig's nor the local one): nothing to remove."
      exit 0
    fi
  fi
  ctx=$(kubectl config current-context 2>/dev/null || echo in-cluster)
  refuse_foreign_context "$ctx" demo-down
  say "removing the demo from context $ctx: namespace $NS (its runs), Helm release $RELEASE"
  kubectl delete namespace "$NS" --ignore-not-found --wait=true --timeout=3m
  helm uninstall "$RELEASE" --namespace "$OPERATOR_NS" --ignore-not-found --wait --timeout 2m
  kubectl delete namespace "$OPERATOR_NS" --ignore-not-found --wait=false
  echo "The CRDs stay (the chart keeps them, so an uninstall never deletes anyone's runs): remove them with"
  echo "  kubectl delete crd perfruns.perf.daprbench.io perfschedules.perf.daprbench.io perfsweeps.perf.daprbench.io"
  if [ "$ctx" = daprbench-local ]; then echo "The local cluster itself: make cluster-down"; fi
  exit 0
fi

# registry_ref: IMG names a registry host (registry.example.com/x, localhost:5000/x), so
# pushing to it can make the image available to any cluster.
registry_ref() {
  local first=${1%%/*}
  [[ "$1" == */* && ( "$first" == *.* || "$first" == *:* || "$first" == localhost ) ]]
}

# provide_image makes IMG available to the cluster's nodes before anything is applied, or
# stops saying what to set: an operator whose image no node can pull is never deployed.
provide_image() {
  local ctx
  ctx=$(kubectl config current-context 2>/dev/null || echo in-cluster)
  if [ "${DEMO_IMAGE_AVAILABLE:-}" = true ]; then
    say "using $IMG as it is (DEMO_IMAGE_AVAILABLE=true)"
    return
  fi
  case "$ctx" in
  daprbench-local)
    make --no-print-directory cluster-image IMG="$IMG" >/dev/null ;;
  kind-*)
    command -v kind >/dev/null || { echo "context $ctx is a kind cluster, but kind is not on PATH: install kind, or push the image (IMG=<registry>/daprbench:<tag>)" >&2; exit 1; }
    say "loading $IMG into kind cluster ${ctx#kind-}"
    make --no-print-directory image-archive IMG="$IMG" >/dev/null
    kind load image-archive bin/daprbench-image.tar --name "${ctx#kind-}" ;;
  minikube)
    command -v minikube >/dev/null || { echo "context minikube, but minikube is not on PATH" >&2; exit 1; }
    say "loading $IMG into minikube"
    make --no-print-directory image-archive IMG="$IMG" >/dev/null
    minikube image load bin/daprbench-image.tar ;;
  *)
    if ! registry_ref "$IMG"; then
      {
        echo "The cluster of context $ctx cannot pull $IMG: nothing was deployed. Set one of:"
        echo "  IMG=<registry>/daprbench:<tag> make demo   # builds the image and pushes it there (credentials: docker login)"
        echo "  DEMO_IMAGE_AVAILABLE=true make demo        # $IMG is already pullable by the cluster's nodes"
        echo "(kind and minikube contexts get the image loaded without either.)"
      } >&2
      exit 1
    fi
    say "pushing $IMG for the cluster of context $ctx"
    make --no-print-directory image-archive IMG="$IMG" PUSH=1 >/dev/null ;;
  esac
}

if [ -z "${DEMO_LOCAL_CLUSTER:-}" ] && kubectl version --request-timeout=5s >/dev/null 2>&1; then
  ctx=$(kubectl config current-context 2>/dev/null || echo in-cluster)
  refuse_foreign_context "$ctx" demo
  say "using the cluster of the current kubeconfig ($ctx)"
  provide_image
  local_cluster=false
else
  say "no cluster configured: bringing up the local one-node cluster with Dapr ${DAPR_VERSION:-} (first time: builds Kubernetes and Dapr from Go modules, ~20 min)"
  make --no-print-directory cluster-dapr
  export KUBECONFIG=${DAPRBENCH_KUBECONFIG:-$HOME/.cache/daprbench/cluster/kubeconfig}
  make --no-print-directory cluster-image IMG="$IMG" >/dev/null
  # The Redis a State or PubSub run deploys: the local cluster pulls no registry image, so
  # every sample in config/samples runs here only with this one imported (issue #62 item 11).
  make --no-print-directory cluster-redis REDIS_IMG="$REDIS_IMG" >/dev/null
  local_cluster=true
fi
redis_image=()
$local_cluster && redis_image=(--set-string redisImage="$REDIS_IMG")

if [ -z "${DEMO_SAMPLE:-}" ]; then
  if kubectl get crd configurations.dapr.io >/dev/null 2>&1; then
    DEMO_SAMPLE=config/samples/perf_v1alpha1_perfrun_invocation.yaml
  else
    DEMO_SAMPLE=config/samples/perf_v1alpha1_perfrun_direct.yaml
    echo "Dapr is not installed here: measuring the cluster's own network floor (dapr.enabled=false)"
  fi
fi

# The runs' namespace exists before the install: the chart puts the operator's Role in it.
kubectl create namespace "$NS" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
image_parts
say "installing the operator: Helm release $RELEASE in $OPERATOR_NS, image $IMG, runs in namespace $NS"
# kubeletCounters: CPU read at each phase's edges from the kubelet's counters (a ClusterRole
# with nodes/proxy get), as the figures in docs/results.md were. --take-ownership adopts what
# an older demo applied with kustomize.
if ! helm upgrade --install "$RELEASE" charts/daprbench --namespace "$OPERATOR_NS" --create-namespace \
  --take-ownership --wait --timeout 3m \
  --set-string image.repository="$repository" --set-string image.tag="$tag" --set-string image.digest="$digest" \
  --set-json "rbac.namespaces=[\"$NS\"]" --set kubeletCounters=true ${redis_image[@]+"${redis_image[@]}"}; then
  kubectl -n "$OPERATOR_NS" get pods -o wide >&2 || true
  echo "The operator did not start (its pods above). Remove what was installed with: make demo-down" >&2
  exit 1
fi

# run_sample FILE: applies a sample (a fresh run of it), streams its progress until it
# finishes, and sets $name to the run's name.
run_sample() {
  local file=$1
  say "running $file in namespace $NS"
  name=$(kubectl create --dry-run=client -o jsonpath='{.metadata.name}' -f "$file")
  kubectl -n "$NS" delete perfrun "$name" --ignore-not-found --wait=true >/dev/null
  if [ -n "${DEMO_QPS:-}" ]; then
    sed -E "s/^(    qps: )[0-9]+$/\1$DEMO_QPS/" "$file" | kubectl -n "$NS" apply -f -
  else
    kubectl -n "$NS" apply -f "$file"
  fi
  local last="" start=$SECONDS phase notes line
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
}

run_sample "$DEMO_SAMPLE"

say "result"
kubectl -n "$NS" get perfrun "$name"
echo
jp() { kubectl -n "$NS" get perfrun "$name" -o jsonpath="$1"; }
# The result as tables, and report.html, through the kubectl plugin (built with the demo).
kubectl_plugin=${KUBECTL_DAPRBENCH:-bin/kubectl-daprbench}
[ -n "${KUBECTL_DAPRBENCH:-}" ] || CGO_ENABLED=0 go build -o "$kubectl_plugin" ./cmd/kubectl-daprbench
"$kubectl_plugin" -n "$NS" report "$name" --dir "${DEMO_REPORT_DIR:-daprbench-report-$name}"
# rj RUN JSONPATH: a jsonpath over RUN's result document (its figures; status.result holds
# only the headline), through the plugin.
rj() { "$kubectl_plugin" -n "$NS" export "$1" -o jsonpath="$2" 2>/dev/null || true; }
# Dapr's published v1.0 figures beside this run's, for the scenario that ran.
published() { printf '  %-30s %-16s %s\n' "$@"; }
# added_figure RUN P prints a run's added latency at percentile P with its interval, and says
# when it is the figure of a sidecar held at its CPU limit; "none claimed" when there is none.
added_figure() {
  local f
  f=$(rj "$1" "{.result.added.$2} ({.result.addedInterval.low.$2}..{.result.addedInterval.high.$2})")
  case "$f" in " (..)" | "") echo "none claimed"; return ;; esac
  # A low end below zero resolves nothing (the report says so): <0, not negative milliseconds.
  f=$(sed -E 's/\(-[0-9.]+(µ|m|n)?s\.\./(<0../' <<<"$f")
  if [ "$(rj "$1" '{.result.addedLimitBound}')" = true ]; then
    f="$f limit-bound"
  fi
  echo "$f"
}
if [ -n "$(rj "$name" '{.result.resources.serverSidecar.cpuAvg}')" ]; then
  echo
  cores=$(kubectl get node "$(jp '{.status.environment.targetNode}')" -o jsonpath='{.status.capacity.cpu}' 2>/dev/null || true)
  echo "Beside Dapr's published v1.0 figures (3 nodes of 4 cores; this run: $(jp '{.status.environment.sidecarImage}'), $(rj "$name" '{.result.requestedQPS}') rps, the target's node of ${cores:-?} cores):"
  published FIGURE PUBLISHED MEASURED
  if [ "$(jp '{.spec.scenario}')" = ActorActivation ]; then
    published "achieved rate at 500 rps" "~500 qps" "$(rj "$name" '{.result.actualQPS}') qps"
    published "latency p90" "~3ms" "$(rj "$name" '{.result.latency.p90}')"
    published "latency p99" "~6.2ms" "$(rj "$name" '{.result.latency.p99}')"
    published "app CPU / memory" "523m / 305 MB" "$(rj "$name" '{.result.resources.serverApp.cpuAvg} / {.result.resources.serverApp.memoryAvg}')"
    published "sidecar CPU / memory" "2m / 18 MB" "$(rj "$name" '{.result.resources.serverSidecar.cpuAvg} / {.result.resources.serverSidecar.memoryAvg}')"
  else
    published "added latency p90" "~1.40ms" "$(added_figure "$name" p90)"
    published "added latency p99" "~2.10ms" "$(added_figure "$name" p99)"
    published "sidecar CPU per 1000 rps" "0.48 vCPU" "$(rj "$name" '{.result.resources.sidecarPer1kQPS.cpu}')"
    # Memory does not grow with the rate: the published "23 MB per 1000 rps" was the sidecar's
    # memory at 1000 rps, so the sidecar's own average is what compares.
    published "sidecar memory (working set)" "23 MB" "$(rj "$name" '{.result.resources.serverSidecar.memoryAvg}')"
  fi
  published "restarts (app, sidecar)" "0, 0" "$(rj "$name" '{.result.restarts.app}, {.result.restarts.sidecar}')"
fi
echo
jp '{range .status.conditions[*]}{.type}={.status} ({.reason}): {.message}{"\n"}{end}'

# costs NAME prints what each sidecar cost per request in a run, and what its limit would carry.
costs() {
  rj "$1" '{range .result.sidecarCost[*]}  {.role}: {.cpuPerRequest} CPU per request ({.source}'"'"'s counter) on {.node} at {.atQPS} rps; its CPU limit would carry ~{.limitProjectedQPS} rps at 80% use (a projection){"\n"}{end}'
}
published_run=$name
if [ "$(jp '{.spec.scenario}')" = ServiceInvocation ] && [ -z "${DEMO_SKIP_PERFSUITE:-}" ] &&
  { [ "$(rj "$name" '{.result.limitBound}')" = true ] || [ -n "$(rj "$name" '{.result.saturated}')" ] || [ -z "$(rj "$name" '{.result.added.p90}')" ]; }; then
  echo
  echo "The published setting was bounded on this machine ($(rj "$name" '{.result.limitBound}' | sed 's/true/CPU-limit bound/')$(rj "$name" '{.result.saturated[*].path}' | sed 's/^./ saturated: &/')); what Dapr cost per request there:"
  costs "$published_run"
  run_sample config/samples/perf_v1alpha1_perfrun_invocation_perfsuite.yaml
  jq() { kubectl -n "$NS" get perfrun "$name" -o jsonpath="$1"; }
  echo
  echo "The same scenario under Dapr's current perf-suite setting (sidecar limit 4 vCPU, request 0.1), beside its v1.17 figures:"
  published FIGURE "PERF SUITE v1.17" MEASURED
  published "added latency p50" "+1.06ms" "$(added_figure "$name" p50)"
  published "added latency p90" "+1.48ms" "$(added_figure "$name" p90)"
  published "added latency p99" "+2.90ms" "$(added_figure "$name" p99)"
  published "sidecar CPU per 1000 rps" "202m" "$(rj "$name" '{.result.resources.sidecarPer1kQPS.cpu}')"
  costs "$name"
  jq '{range .status.conditions[?(@.type=="Succeeded")]}{.reason}: {.message}{"\n"}{end}'
  name=$published_run
else
  costs "$published_run"
fi
phase=$(kubectl -n "$NS" get perfrun "$name" -o jsonpath='{.status.phase}')
echo
if $local_cluster; then
  echo "The local cluster stays up: export KUBECONFIG=$KUBECONFIG; remove the demo with 'make demo-down', the cluster with 'make cluster-down'."
else
  echo "Remove what the demo installed with 'make demo-down'."
fi
[ "$phase" = Succeeded ]

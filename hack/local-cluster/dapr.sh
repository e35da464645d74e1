#!/usr/bin/env bash
# Real Dapr on the local cluster, installed the way its users install it: Dapr's own Helm
# chart (charts/dapr of the github.com/dapr/dapr module at the same version), with the images
# hack/toolchain/build-dapr.sh built from Go modules and imported into the node's containerd.
#
#   hack/local-cluster/dapr.sh install VERSION    build what is missing, import, helm install, wait
#   hack/local-cluster/dapr.sh uninstall          helm uninstall; remove Dapr's CRDs and volumes
#   hack/local-cluster/dapr.sh status             Dapr's pods
#
# HELM names the helm binary (make helm). mTLS stays at the chart's default (on). One value
# departs from the chart's defaults: the injector drops every capability of the sidecars it
# adds (sidecarDropALLCapabilities; daprd needs none), as a cluster enforcing the restricted
# Pod Security Standard must: by default an injected daprd keeps the runtime's capabilities
# and the API server refuses the pod (the e2e namespaces enforce restricted).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
HACK=$(dirname "$HERE")
K8S_VERSION=${K8S_VERSION:-1.36.3}
CACHE=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
BIN=$CACHE/cluster/bin-$K8S_VERSION
STATE=${DAPRBENCH_CLUSTER_STATE:-/var/lib/daprbench-cluster}
KUBECONFIG_OUT=${DAPRBENCH_KUBECONFIG:-$CACHE/cluster/kubeconfig}
HELM=${HELM:?set HELM to the helm binary (make helm)}
NS=dapr-system
RELEASE=dapr
STORAGE_CLASS=daprbench-local
# Bounds of every wait: a cold node starts six images and a three-member etcd.
INSTALL_TIMEOUT=${DAPR_INSTALL_TIMEOUT:-5m}

log() { printf '>> %s\n' "$*" >&2; }
die() { printf 'dapr.sh: %s\n' "$*" >&2; exit 1; }
kc() { "$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" "$@"; }
helm() { "$HELM" --kubeconfig "$KUBECONFIG_OUT" "$@"; }

# scheduler_volumes: Dapr's scheduler (v1.14+) is a StatefulSet of three embedded-etcd members,
# each claiming a 1Gi volume (the chart always asks for three, and refuses in-memory storage for
# more than one). The local cluster has no provisioner, so it gets a class with static hostPath
# volumes, one per member, writable by Dapr's nonroot user (hostPath ignores fsGroup).
scheduler_volumes() {
  local i dir
  for i in 0 1 2; do
    dir=$STATE/volumes/dapr-scheduler-$i
    mkdir -p "$dir" && chmod 0777 "$dir"
  done
  kc apply --server-side -f - >/dev/null <<EOF
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: $STORAGE_CLASS}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: Immediate
reclaimPolicy: Retain
$(for i in 0 1 2; do cat <<PV
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: dapr-scheduler-$i, labels: {app.kubernetes.io/managed-by: daprbench-local-cluster}}
spec:
  storageClassName: $STORAGE_CLASS
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  hostPath: {path: $STATE/volumes/dapr-scheduler-$i, type: DirectoryOrCreate}
PV
done)
EOF
}

install() {
  local version=${1:?usage: dapr.sh install VERSION}
  local tag=${version#v} images=$CACHE/dapr/$version
  kc get --raw /readyz >/dev/null 2>&1 || die "the local cluster is not up (make cluster-up)"
  local t0=$SECONDS
  MKIMAGE=$BIN/mkimage "$HACK/toolchain/build-dapr.sh" "$version" "$images"
  log "importing Dapr $tag images ($(cat "$images/FLAVOR") daprd)"
  for archive in "$images"/*.tar; do "$HERE/cluster.sh" import "$archive"; done

  local crds chart
  crds=$("$HACK/toolchain/dapr-crds.sh" "$version")
  chart=$(dirname "$crds")
  scheduler_volumes
  log "helm upgrade --install $RELEASE $chart (Dapr $tag) into $NS, waiting up to $INSTALL_TIMEOUT"
  if ! helm upgrade --install "$RELEASE" "$chart" --namespace "$NS" --create-namespace \
      --set global.registry=ghcr.io/dapr --set global.tag="$tag" --set global.imagePullPolicy=IfNotPresent \
      --set dapr_scheduler.cluster.storageClassName="$STORAGE_CLASS" \
      --set dapr_sidecar_injector.sidecarDropALLCapabilities=true \
      --wait --timeout "$INSTALL_TIMEOUT" >/dev/null; then
    kc -n "$NS" get pods -o wide >&2 || true
    kc -n "$NS" get events --sort-by=.lastTimestamp 2>/dev/null | tail -n 20 >&2 || true
    die "Dapr $tag did not become ready within $INSTALL_TIMEOUT (pods and events above)"
  fi
  log "Dapr $tag installed in $((SECONDS - t0))s"
  kc -n "$NS" get pods
}

uninstall() {
  kc get --raw /readyz >/dev/null 2>&1 || { log "the local cluster is not up: nothing to remove"; return 0; }
  helm uninstall "$RELEASE" --namespace "$NS" --wait --timeout 2m >/dev/null 2>&1 || true
  # Helm keeps CRDs on uninstall by design; remove them (and whatever the operator patched).
  kc get crd -o name | grep '\.dapr\.io$' | xargs -r "$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" delete --timeout=60s >/dev/null
  kc delete mutatingwebhookconfiguration dapr-sidecar-injector --ignore-not-found >/dev/null
  kc delete namespace "$NS" --ignore-not-found --timeout=90s >/dev/null
  kc delete pv -l app.kubernetes.io/managed-by=daprbench-local-cluster --ignore-not-found >/dev/null
  kc delete storageclass "$STORAGE_CLASS" --ignore-not-found >/dev/null
  rm -rf "$STATE/volumes"
  log "Dapr removed"
}

case "${1:-}" in
  install) shift; install "$@" ;;
  uninstall) uninstall ;;
  status) kc -n "$NS" get pods -o wide ;;
  *) echo "usage: $0 install VERSION|uninstall|status" >&2; exit 2 ;;
esac

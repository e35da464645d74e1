#!/usr/bin/env bash
# Installs the Prometheus built by hack/toolchain/build-prometheus.sh on the local cluster, scraping the
# daprbench manager's metrics Service (prometheus.yaml).
#
#   hack/local-cluster/prometheus.sh install VERSION
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
K8S_VERSION=${K8S_VERSION:-1.36.3}
CACHE=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
BIN=$CACHE/cluster/bin-$K8S_VERSION
KUBECONFIG_OUT=${DAPRBENCH_KUBECONFIG:-$CACHE/cluster/kubeconfig}
kc() { "$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" "$@"; }

[ "${1:-}" = install ] || { echo "usage: prometheus.sh install VERSION" >&2; exit 2; }
version=${2:?usage: prometheus.sh install VERSION}
archive=$CACHE/prometheus/$version/prometheus.tar
[ -f "$archive" ] || { echo "prometheus.sh: $archive missing: run make prometheus" >&2; exit 1; }
echo ">> importing Prometheus $version and installing it in daprbench-monitoring" >&2
"$HERE/cluster.sh" import "$archive"
sed "s|PROMETHEUS_IMAGE|daprbench.local/prometheus:$version|" "$HERE/prometheus.yaml" | kc apply -f - >/dev/null
kc -n daprbench-monitoring rollout status deployment/prometheus --timeout=2m

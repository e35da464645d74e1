#!/usr/bin/env bash
# Prints the directory of envtest's binaries (kube-apiserver, etcd, kubectl) for
# ENVTEST_K8S_VERSION, installing them first when missing.
#
# They live in setup-envtest's own store (~/.local/share/kubebuilder-envtest/k8s/V-OS-ARCH),
# outside the clone, so a second run costs nothing and machines with internet keep the
# normal path: setup-envtest downloads them. Where it cannot (no route to the release
# bucket), they are built from Go modules at the same version (hack/toolchain/build-k8s.sh, build-etcd.sh).
set -euo pipefail

ENVTEST_K8S_VERSION=${ENVTEST_K8S_VERSION:-1.36.3}
SETUP_ENVTEST=${SETUP_ENVTEST:?set SETUP_ENVTEST to the setup-envtest binary}
hack=$(cd "$(dirname "$0")" && pwd)
store=${ENVTEST_STORE:-${XDG_DATA_HOME:-$HOME/.local/share}/kubebuilder-envtest}
dir="$store/k8s/$ENVTEST_K8S_VERSION-$(go env GOOS)-$(go env GOARCH)"

complete() { [ -x "$dir/kube-apiserver" ] && [ -x "$dir/etcd" ] && [ -x "$dir/kubectl" ]; }

if ! complete; then
  echo ">> envtest binaries for $ENVTEST_K8S_VERSION missing; trying setup-envtest download" >&2
  if ! timeout 120 "$SETUP_ENVTEST" use "$ENVTEST_K8S_VERSION" --bin-dir "$store" -p path >/dev/null 2>&1; then
    echo ">> download unavailable; building them from Go modules (cold: ~6 min)" >&2
    K8S_VERSION=$ENVTEST_K8S_VERSION "$hack/build-k8s.sh" "$dir" kube-apiserver kubectl
    "$hack/build-etcd.sh" "$dir"
  fi
fi
complete || { echo "envtest binaries incomplete in $dir" >&2; exit 1; }
# Let setup-envtest confirm the store is one it recognises, then print the path it would use.
"$SETUP_ENVTEST" use -i "$ENVTEST_K8S_VERSION" --bin-dir "$store" -p path

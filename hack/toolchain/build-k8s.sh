#!/usr/bin/env bash
# Builds Kubernetes server binaries from Go modules, for machines that cannot download them.
#
#   hack/toolchain/build-k8s.sh OUT_DIR BINARY...      e.g. hack/toolchain/build-k8s.sh /tmp/bin kube-apiserver kubectl
#
# k8s.io/kubernetes cannot be required as-is: its go.mod points every staging module
# (k8s.io/api, k8s.io/client-go, ...) at ./staging. A helper module, generated in the cache,
# requires k8s.io/kubernetes at K8S_VERSION and replaces each staging module with its
# published v0.<minor>.<patch> twin. Version ldflags are set so `kubectl version` and skew
# checks see a real version instead of v0.0.0-master.
set -euo pipefail

K8S_VERSION=${K8S_VERSION:-1.36.3}
CACHE_DIR=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
out=${1:?usage: build-k8s.sh OUT_DIR BINARY...}; shift
[ $# -gt 0 ] || { echo "build-k8s.sh: name at least one binary" >&2; exit 2; }

staging_version="v0.${K8S_VERSION#*.}"   # 1.36.3 -> v0.36.3
helper="$CACHE_DIR/k8s-helper-$K8S_VERSION"
mkdir -p "$helper" "$out"

if [ ! -f "$helper/.ready" ]; then
  echo ">> preparing helper module for k8s.io/kubernetes v$K8S_VERSION in $helper" >&2
  (
    cd "$helper"
    rm -f go.mod go.sum
    go mod init daprbench.local/k8s-helper >/dev/null 2>&1
    gomod=$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
    edits=(-require "k8s.io/kubernetes@v$K8S_VERSION")
    for m in $(sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\1#p' "$gomod"); do
      edits+=(-replace "$m=$m@$staging_version")
    done
    go mod edit "${edits[@]}"
    # Record every module the commands need in go.sum.
    GOFLAGS=-mod=mod go get "k8s.io/kubernetes/cmd/kube-apiserver@v$K8S_VERSION" >/dev/null
    touch .ready
  )
fi

major=${K8S_VERSION%%.*}; rest=${K8S_VERSION#*.}; minor=${rest%%.*}
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=v$K8S_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

cd "$helper"
for bin in "$@"; do
  if [ -x "$out/$bin" ]; then continue; fi
  echo ">> building $bin v$K8S_VERSION (several minutes on a cold cache)" >&2
  CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "$ldflags" -o "$out/$bin.tmp" "k8s.io/kubernetes/cmd/$bin"
  mv "$out/$bin.tmp" "$out/$bin"
done

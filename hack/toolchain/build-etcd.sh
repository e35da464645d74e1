#!/usr/bin/env bash
# Builds etcd from its Go module, for machines that cannot download a release.
#
#   hack/toolchain/build-etcd.sh OUT_DIR        -> OUT_DIR/etcd
#
# `go install go.etcd.io/etcd/server/v3@V` is refused because etcd's go.mod has replace
# directives, so a helper module in the cache requires it instead.
set -euo pipefail

ETCD_VERSION=${ETCD_VERSION:-3.6.8}
CACHE_DIR=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
out=${1:?usage: build-etcd.sh OUT_DIR}
[ -x "$out/etcd" ] && exit 0

helper="$CACHE_DIR/etcd-helper-$ETCD_VERSION"
mkdir -p "$helper" "$out"
cd "$helper"
if [ ! -f .ready ]; then
  rm -f go.mod go.sum
  go mod init daprbench.local/etcd-helper >/dev/null 2>&1
  GOFLAGS=-mod=mod go get "go.etcd.io/etcd/server/v3@v$ETCD_VERSION" >/dev/null
  touch .ready
fi
echo ">> building etcd v$ETCD_VERSION" >&2
CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w" -o "$out/etcd.tmp" go.etcd.io/etcd/server/v3
mv "$out/etcd.tmp" "$out/etcd"

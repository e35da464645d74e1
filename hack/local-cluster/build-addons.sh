#!/usr/bin/env bash
# Builds the cluster add-ons that run as processes: metrics-server and CoreDNS, from Go modules.
#   build-addons.sh OUT_DIR
set -euo pipefail
METRICS_SERVER_VERSION=${METRICS_SERVER_VERSION:-v0.9.0}
COREDNS_VERSION=${COREDNS_VERSION:-v1.14.7}
out=${1:?usage: build-addons.sh OUT_DIR}
mkdir -p "$out"
build() { # name module@version
  [ -x "$out/$1" ] && return 0
  echo ">> building $1 ($2)" >&2
  local tmp; tmp=$(mktemp -d)
  CGO_ENABLED=0 GOBIN="$tmp" go install -trimpath -ldflags "-s -w" "$2"
  mv "$tmp"/* "$out/$1"; rmdir "$tmp"
}
build metrics-server "sigs.k8s.io/metrics-server/cmd/metrics-server@$METRICS_SERVER_VERSION"
build coredns "github.com/coredns/coredns@$COREDNS_VERSION"

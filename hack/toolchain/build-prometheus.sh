#!/usr/bin/env bash
# Builds Prometheus and promtool from Go modules (for machines that cannot pull its release
# image) and writes an image of Prometheus for the local cluster.
#
#   hack/toolchain/build-prometheus.sh VERSION OUT_DIR   e.g. hack/toolchain/build-prometheus.sh v0.305.0 ~/.cache/daprbench/prometheus/v0.305.0
#
# OUT_DIR gets prometheus and promtool (static) and prometheus.tar (image
# daprbench.local/prometheus:VERSION, the binary at /prometheus). The Go module's versions are
# v0.3xx.y for Prometheus 3.xx.y; v0.305.0 is Prometheus 3.5.0, the LTS — newer ones need
# github.com/pb33f/go-yaml, which the module proxy here refuses. Like Dapr, Prometheus's
# go.mod has replace lines, so a helper module in the cache requires it and copies them. The
# web UI's assets are not embedded (they are built with npm); the HTTP API is all the tests use.
set -euo pipefail

version=${1:?usage: build-prometheus.sh VERSION OUT_DIR}
out=${2:?usage: build-prometheus.sh VERSION OUT_DIR}
CACHE_DIR=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
MKIMAGE=${MKIMAGE:?set MKIMAGE to the mkimage binary (hack/local-cluster/mkimage)}
helper="$CACHE_DIR/prometheus-helper-$version"
mkdir -p "$out"

stamp=$(sha256sum "$MKIMAGE" | cut -c1-16)
if [ -x "$out/prometheus" ] && [ -x "$out/promtool" ] && [ "$(cat "$out/IMAGE" 2>/dev/null)" = "$stamp" ]; then exit 0; fi

"$(dirname "$0")/helper-module.sh" github.com/prometheus/prometheus "$version" "$helper" \
  github.com/prometheus/prometheus/cmd/prometheus github.com/prometheus/prometheus/cmd/promtool

echo ">> building prometheus and promtool $version" >&2
(cd "$helper" && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "$out/" \
  github.com/prometheus/prometheus/cmd/prometheus github.com/prometheus/prometheus/cmd/promtool)
"$MKIMAGE" -tag "daprbench.local/prometheus:$version" -o "$out/prometheus.tar" -entrypoint /prometheus "$out/prometheus"
echo "$stamp" > "$out/IMAGE"

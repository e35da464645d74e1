#!/usr/bin/env bash
# Builds Dapr's sidecar and control plane from Go modules, for machines that cannot pull
# Dapr's release images, and writes them as images named the way Dapr's Helm chart asks.
#
#   hack/toolchain/build-dapr.sh VERSION OUT_DIR      e.g. hack/toolchain/build-dapr.sh v1.16.0 ~/.cache/daprbench/dapr/v1.16.0
#
# OUT_DIR gets the static binaries (daprd placement sentry operator injector scheduler), one
# image archive per binary (ghcr.io/dapr/<name>:<version without v>, the binary at /<name>, as
# Dapr's docker/Dockerfile lays them out on distroless/static:nonroot) and FLAVOR, the build tag
# daprd was built with.
#
# github.com/dapr/dapr cannot be `go install`ed: its go.mod has replace directives, which only
# the main module may carry. A helper module, generated in the cache, requires dapr at VERSION
# and copies dapr's replace lines; components-contrib and kit then come at exactly the versions
# dapr pins (the proxy refuses their version lists here, but serves those versions).
#
# Built with the Go release dapr's go.mod names (GOTOOLCHAIN, fetched through the module proxy
# like any module), as Dapr's release builds are: newer Go breaks dependencies that read
# runtime internals (github.com/choleraehyq/pid, in the allcomponents set, fails to assemble
# with Go 1.26).
#
# daprd panics at start unless built with -tags allcomponents or stablecomponents
# (cmd/daprd/components/zz_notag.go). allcomponents is the flavour of Dapr's release images;
# stablecomponents is the fallback when a module only the full set needs is refused.
set -euo pipefail

version=${1:?usage: build-dapr.sh VERSION OUT_DIR}
out=${2:?usage: build-dapr.sh VERSION OUT_DIR}
CACHE_DIR=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
REGISTRY=${DAPR_REGISTRY:-ghcr.io/dapr}
MKIMAGE=${MKIMAGE:?set MKIMAGE to the mkimage binary (hack/local-cluster/mkimage)}
BINARIES=(daprd placement sentry operator injector scheduler)
helper="$CACHE_DIR/dapr-helper-$version"
mkdir -p "$helper" "$out"

# The archives are keyed on mkimage's own hash: a changed image layout rebuilds them.
stamp=$(sha256sum "$MKIMAGE" | cut -c1-16)
complete() {
  for b in "${BINARIES[@]}"; do [ -f "$out/$b.tar" ] || return 1; done
  [ -f "$out/FLAVOR" ] && [ "$(cat "$out/IMAGES" 2>/dev/null)" = "$stamp" ]
}
if complete; then exit 0; fi

if [ ! -f "$helper/.ready" ]; then
  echo ">> preparing helper module for github.com/dapr/dapr $version in $helper" >&2
  (
    cd "$helper"
    rm -f go.mod go.sum
    go mod init daprbench.local/dapr-helper >/dev/null 2>&1
    gomod=$(go mod download -json "github.com/dapr/dapr@$version" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
    [ -n "$gomod" ] || { echo "build-dapr.sh: github.com/dapr/dapr@$version is not served" >&2; exit 1; }
    edits=(-require "github.com/dapr/dapr@$version")
    # dapr's replace lines, both the single-line and the block form: "old => new version".
    while read -r old new newv; do
      edits+=(-replace "$old=$new@$newv")
    done < <(awk '/^replace \($/ {b=1; next} b && /^\)/ {b=0; next}
                  b && /=>/ && $1 !~ /^\/\// {print $1, $3, $4}
                  /^replace [^(]/ && /=>/ {print $2, $4, $5}' "$gomod")
    go_version=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$gomod")
    go mod edit -go="$go_version" "${edits[@]}"
    touch .ready
  )
fi

go_version=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$helper/go.mod")
export GOTOOLCHAIN=go$go_version
ldflags="-s -w -X github.com/dapr/dapr/pkg/buildinfo.version=${version#v} -X github.com/dapr/dapr/pkg/buildinfo.gitversion=$version"
build() { # binary tags
  [ -x "$out/$1" ] && return 0
  echo ">> building $1 $version${2:+ (-tags $2)} with $GOTOOLCHAIN (minutes on a cold cache)" >&2
  (cd "$helper" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -tags "$2" -ldflags "$ldflags" \
    -o "$out/$1.tmp" "github.com/dapr/dapr/cmd/$1") && mv "$out/$1.tmp" "$out/$1"
}

if [ ! -x "$out/daprd" ]; then
  if build daprd allcomponents; then
    echo allcomponents >"$out/FLAVOR"
  else
    echo ">> daprd with allcomponents failed (a module refused?); falling back to stablecomponents" >&2
    build daprd stablecomponents
    echo stablecomponents >"$out/FLAVOR"
  fi
fi
for b in "${BINARIES[@]}"; do
  [ "$b" = daprd ] || build "$b" ""
  "$MKIMAGE" -tag "$REGISTRY/$b:${version#v}" -o "$out/$b.tar" "$out/$b"
done
echo "$stamp" >"$out/IMAGES"

#!/usr/bin/env bash
# Builds the plugin's release archives (linux/amd64, darwin/arm64) into bin/krew/ and writes
# their sha256 into plugins/daprbench.yaml, the krew manifest. Archives are reproducible
# for one Go version: -trimpath, no build id, fixed mtime and owner, gzip without a name.
#
#   hack/gen/krew-archives.sh [VERSION]   # default: the manifest's spec.version
set -euo pipefail
cd "$(dirname "$0")/../.."
manifest=plugins/daprbench.yaml
version=${1:-$(sed -n 's/^  version: //p' "$manifest")}
out=bin/krew
mkdir -p "$out"
for platform in linux/amd64 darwin/arm64; do
  os=${platform%/*} arch=${platform#*/}
  stage=$(mktemp -d)
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags="-s -w -buildid=" -o "$stage/kubectl-daprbench" ./cmd/kubectl-daprbench
  cp plugins/kubectl_complete-daprbench LICENSE "$stage/"
  archive="$out/kubectl-daprbench_${os}_${arch}.tar.gz"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$stage" -cf - . | gzip -n >"$archive"
  rm -rf "$stage"
  sum=$(sha256sum "$archive" | cut -d' ' -f1)
  # the sha256 line follows the platform's uri line
  sed -i "\|/kubectl-daprbench_${os}_${arch}.tar.gz|{n;s/sha256: .*/sha256: $sum/}" "$manifest"
  echo "$archive $sum"
done
sed -i -E "s/^  version: .*/  version: $version/; s#releases/download/[^/]+/#releases/download/$version/#" "$manifest"

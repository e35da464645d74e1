#!/usr/bin/env bash
# The store a State run deploys, on the local cluster: Debian's redis-server (installed when
# missing) and the shared libraries it links, packed as an image without a container engine
# (mkimage, each file at the path its loader looks for it) and imported into every node's
# containerd. The operator is installed with redisImage set to TAG (a user's cluster pulls
# docker.io/library/redis instead). Cached by version and tag.
#
#   hack/local-cluster/redis-image.sh TAG CACHE_DIR
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
tag=${1:?usage: redis-image.sh TAG CACHE_DIR}
out=${2:?usage: redis-image.sh TAG CACHE_DIR}
K8S_VERSION=${K8S_VERSION:-1.36.3}
CACHE=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
MKIMAGE=${MKIMAGE:-$CACHE/cluster/bin-$K8S_VERSION/mkimage}
[ -x "$MKIMAGE" ] || { echo "no mkimage at $MKIMAGE: make cluster-build first" >&2; exit 1; }

if ! command -v redis-server >/dev/null; then
  echo ">> installing Redis from Debian" >&2
  # Installed only: it runs in the cluster's pods, not as a host service.
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  rm -f /usr/sbin/policy-rc.d
fi
server=$(readlink -f "$(command -v redis-server)")
version=$(redis-server --version | sed -n 's/.*v=\([0-9.]*\).*/\1/p')
mkdir -p "$out"
# Keyed by version, tag and the mkimage that packs it (a changed layout repacks).
archive=$out/redis-$version-$(printf '%s' "$tag" | tr -c 'a-zA-Z0-9.-' '_')-$(sha256sum "$MKIMAGE" | cut -c1-12).tar
if [ ! -s "$archive" ]; then
  files=("$server=usr/local/bin/redis-server")
  # Every library the binary links (ldd's "name => /path") and the loader itself.
  for lib in $(ldd "$server" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}'); do
    files+=("$(readlink -f "$lib")=${lib#/}")
  done
  echo ">> packing redis-server $version and ${#files[@]} files as $tag" >&2
  "$MKIMAGE" -tag "$tag" -o "$archive.tmp" -label "org.opencontainers.image.version=$version" \
    -label "org.opencontainers.image.description=Debian's redis-server, packed by daprbench's hack/local-cluster/redis-image.sh" \
    -entrypoint /usr/local/bin/redis-server "${files[@]}"
  mv "$archive.tmp" "$archive"
fi
"$HERE/cluster.sh" import "$archive"
echo "$tag"

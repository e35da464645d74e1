#!/usr/bin/env bash
# Builds Argo CD from Go modules (for machines that cannot pull its release image): the one
# multi-call `argocd` binary, linked as argocd-application-controller and argocd-repo-server.
#
#   hack/toolchain/build-argocd.sh VERSION OUT_DIR   e.g. hack/toolchain/build-argocd.sh v3.2.11 ~/.cache/daprbench/argocd/v3.2.11
#
# v3.2.11 is the newest that builds here: v3.2.12's controller calls a function its own
# module lacks (settings.ValidateExternalURL); v3.3 and later replace their gitops-engine
# with a directory of their repository, which is not in the module's zip, and the proxy
# refuses the pseudo-version they require (github.com/argoproj/argo-cd/gitops-engine
# v0.7.1-0.20250908182407-97ad5b59a627: 403); v3.6 needs Go 1.27. The web UI is not built
# (it needs npm): the controller and the repo server are all a sync needs.
set -euo pipefail

version=${1:?usage: build-argocd.sh VERSION OUT_DIR}
out=${2:?usage: build-argocd.sh VERSION OUT_DIR}
CACHE_DIR=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
helper="$CACHE_DIR/argocd-helper-$version"
mkdir -p "$out"
[ -x "$out/argocd-repo-server" ] && [ -f "$out/appproject-crd.yaml" ] && exit 0

"$(dirname "$0")/helper-module.sh" github.com/argoproj/argo-cd/v3 "$version" "$helper" github.com/argoproj/argo-cd/v3/cmd
echo ">> building argocd $version (cold: several minutes)" >&2
(cd "$helper" && CGO_ENABLED=0 go build -trimpath \
  -ldflags="-s -w -X github.com/argoproj/argo-cd/v3/common.version=${version#v}" -o "$out/argocd" github.com/argoproj/argo-cd/v3/cmd)
for name in argocd-application-controller argocd-repo-server; do ln -sf argocd "$out/$name"; done
# The CRDs of the same version, for installing it.
cp "$(cd "$helper" && go list -m -f '{{.Dir}}' github.com/argoproj/argo-cd/v3)"/manifests/crds/{application,appproject}-crd.yaml "$out/"
chmod u+w "$out"/*.yaml

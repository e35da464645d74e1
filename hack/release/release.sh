#!/usr/bin/env bash
# The release pipeline: GoReleaser (.goreleaser.yaml) builds the binaries, the plugin's
# archives, checksums, SBOMs and the krew manifest; then this script packs the one image
# (manager, loadtester, perfapp, kubectl-daprbench) for linux/amd64 and linux/arm64 with
# mkimage (no container engine), and packages the Helm chart with version = appVersion = the
# release's version and the image pinned by digest, rendering it to check the digest is used.
#
#   hack/release/release.sh snapshot   # make release-snapshot: all of it into dist/, nothing pushed
#   hack/release/release.sh publish    # make release, on a version tag (.github/workflows/release.yml):
#                                      # a draft GitHub release, the image and the chart pushed
#
# Env: GORELEASER, CYCLONEDX_GOMOD, HELM, MKIMAGE (tools; make passes bin/'s), REGISTRY (default
# ghcr.io/$GITHUB_REPOSITORY_OWNER, else ghcr.io/daprbench): the image goes to
# $REGISTRY/daprbench, the chart to oci://$REGISTRY/charts/daprbench. publish also needs
# GITHUB_TOKEN (GoReleaser, gh) and registry logins (~/.docker/config.json for mkimage,
# helm registry login for helm). Writes dist/release.env (VERSION, TAG, COMMIT, IMAGE,
# IMAGE_DIGEST, CHART, CHART_DIGEST) for the workflow's attestations and the release test.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:?usage: release.sh snapshot|publish}
GORELEASER=${GORELEASER:-bin/goreleaser}
HELM=${HELM:-bin/helm}
MKIMAGE=${MKIMAGE:-bin/mkimage}
# GoReleaser runs cyclonedx-gomod (its sboms) from PATH: the one make installed.
CYCLONEDX_GOMOD=${CYCLONEDX_GOMOD:-$PWD/bin/cyclonedx-gomod}
export PATH="$(cd "$(dirname "$CYCLONEDX_GOMOD")" && pwd):$PATH"
registry=${REGISTRY:-ghcr.io/${GITHUB_REPOSITORY_OWNER:-daprbench}}
registry=${registry,,} # OCI repository names are lower case; GitHub owners need not be
source_url=https://github.com/${GITHUB_REPOSITORY:-daprbench/daprbench}

if [[ $mode == snapshot ]] && ! git remote get-url origin >/dev/null 2>&1; then
  # A clone without a remote: GoReleaser would then drop the whole git state (the commit
  # too). This process, and only it, sees the origin the release workflow's checkout has.
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=$source_url.git
fi

case $mode in
snapshot) "$GORELEASER" release --snapshot --clean ;;
publish) "$GORELEASER" release --clean ;;
*) echo "release.sh: mode $mode: want snapshot or publish" >&2; exit 2 ;;
esac

# dist/metadata.json: {"project_name":…,"tag":…,"version":…,"commit":…,…} on one line or several
field() { tr -d '\n' <dist/metadata.json | sed -nE 's/.*"'"$1"'": *"([^"]*)".*/\1/p'; }
version=$(field version) tag=$(field tag) commit=$(field commit)
[[ -n $version && -n $tag && -n $commit ]] || { echo "release.sh: no version, tag or commit in dist/metadata.json" >&2; exit 1; }
image=$registry/daprbench

echo "== the image $image:$version (linux/amd64, linux/arm64)"
push=()
[[ $mode == publish ]] && push=(-push)
"$MKIMAGE" -tag "$image:$version" -platforms linux/amd64,linux/arm64 -oci-layout dist/image -digest-file dist/image.digest "${push[@]}" \
  -label org.opencontainers.image.source="$source_url" -label org.opencontainers.image.version="$version" \
  -label org.opencontainers.image.revision="$commit" -label org.opencontainers.image.licenses=Apache-2.0 \
  -entrypoint /manager 'dist/manager_{os}_{arch}*/manager' 'dist/loadtester_{os}_{arch}*/loadtester' \
  'dist/perfapp_{os}_{arch}*/perfapp' 'dist/kubectl-daprbench_{os}_{arch}*/kubectl-daprbench'
digest=$(cat dist/image.digest)

echo "== the chart daprbench $version, the image pinned at $image@$digest"
# The chart as it is in the repository, with the release's image as its default.
stage=dist/chart
rm -rf "$stage" && mkdir -p "$stage" && cp -R charts/daprbench "$stage/"
sed -i -E '/^image:/,/^[^[:space:]#]/{
  s#^(  repository:).*#\1 '"$image"'#
  s#^(  tag:).*#\1 "'"$version"'"#
  s#^(  digest:).*#\1 "'"$digest"'"#
}' "$stage/daprbench/values.yaml"
# Artifact Hub's artifacthub.io/images (generated as the repository's image at appVersion):
# the release's image.
sed -i -E '/^  artifacthub\.io\/images:/,/^  [^ ]/ s#^(      image: ).*#\1'"$image:$version"'#' "$stage/daprbench/Chart.yaml"
grep -qxF "      image: $image:$version" "$stage/daprbench/Chart.yaml" ||
  { echo "release.sh: Chart.yaml's artifacthub.io/images does not name $image:$version" >&2; exit 1; }
"$HELM" lint --strict "$stage/daprbench"
"$HELM" package "$stage/daprbench" --version "$version" --app-version "$version" -d dist
chart=dist/daprbench-$version.tgz
rendered=dist/daprbench-$version.rendered.yaml
# No cluster here: the chart needs Kubernetes 1.29 or later (its kubeVersion).
"$HELM" template daprbench "$chart" --namespace daprbench-system --kube-version 1.29.0 >"$rendered"
if ! grep -qF "image: \"$image@$digest\"" "$rendered"; then
  echo "release.sh: the chart's manager does not run $image@$digest (rendered: $rendered):" >&2
  grep -n 'image:' "$rendered" >&2 || true
  exit 1
fi

chart_digest=""
if [[ $mode == publish ]]; then
  echo "== pushing the chart to oci://$registry/charts"
  "$HELM" push "$chart" "oci://$registry/charts" 2>&1 | tee dist/chart.push
  chart_digest=$(sed -nE 's/^Digest: *(sha256:[0-9a-f]+).*/\1/p' dist/chart.push)
  [[ -n $chart_digest ]] || { echo "release.sh: helm push printed no digest" >&2; exit 1; }
  gh release upload "$tag" "$chart" dist/image.digest --clobber
fi

cat >dist/release.env <<ENV
VERSION=$version
TAG=$tag
COMMIT=$commit
IMAGE=$image
IMAGE_DIGEST=$digest
CHART=$chart
CHART_REPOSITORY=$registry/charts/daprbench
CHART_DIGEST=$chart_digest
ENV
echo "== done: dist/release.env"
cat dist/release.env

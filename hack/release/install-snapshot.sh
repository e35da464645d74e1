#!/usr/bin/env bash
# A new user's first ten minutes, with the snapshot's artifacts instead of a published
# release: after make release-snapshot, on the local cluster (make cluster-dapr), import the
# snapshot's image, helm install the chart from dist/ (image pinned by digest), apply the
# samples as the README says (the smoke run alone), follow and gate it with the plugin from
# dist/'s linux/amd64 archive, and check that the manager and the plugin report the
# snapshot's version. Everything it installs is removed again.
#
#   make test-snapshot-install     # (KUBECONFIG: the local cluster's)
set -euo pipefail
cd "$(dirname "$0")/../.."
HELM=${HELM:-bin/helm}
KUBECTL=${KUBECTL:-kubectl}
CLUSTER=${CLUSTER:-hack/local-cluster/cluster.sh}
[ -f dist/release.env ] || { echo "no dist/release.env: make release-snapshot first" >&2; exit 1; }
# shellcheck disable=SC1091
source dist/release.env
ns=snapshot-smoke release_ns=daprbench-snapshot
work=$(mktemp -d)
say() { echo ">> $*"; }
cleanup() {
  "$HELM" uninstall daprbench -n "$release_ns" --wait --timeout 2m >/dev/null 2>&1 || true
  "$KUBECTL" delete namespace "$ns" "$release_ns" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  # crds.keep leaves the CRDs, as it would for a user: this rehearsal removes them.
  "$KUBECTL" delete crd perfruns.perf.daprbench.io perfschedules.perf.daprbench.io perfsweeps.perf.daprbench.io \
    --ignore-not-found >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

say "the snapshot's image ($IMAGE@$IMAGE_DIGEST) into the cluster's containerd"
tar -C dist/image -cf "$work/image.tar" .
"$CLUSTER" import "$work/image.tar"
# The chart pins the image by digest; a pull by digest finds it only under that name.
"$CLUSTER" tag "$IMAGE:$VERSION" "$IMAGE@$IMAGE_DIGEST"

say "helm install $CHART (runs in namespace $ns)"
"$KUBECTL" create namespace "$ns" --dry-run=client -o yaml | "$KUBECTL" apply -f - >/dev/null
"$HELM" upgrade --install daprbench "$CHART" -n "$release_ns" --create-namespace --wait --timeout 3m --take-ownership \
  --set-json "rbac.namespaces=[\"$ns\"]" >/dev/null
"$KUBECTL" -n "$release_ns" rollout status deployment/daprbench-controller-manager --timeout=2m >/dev/null
image=$("$KUBECTL" -n "$release_ns" get deployment daprbench-controller-manager -o jsonpath='{.spec.template.spec.containers[0].image}')
[ "$image" = "$IMAGE@$IMAGE_DIGEST" ] || { echo "the manager runs $image, not the snapshot's $IMAGE@$IMAGE_DIGEST" >&2; exit 1; }

say "the plugin from dist/'s linux/amd64 archive"
tar -C "$work" -xzf dist/kubectl-daprbench_linux_amd64.tar.gz
plugin=$work/kubectl-daprbench
got=$("$plugin" version)
case $got in "kubectl daprbench $VERSION (commit ${COMMIT:0:12})") ;; *) echo "plugin version: $got, want $VERSION" >&2; exit 1 ;; esac
echo "$got"

say "the smoke sample, applied as the README says (kubectl apply -k config/samples), followed and gated by the plugin"
start=$(date +%s)
"$KUBECTL" -n "$ns" apply -k config/samples
run=smoke
runs=$("$KUBECTL" -n "$ns" get perfruns -o name)
[ "$runs" = "perfrun.perf.daprbench.io/$run" ] || { echo "apply -k config/samples created [$runs], want the smoke run alone" >&2; exit 1; }
# watch exits with the run's verdict, as run --wait does: 0 only when it met its gate.
timeout 6m "$plugin" watch "$run" -n "$ns"
echo "smoke run passed in $(( $(date +%s) - start ))s"
# watch exits 0 also when the run has no gate to judge: the smoke sample has one, and met it.
met=$("$KUBECTL" -n "$ns" get perfrun "$run" -o jsonpath='{.status.conditions[?(@.type=="ThresholdsMet")].status}')
[ "$met" = True ] || { echo "the smoke run's ThresholdsMet is '$met', want True: its sample gates it" >&2; exit 1; }
added=$("$KUBECTL" -n "$ns" get perfrun "$run" -o jsonpath='{.status.result.added.p90}')
[ -n "$added" ] || { echo "the smoke run claims no added latency: it has a Dapr path and its baseline" >&2; exit 1; }
echo "added by Dapr at p90: $added"
manager=$("$KUBECTL" -n "$ns" get perfrun "$run" -o jsonpath='{.status.environment.managerVersion}')
case $manager in "$VERSION "*) echo "the run's status.environment.managerVersion: $manager" ;; *) echo "managerVersion $manager, want $VERSION" >&2; exit 1 ;; esac
say "done: installed, ran and read the smoke sample with the snapshot's chart, image and plugin"

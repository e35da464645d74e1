#!/usr/bin/env bash
# Argo CD syncing PerfRuns and a PerfSchedule from git, on the local cluster, with the
# project's health checks installed in argocd-cm through the generated patch
# (config/argocd/argocd-cm-patch.yaml) (make test-argocd).
#
# Argo CD (application controller and repo server) is built from Go modules
# (hack/toolchain/build-argocd.sh); they, Redis (Debian's redis-server) and a git daemon serving the
# repository run as processes in the cluster's network namespace, like its metrics-server.
# Two Applications: one whose PerfRun passes (with a PerfSchedule beside it) and one whose
# PerfRun fails a threshold. The script records each Application's health as Argo CD reports
# it, expects Progressing → Healthy and Progressing → Degraded, then changes the passing run's
# spec in git and expects Argo CD to sync it and the operator to run it again, and last
# tightens that run's gate in git to a limit inside the spread of its repetitions: the
# operator re-judges the result (no new measurement) Inconclusive, and Argo CD must call it
# Degraded, as `run --wait` exits 3 for it. Every wait is bounded; it exits non-zero when an
# expectation is not met.
set -euo pipefail
cd "$(dirname "$0")/../.."

ARGOCD_VERSION=${ARGOCD_VERSION:-v3.2.11}
CACHE=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
ARGOCD=$CACHE/argocd/$ARGOCD_VERSION
export KUBECONFIG=${KUBECONFIG:-$CACHE/cluster/kubeconfig}
KUBECTL=${KUBECTL:-kubectl}
HELM=${HELM:?set HELM (make helm)}
IMG=${IMG:-daprbench:dev}
NETNS=daprbench
WORK=${DAPRBENCH_CLUSTER_STATE:-/var/lib/daprbench-cluster}/argocd
NS=perf-gitops
WAIT=${ARGOCD_E2E_WAIT:-240}

kc() { "$KUBECTL" "$@"; }
say() { printf '\n== %s\n' "$*"; }
die() { printf 'argocd-e2e: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (the cluster's network namespace)"
[ -e "/run/netns/$NETNS" ] && kc get --raw /readyz >/dev/null 2>&1 || die "the local cluster is not up (make cluster-up cluster-image)"

say "building Argo CD $ARGOCD_VERSION from Go modules (cached)"
hack/toolchain/build-argocd.sh "$ARGOCD_VERSION" "$ARGOCD"
if ! command -v redis-server >/dev/null; then
  say "installing Redis from Debian"
  # Installed only: it runs below, in the cluster's namespace, not as a host service.
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  rm -f /usr/sbin/policy-rc.d
fi

say "the operator, from its chart"
# The runs' namespace exists before the install: the chart's namespaced mode puts a Role in it.
kc wait --for=delete "namespace/$NS" --timeout=2m >/dev/null 2>&1 || true
kc create namespace "$NS" --dry-run=client -o yaml | kc apply -f - >/dev/null
# ...and so does Dapr's (a Role to read its configuration): the runs here need no Dapr, and a
# cluster brought up by make cluster-up alone has none.
kc create namespace dapr-system --dry-run=client -o yaml | kc apply -f - >/dev/null
# The chart installs and upgrades its CRDs (crds.install); --take-ownership adopts CRDs this
# cluster has from before they were the chart's (kubectl apply, or 0.1.0's crds/).
"$HELM" upgrade --install daprbench charts/daprbench --namespace daprbench-system --create-namespace --wait --timeout 3m --take-ownership \
  --set image.repository="${IMG%:*}" --set image.tag="${IMG#*:}" --set-json 'extraArgs=["--poll-interval=2s"]' \
  --set-json "rbac.namespaces=[\"$NS\"]" >/dev/null
kc -n daprbench-system rollout restart deployment/daprbench-controller-manager >/dev/null
kc -n daprbench-system rollout status --timeout=2m deployment/daprbench-controller-manager >/dev/null

stop_daemons() {
  # A daemon leads a process group of its own (setsid): the group goes, its children too
  # (git daemon's). The recorder is a subshell of this script: that pid alone.
  local f pid
  for f in "$WORK"/pids/*.pid; do
    [ -e "$f" ] || continue
    pid=$(cat "$f")
    kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK/pids"
}
cleanup() {
  say "cleaning up"
  kc -n argocd delete applications.argoproj.io --all --wait=false >/dev/null 2>&1 || true
  stop_daemons
  kc delete namespace "$NS" argocd --ignore-not-found --wait=false >/dev/null 2>&1 || true
  "$HELM" uninstall daprbench --namespace daprbench-system --wait --timeout 2m >/dev/null 2>&1 || true
}
trap cleanup EXIT
stop_daemons

say "Argo CD's CRDs, argocd-cm patched with config/argocd/argocd-cm-patch.yaml, the default project"
kc apply --server-side -f "$ARGOCD/application-crd.yaml" -f "$ARGOCD/appproject-crd.yaml" >/dev/null
# kubectl wait fails at once ("accessor error") on a CRD whose status has no conditions yet:
# poll, bounded, instead.
for crd in applications.argoproj.io appprojects.argoproj.io; do
  for _ in $(seq 60); do
    [ "$(kc get crd "$crd" -o jsonpath='{.status.conditions[?(@.type=="Established")].status}' 2>/dev/null)" = True ] && break
    sleep 1
  done
  kc wait --for=condition=Established --timeout=5s "crd/$crd" >/dev/null
done
kc create namespace argocd --dry-run=client -o yaml | kc apply -f - >/dev/null
# argocd-cm as Argo CD's install ships it (empty), then the health checks as a user installs
# them: the generated patch (make argocd-health), checked to hold each script verbatim.
kc -n argocd create configmap argocd-cm --dry-run=client -o yaml |
  kc label --local -f - app.kubernetes.io/part-of=argocd -o yaml | kc apply --server-side --force-conflicts -f - >/dev/null
kc -n argocd patch configmap argocd-cm --type merge --patch-file config/argocd/argocd-cm-patch.yaml >/dev/null
for kind in PerfRun PerfSchedule PerfSweep; do
  key=resource.customizations.health.perf.daprbench.io_$kind
  diff <(kc -n argocd get configmap argocd-cm -o go-template="{{index .data \"$key\"}}") "config/argocd/perf.daprbench.io/$kind/health.lua" >/dev/null ||
    die "argocd-cm's $key is not config/argocd/perf.daprbench.io/$kind/health.lua (make argocd-health)"
done
kc -n argocd create secret generic argocd-secret --from-literal=server.secretkey="$(head -c 24 /dev/urandom | base64)" --dry-run=client -o yaml |
  kc label --local -f - app.kubernetes.io/part-of=argocd -o yaml | kc apply --server-side --force-conflicts -f - >/dev/null
kc apply --server-side -f - >/dev/null <<YAML
apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata: {name: default, namespace: argocd}
spec:
  sourceRepos: ["*"]
  destinations: [{namespace: "*", server: "*"}]
  clusterResourceWhitelist: [{group: "*", kind: "*"}]
YAML

# The controller runs outside any pod, so it reaches the cluster as Argo CD reaches any
# external one: a cluster Secret with the admin credentials of the kubeconfig.
server=$(kc config view --raw -o jsonpath='{.clusters[0].cluster.server}')
kc -n argocd create secret generic local-cluster --from-literal=name=local --from-literal=server="$server" \
  --from-literal=config="$(printf '{"tlsClientConfig": {"caData": "%s", "certData": "%s", "keyData": "%s"}}' \
    "$(kc config view --raw -o jsonpath='{.clusters[0].cluster.certificate-authority-data}')" \
    "$(kc config view --raw -o jsonpath='{.users[0].user.client-certificate-data}')" \
    "$(kc config view --raw -o jsonpath='{.users[0].user.client-key-data}')")" --dry-run=client -o yaml |
  kc label --local -f - argocd.argoproj.io/secret-type=cluster -o yaml | kc apply --server-side --force-conflicts -f - >/dev/null

say "a git repository, served on the cluster's network by git daemon"
rm -rf "$WORK/git" "$WORK/src" "$WORK/home"
mkdir -p "$WORK/git" "$WORK/pids" "$WORK/logs" "$WORK/home"
git init -q --bare "$WORK/git/perf.git"
git init -q -b main "$WORK/src"
mkdir -p "$WORK/src/passing" "$WORK/src/failing"
run_yaml() { # NAME QPS [THRESHOLDS]
  cat <<YAML
apiVersion: perf.daprbench.io/v1alpha1
kind: PerfRun
metadata: {name: $1}
spec:
  scenario: ServiceInvocation
  dapr: {enabled: false}
  exclusive: false
  load: {qps: $2, connections: 2, duration: 5s, warmup: 1s, payloadBytes: 64}
${3:-}
YAML
}
run_yaml floor 100 >"$WORK/src/passing/run.yaml"
cat >"$WORK/src/passing/schedule.yaml" <<YAML
apiVersion: perf.daprbench.io/v1alpha1
kind: PerfSchedule
metadata: {name: nightly-floor}
spec:
  schedule: "0 3 * * *"
  template:
    spec:
      scenario: ServiceInvocation
      dapr: {enabled: false}
      load: {qps: 100, connections: 2, duration: 5s, warmup: 1s}
YAML
run_yaml too-strict 100 "  thresholds: {maxP99: 1us, failRun: true}" >"$WORK/src/failing/run.yaml"
commit() { git -C "$WORK/src" -c user.name=daprbench -c user.email=daprbench@local add -A &&
  git -C "$WORK/src" -c user.name=daprbench -c user.email=daprbench@local commit -qm "$1" &&
  git -C "$WORK/src" push -q "$WORK/git/perf.git" main; }
commit "PerfRuns and a PerfSchedule"
git -C "$WORK/git/perf.git" symbolic-ref HEAD refs/heads/main

daemon() { # NAME COMMAND...
  local name=$1; shift
  setsid nsenter --net="/run/netns/$NETNS" -- env HOME="$WORK/home" ARGOCD_GPG_ENABLED=false "$@" >"$WORK/logs/$name.log" 2>&1 &
  echo $! >"$WORK/pids/$name.pid"
}
say "Redis, git daemon, Argo CD's repo server and application controller, in the cluster's namespace"
daemon redis redis-server --port 6379 --bind 127.0.0.1 --save "" --appendonly no
daemon git-daemon git daemon --reuseaddr --export-all --base-path="$WORK/git" --listen=127.0.0.1 --port=9418 "$WORK/git"
daemon repo-server "$ARGOCD/argocd-repo-server" --disable-tls --redis 127.0.0.1:6379 --port 8081 --metrics-port 8084
daemon application-controller "$ARGOCD/argocd-application-controller" --kubeconfig "$KUBECONFIG" --namespace argocd \
  --repo-server 127.0.0.1:8081 --repo-server-plaintext --redis 127.0.0.1:6379 --app-resync 10 --metrics-port 8082

app() { # NAME PATH
  kc apply --server-side -f - >/dev/null <<YAML
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: $1, namespace: argocd}
spec:
  project: default
  source: {repoURL: "git://127.0.0.1/perf.git", targetRevision: main, path: $2}
  destination: {server: "$server", namespace: $NS}
  syncPolicy:
    automated: {prune: true, selfHeal: true}
    syncOptions: [CreateNamespace=true]
YAML
}
app perf-passing passing
app perf-failing failing

# record writes each change of either Application's health, as Argo CD reports it, to
# health.log ("SECONDS APP HEALTH"), every second, until killed.
record() {
  declare -A last
  local a h
  while true; do
    for a in perf-passing perf-failing; do
      h=$(kc -n argocd get application "$a" -o jsonpath='{.status.health.status}' 2>/dev/null || true)
      if [ -n "$h" ] && [ "${last[$a]:-}" != "$h" ]; then last[$a]=$h; echo "$SECONDS $a $h" >>"$WORK/health.log"; fi
    done
    sleep 1
  done
}
: >"$WORK/health.log"
record &
echo $! >"$WORK/pids/record.pid"

# watch APP FINAL [FROM]: waits (bounded) until APP's health is FINAL and prints the
# sequence of its healths recorded from line FROM of health.log on.
watch() {
  local app=$1 final=$2 from=${3:-1} end=$((SECONDS + WAIT)) seq
  while ((SECONDS < end)); do
    seq=$(tail -n +"$from" "$WORK/health.log" | awk -v a="$app" '$2 == a {printf "%s%s", sep, $3; sep=" → "}')
    [ "${seq##* }" = "$final" ] && { echo "$seq"; return 0; }
    sleep 1
  done
  kc -n argocd get application "$app" -o yaml >&2 || true
  tail -20 "$WORK/logs/application-controller.log" >&2
  die "$app did not become $final within ${WAIT}s (seen: $seq)"
}
expect_progressing() { # SEQUENCE APP
  [[ "$1" == *"Progressing"* ]] || die "$2 was never Progressing: $1"
}

say "Argo CD syncs both; their health as it reports it"
t0=$SECONDS
passing=$(watch perf-passing Healthy)
failing=$(watch perf-failing Degraded)
expect_progressing "$passing" perf-passing
expect_progressing "$failing" perf-failing
kc -n "$NS" get perfrun,perfschedule
kc -n "$NS" get perfrun too-strict -o jsonpath='too-strict: {.status.conditions[?(@.type=="Succeeded")].reason}: {.status.conditions[?(@.type=="Succeeded")].message}{"\n"}'

say "a changed spec in git runs the benchmark again"
mark=$(($(wc -l <"$WORK/health.log") + 1))
sed -i 's/qps: 100,/qps: 150,/' "$WORK/src/passing/run.yaml"
commit "floor: 150 rps"
kc -n argocd annotate application perf-passing argocd.argoproj.io/refresh=normal --overwrite >/dev/null
end=$((SECONDS + WAIT))
until [ "$(kc -n "$NS" get perfrun floor -o jsonpath='{.status.result.generation}/{.status.result.requestedQPS}')" = "2/150" ]; do
  ((SECONDS < end)) || die "the changed PerfRun did not run again within ${WAIT}s"
  sleep 1
done
rerun=$(watch perf-passing Healthy "$mark")
expect_progressing "$rerun" "perf-passing after the change"
kc -n "$NS" get perfrun floor

say "a gate tightened in git to inside the spread of the repetitions: re-judged Inconclusive, Degraded"
# The cheapest real Inconclusive: the limit is the fastest repetition's p90 (or p99), which
# the slower repetitions exceed, so the gate can be neither met nor violated. Only the
# thresholds change, so the operator judges the result again instead of measuring anew.
mark=$(($(wc -l <"$WORK/health.log") + 1))
started=$(kc -n "$NS" get perfrun floor -o jsonpath='{.status.startTime}')
# The spread is in the run's result document, read as a user reads it (checked against the
# status's digest).
go build -o "$WORK/kubectl-daprbench" ./cmd/kubectl-daprbench
spread() { "$WORK/kubectl-daprbench" -n "$NS" export floor -o jsonpath="{.result.spread.latency$1}"; }
limit="" figure=""
for f in p90 p99; do
  lo=$(spread ".min.$f") hi=$(spread ".max.$f")
  if [ -n "$lo" ] && [ "$lo" != "$hi" ]; then limit=$lo figure=$f; break; fi
done
[ -n "$limit" ] || die "floor's repetitions agree on p90 and p99 (spread: $(spread "")): no limit lies inside"
max_key=maxP${figure#p}
printf '  thresholds: {%s: "%s"}\n' "$max_key" "$limit" >>"$WORK/src/passing/run.yaml"
commit "floor: $max_key $limit (inside its repetitions' spread)"
kc -n argocd annotate application perf-passing argocd.argoproj.io/refresh=normal --overwrite >/dev/null
end=$((SECONDS + WAIT))
until [ "$(kc -n "$NS" get perfrun floor -o jsonpath='{.status.observedGeneration}/{.status.conditions[?(@.type=="ThresholdsMet")].reason}')" = "3/Inconclusive" ]; do
  ((SECONDS < end)) || die "floor was not re-judged Inconclusive within ${WAIT}s: $(kc -n "$NS" get perfrun floor -o jsonpath='{.status.conditions}')"
  sleep 1
done
[ "$(kc -n "$NS" get perfrun floor -o jsonpath='{.status.phase}/{.status.startTime}/{.status.result.generation}')" = "Succeeded/$started/3" ] ||
  die "floor was measured again or did not succeed: $(kc -n "$NS" get perfrun floor -o jsonpath='{.status.phase} {.status.startTime} (was '"$started"') {.status.result.generation}')"
kc -n "$NS" get perfrun floor -o jsonpath='floor: ThresholdsMet {.status.conditions[?(@.type=="ThresholdsMet")].status} {.status.conditions[?(@.type=="ThresholdsMet")].reason}: {.status.conditions[?(@.type=="ThresholdsMet")].message}{"\n"}'
inconclusive=$(watch perf-passing Degraded "$mark")

say "Argo CD $ARGOCD_VERSION: passing $passing; failing $failing; after the change in git: $rerun; gate inside the spread (Inconclusive): $inconclusive (all within $((SECONDS - t0))s)"

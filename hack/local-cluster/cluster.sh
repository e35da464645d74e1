#!/usr/bin/env bash
# A real Kubernetes cluster of one node (or NODES) built from Go modules and Debian packages,
# for the e2e suite and the demo on machines with no container engine and no registry.
#
#   hack/local-cluster/cluster.sh up        build what is missing, start, wait until usable
#   NODES=3 hack/local-cluster/cluster.sh up   three nodes: the published topology
#   hack/local-cluster/cluster.sh down      stop exactly what `up` started, remove its state
#   hack/local-cluster/cluster.sh status    what runs, and the node
#   hack/local-cluster/cluster.sh import F  import an image archive into the node's containerd
#
# Everything runs inside a network namespace of its own, reached from the host through a
# veth pair: the cluster's iptables rules, routes and ip_forward stay in there, and pods can
# reach nothing outside it. Facts and traps: shared/reference/local-cluster.md.
#
# With NODES > 1 every further node is a kubelet, kube-proxy and containerd of its own in a
# network namespace of its own, joined to the first (control-plane) node's namespace by a
# bridge in there (the fabric); each node's pod range is routed to it over the fabric. The
# further nodes have no link to the host at all. Each kubelet gets a cgroup root and a pod-log
# directory of its own (they share one kernel); every node reports the whole machine as its
# capacity, so the scheduler sees NODES times the cores there are.
set -euo pipefail

K8S_VERSION=${K8S_VERSION:-1.36.3}
CACHE=${DAPRBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/daprbench}
BIN=$CACHE/cluster/bin-$K8S_VERSION
STATE=${DAPRBENCH_CLUSTER_STATE:-/var/lib/daprbench-cluster}
RUN=/run/daprbench-cluster
KUBECONFIG_OUT=${DAPRBENCH_KUBECONFIG:-$CACHE/cluster/kubeconfig}
NETNS=daprbench
HOST_IF=dbh0 NS_IF=dbn0
HOST_IP=172.30.0.2 NODE_IP=172.30.0.1
NODE=daprbench-node
NODES=${NODES:-1}
CLUSTER_CIDR=10.244.0.0/16 SERVICE_CIDR=10.96.0.0/16 API_SERVICE_IP=10.96.0.1
FABRIC=dbfab FABRIC_IP=172.31.0.1
PAUSE_IMAGE=docker.io/daprbench/pause:local
HERE=$(cd "$(dirname "$0")" && pwd)
HACK=$(dirname "$HERE")

log() { printf '>> %s\n' "$*" >&2; }

# Node K (from 0): its name, network namespace, address, pod range, state and run
# directories, and its containerd's socket. Node 0 keeps the one-node cluster's names.
node_name() { if [ "$1" = 0 ]; then echo "$NODE"; else echo "$NODE-$1"; fi; }
node_ns() { if [ "$1" = 0 ]; then echo "$NETNS"; else echo "$NETNS-n$1"; fi; }
node_ip() { if [ "$1" = 0 ]; then echo "$NODE_IP"; else echo "172.31.0.$(($1 + 1))"; fi; }
fabric_ip() { if [ "$1" = 0 ]; then echo "$FABRIC_IP"; else node_ip "$1"; fi; }
pod_cidr() { echo "10.244.$1.0/24"; }
node_dir() { if [ "$1" = 0 ]; then echo "$STATE"; else echo "$STATE/nodes/n$1"; fi; }
node_run() { if [ "$1" = 0 ]; then echo "$RUN"; else echo "$RUN/nodes/n$1"; fi; }
node_sock() { echo "$(node_run "$1")/containerd/containerd.sock"; }
# node_suffix K: what tells node K's daemons apart in pid and log names.
node_suffix() { if [ "$1" = 0 ]; then echo ""; else echo "-n$1"; fi; }
nodes() { seq 0 $((NODES - 1)); }
# every_sock: the containerd socket of every node that runs, whatever NODES says.
every_sock() { ls "$RUN"/containerd/containerd.sock "$RUN"/nodes/*/containerd/containerd.sock 2>/dev/null || true; }
die() { printf 'local-cluster: %s\n' "$*" >&2; exit 1; }
in_ns() { nsenter --net="/run/netns/$NETNS" -- "$@"; }
kc() { "$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" "$@"; }

# wait_for DESCRIPTION SECONDS COMMAND...: poll until COMMAND succeeds, bounded.
wait_for() {
  local what=$1 secs=$2; shift 2
  local end=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= end)); then die "$what not ready after ${secs}s (logs: $STATE/logs)"; fi
    sleep 0.5
  done
}

preflight() {
  [ "$(id -u)" = 0 ] || die "needs root (network namespace, containerd, kubelet)"
  local missing=()
  for cmd in containerd containerd-shim-runc-v2 runc ctr iptables conntrack ip nsenter openssl curl; do
    command -v "$cmd" >/dev/null || missing+=("$cmd")
  done
  [ -x /usr/lib/cni/bridge ] || missing+=(cni-plugins)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages for: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    local before
    before=$(pgrep -x containerd || true)
    apt-get update -qq
    apt-get install -y -qq containerd runc containernetworking-plugins iptables conntrack iproute2 util-linux openssl curl >/dev/null
    stop_new_containerds "$before"
  fi
}

# stop_new_containerds BEFORE: the package may start a containerd of its own (ours runs with
# its own paths and socket); stop only one that started since, never one that ran before
# (Docker's, the host's): those are named and left alone.
stop_new_containerds() {
  local pid
  for pid in $(pgrep -x containerd || true); do
    if grep -qx "$pid" <<<"$1"; then
      log "leaving alone the containerd that ran before (pid $pid): the cluster's runs beside it with its own socket"
    else
      kill "$pid" 2>/dev/null || true
    fi
  done
}

build() {
  mkdir -p "$BIN"
  K8S_VERSION=$K8S_VERSION "$HACK/toolchain/build-k8s.sh" "$BIN" kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl
  "$HACK/toolchain/build-etcd.sh" "$BIN"
  "$HERE/build-addons.sh" "$BIN"
  # The project's own small tools: rebuilt every time (Go's cache makes that a second), so
  # a changed tool never leaves a stale binary in the cache.
  for tool in pause mkimage cri-clean; do
    (cd "$HERE" && CGO_ENABLED=0 go build -trimpath -o "$BIN/$tool" "./$tool")
  done
  local stamp; stamp=$(image_stamp)
  if [ "$(cat "$BIN/pause.stamp" 2>/dev/null)" != "$stamp" ]; then
    "$BIN/mkimage" -tag "$PAUSE_IMAGE" -o "$BIN/pause.tar" "$BIN/pause" && echo "$stamp" >"$BIN/pause.stamp"
  fi
}

# image_stamp identifies the image layout mkimage writes: archives made by another mkimage
# are rebuilt.
image_stamp() { sha256sum "$BIN/mkimage" | cut -c1-16; }

network_up() {
  ip netns add "$NETNS"
  ip link add "$HOST_IF" type veth peer name "$NS_IF"
  ip link set "$NS_IF" netns "$NETNS"
  ip addr add "$HOST_IP/30" dev "$HOST_IF"
  ip link set "$HOST_IF" up
  in_ns ip addr add "$NODE_IP/30" dev "$NS_IF"
  in_ns ip link set "$NS_IF" up
  in_ns ip link set lo up
  in_ns sysctl -qw net.ipv4.ip_forward=1
  in_ns sysctl -qw net.bridge.bridge-nf-call-iptables=1 2>/dev/null || true
  # From the host, only the API port (and replies). Nothing is forwarded through the veth:
  # pods reach nothing outside the namespace, and the host reaches no pod.
  in_ns iptables -A INPUT -i "$NS_IF" -p tcp --dport 6443 -j ACCEPT
  in_ns iptables -A INPUT -i "$NS_IF" -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
  in_ns iptables -A INPUT -i "$NS_IF" -j DROP
  in_ns iptables -A FORWARD -i "$NS_IF" -j DROP
  in_ns iptables -A FORWARD -o "$NS_IF" -j DROP
  if [ "$NODES" -gt 1 ]; then fabric_up; fi
}

# fabric_up joins the further nodes to node 0: a bridge in node 0's namespace, a veth from
# each node's namespace to it, a default route to node 0 (the API server and DNS live there)
# and a route to every node's pod range.
fabric_up() {
  in_ns ip link add "$FABRIC" type bridge
  in_ns ip addr add "$FABRIC_IP/24" dev "$FABRIC"
  in_ns ip link set "$FABRIC" up
  local k j ns
  for k in $(seq 1 $((NODES - 1))); do
    ns=$(node_ns "$k")
    ip netns add "$ns"
    ip link add "dbf$k" type veth peer name "dbx$k"
    ip link set "dbf$k" netns "$NETNS"
    ip link set "dbx$k" netns "$ns"
    in_ns ip link set "dbf$k" master "$FABRIC" up
    nsenter --net="/run/netns/$ns" -- sh -ec "
      ip link set lo up
      ip addr add $(node_ip "$k")/24 dev dbx$k
      ip link set dbx$k up
      ip route add default via $FABRIC_IP
      sysctl -qw net.ipv4.ip_forward=1
      sysctl -qw net.bridge.bridge-nf-call-iptables=1 2>/dev/null || true"
  done
  for j in $(nodes); do
    for k in $(nodes); do
      [ "$j" = "$k" ] || nsenter --net="/run/netns/$(node_ns "$j")" -- ip route add "$(pod_cidr "$k")" via "$(fabric_ip "$k")"
    done
  done
}

# cgroup_roots gives each kubelet a cgroup root of its own when several share the kernel:
# each would otherwise take the others' pods for orphans. cpuset starts from the machine's.
cgroup_roots() {
  local k c dir
  for k in $(nodes); do
    for c in /sys/fs/cgroup/*/; do
      dir=$c$(node_name "$k")
      mkdir -p "$dir"
      if [ -e "$c/cpuset.cpus" ] && [ -z "$(cat "$dir/cpuset.cpus" 2>/dev/null)" ]; then
        cat "$c/cpuset.cpus" >"$dir/cpuset.cpus" && cat "$c/cpuset.mems" >"$dir/cpuset.mems"
      fi
    done
  done
}

# cert NAME CN [O] [SAN] [CA]: a key and a certificate signed by CA (default: the cluster CA).
cert() {
  local name=$1 cn=$2 o=${3:-} san=${4:-} ca=${5:-ca} subj="/CN=$2"
  local pki=$STATE/pki
  [ -n "$o" ] && subj="/O=$o/CN=$cn"
  openssl genrsa -out "$pki/$name.key" 2048 2>/dev/null
  openssl req -new -key "$pki/$name.key" -subj "$subj" -out "$pki/$name.csr" 2>/dev/null
  local ext="$pki/$name.ext"
  printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\n' >"$ext"
  [ -n "$san" ] && printf 'subjectAltName=%s\n' "$san" >>"$ext"
  openssl x509 -req -in "$pki/$name.csr" -CA "$pki/$ca.crt" -CAkey "$pki/$ca.key" -CAcreateserial \
    -days 30 -sha256 -extfile "$ext" -out "$pki/$name.crt" 2>/dev/null
}

pki() {
  local pki=$STATE/pki
  mkdir -p "$pki"
  for ca in ca front-proxy-ca; do
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$pki/$ca.key" -out "$pki/$ca.crt" -days 30 \
      -subj "/CN=daprbench-$ca" -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  done
  openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
  openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
  cert apiserver kube-apiserver "" "IP:$NODE_IP,IP:127.0.0.1,IP:$API_SERVICE_IP,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
  cert admin admin system:masters
  cert kcm system:kube-controller-manager
  cert scheduler system:kube-scheduler
  cert kube-proxy system:kube-proxy
  local k
  for k in $(nodes); do
    cert "kubelet$(node_suffix "$k")" "system:node:$(node_name "$k")" system:nodes "IP:$(node_ip "$k"),DNS:$(node_name "$k")"
  done
  cert apiserver-kubelet-client kube-apiserver-kubelet-client system:masters
  cert metrics-server system:metrics-server "" "IP:$NODE_IP,DNS:metrics-server.kube-system.svc"
  cert coredns system:coredns
  cert front-proxy-client front-proxy-client "" "" front-proxy-ca
}

# kubeconfig FILE CERT SERVER
kubeconfig() {
  local pki=$STATE/pki
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: daprbench-local
  cluster:
    server: $3
    certificate-authority-data: $(base64 -w0 <"$pki/ca.crt")
users:
- name: $2
  user:
    client-certificate-data: $(base64 -w0 <"$pki/$2.crt")
    client-key-data: $(base64 -w0 <"$pki/$2.key")
contexts:
- name: daprbench-local
  context: {cluster: daprbench-local, user: $2}
current-context: daprbench-local
EOF
}

configs() {
  local cfg=$STATE/config k
  mkdir -p "$cfg" "$STATE/logs" "$RUN/pids" "$(dirname "$KUBECONFIG_OUT")"
  for who in kcm scheduler kube-proxy metrics-server coredns admin; do
    kubeconfig "$cfg/$who.kubeconfig" "$who" "https://$NODE_IP:6443"
  done
  kubeconfig "$KUBECONFIG_OUT" admin "https://$NODE_IP:6443"
  echo "nameserver 127.0.0.1" >"$cfg/resolv.conf" # pods' upstream: DNS never leaves the pod
  for k in $(nodes); do node_configs "$k"; done

  cat >"$cfg/Corefile" <<EOF
.:53 {
    bind $NODE_IP
    errors
    ready 127.0.0.1:8181
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        kubeconfig $cfg/coredns.kubeconfig
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
    }
    cache 30
}
EOF
}

# node_configs K writes node K's containerd, CNI, kubelet and kube-proxy configuration.
node_configs() {
  local k=$1 cfg=$STATE/config pki=$STATE/pki
  local dir; dir=$(node_dir "$k")
  local ncfg=$dir/config name; name=$(node_name "$k")
  local kubelet; kubelet=kubelet$(node_suffix "$k")
  mkdir -p "$ncfg" "$dir/cni/net.d" "$(node_run "$k")/containerd"
  kubeconfig "$ncfg/$kubelet.kubeconfig" "$kubelet" "https://$NODE_IP:6443"

  cat >"$ncfg/containerd.toml" <<EOF
version = 2
root = "$dir/containerd"
state = "$(node_run "$k")/containerd"
[grpc]
  address = "$(node_sock "$k")"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  restrict_oom_score_adj = true
  # Pod network namespaces under our own state dir, so teardown finds every one of them.
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$dir/cni/net.d"
EOF

  cat >"$dir/cni/net.d/10-daprbench.conflist" <<EOF
{"cniVersion": "1.0.0", "name": "daprbench", "plugins": [
  {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "$(pod_cidr "$k")"}]], "routes": [{"dst": "0.0.0.0/0"}],
            "dataDir": "$dir/cni/ipam"}},
  {"type": "portmap", "capabilities": {"portMappings": true}}
]}
EOF

  cat >"$ncfg/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $pki/ca.crt}
authorization: {mode: Webhook}
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
readOnlyPort: 0
clusterDNS: [$NODE_IP]
clusterDomain: cluster.local
resolvConf: $cfg/resolv.conf
tlsCertFile: $pki/$kubelet.crt
tlsPrivateKeyFile: $pki/$kubelet.key
containerRuntimeEndpoint: unix://$(node_sock "$k")
serializeImagePulls: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%}
protectKernelDefaults: false
EOF
  if [ "$NODES" -gt 1 ]; then
    printf 'cgroupRoot: /%s\npodLogsDir: %s\n' "$name" "$dir/pod-logs" >>"$ncfg/kubelet.yaml"
  fi

  cat >"$ncfg/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $cfg/kube-proxy.kubeconfig}
mode: iptables
clusterCIDR: $CLUSTER_CIDR
hostnameOverride: $name
nodePortAddresses: [$(node_ip "$k")/32]
oomScoreAdj: 0
metricsBindAddress: 127.0.0.1:10249
healthzBindAddress: 127.0.0.1:10256
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
EOF
}

# start NAME COMMAND...: run a daemon inside node 0's namespace, log and PID under $STATE/$RUN.
start() { start_in "$NETNS" "$@"; }

# start_in NETNS NAME COMMAND...: the same in another node's namespace.
start_in() {
  local ns=$1 name=$2; shift 2
  nsenter --net="/run/netns/$ns" -- "$@" >"$STATE/logs/$name.log" 2>&1 &
  echo $! >"$RUN/pids/$name.pid"
}

# start_node K: node K's containerd (with the pause image), kubelet and kube-proxy.
start_node() {
  local k=$1 ns cfg sfx sock
  ns=$(node_ns "$k") cfg=$(node_dir "$k")/config sfx=$(node_suffix "$k") sock=$(node_sock "$k")
  start_in "$ns" "containerd$sfx" containerd --config "$cfg/containerd.toml"
  wait_for "containerd of node $k" 30 test -S "$sock"
  ctr --address "$sock" -n k8s.io images import "$BIN/pause.tar" >/dev/null
  start_in "$ns" "kubelet$sfx" "$BIN/kubelet" --config="$cfg/kubelet.yaml" --kubeconfig="$cfg/kubelet$sfx.kubeconfig" \
    --hostname-override="$(node_name "$k")" --node-ip="$(node_ip "$k")" --root-dir="$(node_dir "$k")/kubelet"
  start_in "$ns" "kube-proxy$sfx" "$BIN/kube-proxy" --config="$cfg/kube-proxy.yaml"
}

bootstrap_objects() {
  local ca_bundle; ca_bundle=$(base64 -w0 <"$STATE/pki/ca.crt")
  kc apply --server-side -f - >/dev/null <<EOF
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "system:metrics-server"}
rules:
- apiGroups: [""]
  resources: [nodes/metrics]
  verbs: [get]
- apiGroups: [""]
  resources: [pods, nodes]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "system:metrics-server"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:metrics-server"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: "system:metrics-server"}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "metrics-server:system:auth-delegator"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:auth-delegator"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: "system:metrics-server"}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: "metrics-server-auth-reader", namespace: kube-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: "extension-apiserver-authentication-reader"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: "system:metrics-server"}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "system:coredns"}
rules:
- apiGroups: [""]
  resources: [endpoints, services, pods, namespaces]
  verbs: [list, watch]
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "system:coredns"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:coredns"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: "system:coredns"}]
---
# metrics-server runs as a process in the node's namespace: a selector-less Service with
# manual endpoints, reached by the aggregator through --enable-aggregator-routing.
apiVersion: v1
kind: Service
metadata: {name: metrics-server, namespace: kube-system}
spec:
  ports: [{name: https, port: 443, targetPort: 4443, protocol: TCP}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: metrics-server-local
  namespace: kube-system
  labels: {kubernetes.io/service-name: metrics-server, endpointslice.kubernetes.io/managed-by: daprbench-local-cluster}
addressType: IPv4
ports: [{name: https, port: 4443, protocol: TCP}]
endpoints: [{addresses: ["$NODE_IP"], conditions: {ready: true}}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.metrics.k8s.io}
spec:
  group: metrics.k8s.io
  version: v1beta1
  service: {name: metrics-server, namespace: kube-system, port: 443}
  caBundle: $ca_bundle
  groupPriorityMinimum: 100
  versionPriority: 100
EOF
}

api_ready() { kc get --raw /readyz; }
node_ready() { kc get node "${1:-$NODE}" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' | grep -qx True; }
nodes_ready() { for k in $(nodes); do node_ready "$(node_name "$k")" || return 1; done; }
metrics_ready() { kc get --raw "/apis/metrics.k8s.io/v1beta1/nodes/$NODE"; }
dns_ready() { in_ns curl -fsS http://127.0.0.1:8181/ready; }

up() {
  preflight
  if is_up; then
    local have; have=$(kc get nodes --no-headers 2>/dev/null | wc -l)
    [ "$have" = "$NODES" ] || die "the cluster is up with $have node(s), not NODES=$NODES: 'cluster.sh down' first"
    log "already up"; print_access; return 0
  fi
  [ -e "/run/netns/$NETNS" ] && { log "cleaning up a partial cluster first"; down; }
  build
  local t0=$SECONDS pki=$STATE/pki cfg=$STATE/config
  rm -rf "$STATE/etcd" "$STATE/kubelet" "$STATE/cni/ipam" "$STATE/volumes" "$STATE/nodes" "$RUN"
  mkdir -p "$STATE" "$RUN/pids" "$RUN/containerd"
  network_up
  if [ "$NODES" -gt 1 ]; then cgroup_roots; fi
  pki
  configs

  log "starting the control plane"
  start etcd "$BIN/etcd" --name default --data-dir "$STATE/etcd" --unsafe-no-fsync \
    --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
    --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
    --initial-cluster default=http://127.0.0.1:2380 --listen-metrics-urls http://127.0.0.1:2381
  start kube-apiserver "$BIN/kube-apiserver" --etcd-servers=http://127.0.0.1:2379 \
    --advertise-address="$NODE_IP" --bind-address=0.0.0.0 --secure-port=6443 \
    --service-cluster-ip-range="$SERVICE_CIDR" --allow-privileged=true \
    --client-ca-file="$pki/ca.crt" --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
    --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
    --kubelet-client-certificate="$pki/apiserver-kubelet-client.crt" --kubelet-client-key="$pki/apiserver-kubelet-client.key" \
    --kubelet-certificate-authority="$pki/ca.crt" --kubelet-preferred-address-types=InternalIP \
    --requestheader-client-ca-file="$pki/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
    --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
    --requestheader-extra-headers-prefix=X-Remote-Extra- \
    --proxy-client-cert-file="$pki/front-proxy-client.crt" --proxy-client-key-file="$pki/front-proxy-client.key" \
    --enable-aggregator-routing=true --profiling=false
  wait_for "kube-apiserver" 60 api_ready
  start kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig="$cfg/kcm.kubeconfig" \
    --authentication-kubeconfig="$cfg/kcm.kubeconfig" --authorization-kubeconfig="$cfg/kcm.kubeconfig" \
    --bind-address=127.0.0.1 --leader-elect=false --use-service-account-credentials \
    --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
    --cluster-signing-cert-file="$pki/ca.crt" --cluster-signing-key-file="$pki/ca.key" \
    --allocate-node-cidrs --cluster-cidr="$CLUSTER_CIDR" --node-cidr-mask-size=24 --service-cluster-ip-range="$SERVICE_CIDR"
  start kube-scheduler "$BIN/kube-scheduler" --kubeconfig="$cfg/scheduler.kubeconfig" \
    --authentication-kubeconfig="$cfg/scheduler.kubeconfig" --authorization-kubeconfig="$cfg/scheduler.kubeconfig" \
    --bind-address=127.0.0.1 --leader-elect=false
  bootstrap_objects

  log "starting $NODES node(s)"
  for k in $(nodes); do start_node "$k"; done
  start coredns "$BIN/coredns" -conf "$cfg/Corefile"
  # 10s: metrics-server's finest resolution (it must exceed the kubelet request timeout), so
  # a measured run of 30s holds whole windows that usage can be attributed to
  # (internal/operator/usage/phases.go).
  start metrics-server "$BIN/metrics-server" --kubeconfig="$cfg/metrics-server.kubeconfig" \
    --authentication-kubeconfig="$cfg/metrics-server.kubeconfig" --authorization-kubeconfig="$cfg/metrics-server.kubeconfig" \
    --secure-port=4443 --bind-address="$NODE_IP" \
    --tls-cert-file="$pki/metrics-server.crt" --tls-private-key-file="$pki/metrics-server.key" \
    --kubelet-insecure-tls --kubelet-preferred-address-types=InternalIP --kubelet-use-node-status-port \
    --metric-resolution=10s --kubelet-request-timeout=5s
  wait_for "$NODES node(s)" 90 nodes_ready
  wait_for "CoreDNS" 60 dns_ready
  wait_for "metrics API" 120 metrics_ready
  log "up in $((SECONDS - t0))s"
  print_access
}

print_access() {
  echo "kubeconfig: $KUBECONFIG_OUT"
  echo "  export KUBECONFIG=$KUBECONFIG_OUT"
}

is_up() {
  [ -e "/run/netns/$NETNS" ] || return 1
  for p in "$RUN"/pids/*.pid; do
    [ -e "$p" ] && alive "$(cat "$p")" || return 1
  done
  api_ready >/dev/null 2>&1 && node_ready
}

# alive PID: running and not a zombie (zombies are reaped slowly here).
alive() { [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }

stop_pid() {
  local f=$RUN/pids/$1.pid pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if alive "$pid"; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do alive "$pid" || break; sleep 0.25; done
    alive "$pid" && kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

down() {
  [ "$(id -u)" = 0 ] || die "needs root"
  local t0=$SECONDS f name sock ns
  # Whatever NODES says: every daemon `up` recorded, every node's containerd, every namespace.
  for f in "$RUN"/pids/kubelet*.pid; do [ -e "$f" ] && stop_pid "$(basename "$f" .pid)"; done
  for sock in $(every_sock); do
    name=containerd$(sed -n 's|.*/nodes/\(n[0-9]*\)/containerd/containerd.sock|-\1|p' <<<"$sock")
    if [ -f "$RUN/pids/$name.pid" ] && alive "$(cat "$RUN/pids/$name.pid")" && [ -x "$BIN/cri-clean" ]; then
      timeout 90 "$BIN/cri-clean" "unix://$sock" >&2 || log "cri-clean of $name failed; killing what is left"
    fi
  done
  for name in kube-proxy coredns metrics-server containerd kube-scheduler kube-controller-manager kube-apiserver etcd; do
    for f in "$RUN/pids/$name.pid" "$RUN"/pids/"$name"-n*.pid; do [ -e "$f" ] && stop_pid "$(basename "$f" .pid)"; done
  done
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$NETNS(-n[0-9]+)?\$" || true); do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
  done
  # Unmount what pods left (deepest first), then the namespaces take their links and rules with them.
  { grep -E " ($STATE|$RUN)/" /proc/mounts || true; } | awk '{print $2}' | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$NETNS(-n[0-9]+)?\$" || true); do ip netns del "$ns"; done
  ip link del "$HOST_IF" 2>/dev/null || true
  # The kubelets' own cgroup roots (several nodes only), deepest first.
  find /sys/fs/cgroup/*/ -maxdepth 1 -type d -name "$NODE*" 2>/dev/null | while read -r d; do
    find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
  rm -rf "$RUN" "$STATE/etcd" "$STATE/kubelet" "$STATE/cni/ipam" "$STATE/containerd" "$STATE/volumes" "$STATE/nodes" "$STATE/pod-logs"
  log "down in $((SECONDS - t0))s"
}

status() {
  if [ ! -e "/run/netns/$NETNS" ]; then echo "down"; return 0; fi
  for f in "$RUN"/pids/*.pid; do
    [ -e "$f" ] || continue
    local name; name=$(basename "$f" .pid)
    if alive "$(cat "$f")"; then echo "running  $name (pid $(cat "$f"))"; else echo "STOPPED  $name"; fi
  done
  kc get nodes -o wide 2>/dev/null || echo "API server not reachable"
  local pids; pids=$(for ns in $(ip netns list | awk '{print $1}' | grep -E "^$NETNS(-n[0-9]+)?\$"); do ip netns pids "$ns"; done)
  # shellcheck disable=SC2086
  echo "memory of the cluster's daemons (RSS in its namespaces; pods run in namespaces of their own): $(ps -o rss= -p $(echo $pids | tr ' ' ',') | awk '{s+=$1} END {printf "%.0f MiB", s/1024}')"
  du -sh "$STATE" "$BIN" 2>/dev/null || true
}

import() {
  local archive=${1:?usage: cluster.sh import ARCHIVE}
  local sock socks; socks=$(every_sock)
  [ -n "$socks" ] || die "no node's containerd is running: cluster.sh up first"
  for sock in $socks; do ctr --address "$sock" -n k8s.io images import "$archive" >/dev/null; done
}

# tag SOURCE TARGET names an imported image once more on every node: an image pinned by
# digest (repo@sha256:…) is found only under a name of that form, which import does not make.
tag() {
  local source=${1:?usage: cluster.sh tag SOURCE TARGET} target=${2:?usage: cluster.sh tag SOURCE TARGET}
  local sock
  for sock in $(every_sock); do ctr --address "$sock" -n k8s.io images tag --force "$source" "$target" >/dev/null; done
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  import) shift; import "$@" ;;
  tag) shift; tag "$@" ;;
  build) build ;;
  *) echo "usage: $0 up|down|status|import ARCHIVE|tag SOURCE TARGET|build" >&2; exit 2 ;;
esac

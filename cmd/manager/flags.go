/*
Copyright 2026 The daprbench Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package main

import (
	"flag"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/policy"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// managerFlags are the manager's settings, each a flag (most also a DAPRBENCH_* variable).
type managerFlags struct {
	metricsAddr, probeAddr         string
	killAddr                       string
	leaderElect                    bool
	opts                           workload.Options
	pollInterval                   time.Duration
	imageStartGrace                time.Duration
	usageInterval                  time.Duration
	workers                        int
	apiQPS                         float64
	apiBurst                       int
	allowedImagePrefixes           string
	allowedLoadTesterImagePrefixes string
	allowedTolerations             string
	allowedNodeLabels              string
	allowedStateStores             string
	allowNamedTopics               bool
	allowControlPlaneFaults        bool
	maxSchedulerHeldBytes          int64
	daprNamespace                  string
	kubeletCounters                bool
	maxRunsPerNamespace            int
	showVersion                    bool
	networkPolicies                bool
	preflightFit                   bool
	metricsSecure                  bool
	watchNamespaces                string
	imagePullSecrets               string
}

// parseFlags reads the command line.
func parseFlags() (managerFlags, zap.Options) {
	var f managerFlags
	flag.StringVar(&f.metricsAddr, "metrics-bind-address", ":8080", "address of the metrics endpoint (0 disables it)")
	flag.BoolVar(&f.metricsSecure, "metrics-secure", true, "serve the metrics endpoint over HTTPS, to callers the API server authenticates and authorises for GET /metrics (the metrics-reader ClusterRole); false: plain HTTP to anyone who reaches it")
	flag.StringVar(&f.probeAddr, "health-probe-bind-address", ":8081", "address of the health probes")
	flag.StringVar(&f.killAddr, "kill-bind-address", envOr("DAPRBENCH_KILL_BIND_ADDRESS", "0"),
		"address of the kill route a run's load tester orders a PodKill fault from, with the run's token (0 disables it) [DAPRBENCH_KILL_BIND_ADDRESS]")
	flag.StringVar(&f.opts.KillURL, "kill-url", envOr("DAPRBENCH_KILL_URL", ""),
		"the kill route as a run's pods reach it, e.g. http://daprbench-controller-manager-kill.daprbench-system.svc:9444 (the Helm chart sets it); empty: runs with a PodKill fail PodKillUnavailable [DAPRBENCH_KILL_URL]")
	flag.BoolVar(&f.leaderElect, "leader-elect", false, "elect a leader, so only one manager of several replicas works")
	flag.StringVar(&f.opts.Image, "image", envOr("DAPRBENCH_IMAGE", "daprbench:dev"), "image of the load tester and target app, unless a PerfRun overrides it [DAPRBENCH_IMAGE]")
	flag.StringVar(&f.opts.RedisImage, "redis-image", envOr("DAPRBENCH_REDIS_IMAGE", workload.DefaultRedisImage), "image of the Redis a State run deploys as its store (runs cannot choose it) [DAPRBENCH_REDIS_IMAGE]")
	flag.StringVar(&f.opts.PullPolicy, "image-pull-policy", envOr("DAPRBENCH_IMAGE_PULL_POLICY", "IfNotPresent"), "pull policy of the run's containers [DAPRBENCH_IMAGE_PULL_POLICY]")
	flag.StringVar(&f.imagePullSecrets, "image-pull-secrets", envOr("DAPRBENCH_IMAGE_PULL_SECRETS", ""),
		"comma-separated Secrets the run's pods pull their images with (each must exist in the run's namespace) [DAPRBENCH_IMAGE_PULL_SECRETS]")
	flag.StringVar(&f.allowedImagePrefixes, "allowed-image-prefixes", envOr("DAPRBENCH_ALLOWED_IMAGE_PREFIXES", ""),
		"comma-separated image prefixes a PerfRun may name for its target and sidecars, besides the operator's own repository (the load tester has its own list); empty: the registry path of Dapr's injector [DAPRBENCH_ALLOWED_IMAGE_PREFIXES]")
	flag.StringVar(&f.allowedLoadTesterImagePrefixes, "allowed-load-tester-image-prefixes", envOr("DAPRBENCH_ALLOWED_LOAD_TESTER_IMAGE_PREFIXES", ""),
		"comma-separated image prefixes a PerfRun's spec.loadTester.image may name besides the operator's own repository (the operator trusts what the load tester reports); empty: the operator's own alone [DAPRBENCH_ALLOWED_LOAD_TESTER_IMAGE_PREFIXES]")
	flag.StringVar(&f.allowedTolerations, "allowed-tolerations", envOr("DAPRBENCH_ALLOWED_TOLERATIONS", ""),
		"comma-separated taint keys a run's pods may tolerate (\"*\": any); empty: none, so runs land only on nodes without taints [DAPRBENCH_ALLOWED_TOLERATIONS]")
	flag.StringVar(&f.allowedNodeLabels, "allowed-node-labels", envOr("DAPRBENCH_ALLOWED_NODE_LABELS", ""),
		"comma-separated node label keys a run may select or require (nodeSelector, node affinity); empty: any [DAPRBENCH_ALLOWED_NODE_LABELS]")
	flag.StringVar(&f.allowedStateStores, "allowed-state-stores", envOr("DAPRBENCH_ALLOWED_STATE_STORES", ""),
		"comma-separated Dapr Components an actor run's spec.actors.stateStore may name; empty: none (runs use the in-memory store they create) [DAPRBENCH_ALLOWED_STATE_STORES]")
	flag.BoolVar(&f.allowNamedTopics, "allow-named-topics", envOr("DAPRBENCH_ALLOW_NAMED_TOPICS", "false") == "true",
		"let a PubSub run on an allowed named Component choose its topic (spec.pubsub.topic); false: such a run uses a topic of its own, never one other namespaces read [DAPRBENCH_ALLOW_NAMED_TOPICS]")
	flag.BoolVar(&f.allowControlPlaneFaults, "allow-control-plane-faults", envOr("DAPRBENCH_ALLOW_CONTROL_PLANE_FAULTS", "false") == "true",
		"let a run's PodKill delete every pod of Dapr's scheduler, placement or sentry (spec.faults), an outage every tenant's sidecars share; such a run waits for every other run and holds the whole cluster while it measures. false: such a run fails ControlPlaneFaultsNotAllowed [DAPRBENCH_ALLOW_CONTROL_PLANE_FAULTS]")
	flag.Int64Var(&f.maxSchedulerHeldBytes, "max-scheduler-held-bytes", envInt64Or("DAPRBENCH_MAX_SCHEDULER_HELD_BYTES", policy.DefaultMaxSchedulerHeldBytes),
		"the most a run may hold at once in Dapr's scheduler, which every namespace's jobs, reminders and workflows share: load.qps × scheduler.dueTime × the payload of a Scheduler run's jobs or reminders; a run above it fails SchedulerLoadNotAllowed; 0: admission's 256 MiB alone [DAPRBENCH_MAX_SCHEDULER_HELD_BYTES]")
	flag.StringVar(&f.daprNamespace, "dapr-namespace", envOr("DAPRBENCH_DAPR_NAMESPACE", perfv1alpha1.DefaultControlPlaneNamespace),
		"the namespace of Dapr's control plane: the only one the operator reads it in; a run naming another fails ControlPlaneNotAllowed [DAPRBENCH_DAPR_NAMESPACE]")
	flag.BoolVar(&f.kubeletCounters, "kubelet-counters", envOr("DAPRBENCH_KUBELET_COUNTERS", "true") == "true",
		"read each node's CPU and CFS-throttling counters through the API server's node proxy (needs nodes/proxy get); false: CPU from metrics-server only, and throttling unknown [DAPRBENCH_KUBELET_COUNTERS]")
	flag.IntVar(&f.maxRunsPerNamespace, "max-runs-per-namespace", 0,
		"how many runs of one namespace may be queued or running at once; a run beyond it waits (Queued, reason NamespaceLimit); 0: no bound")
	flag.BoolVar(&f.showVersion, "version", false, "print the manager's version and exit")
	flag.BoolVar(&f.networkPolicies, "network-policies", envOr("DAPRBENCH_NETWORK_POLICIES", "true") == "true",
		"create each run's NetworkPolicies: only its load tester reaches its load-tester group's leader and its targets' load ports (enforced where the network plugin enforces NetworkPolicy) [DAPRBENCH_NETWORK_POLICIES]")
	flag.BoolVar(&f.preflightFit, "preflight-fit", envOr("DAPRBENCH_PREFLIGHT_FIT", "true") == "true",
		"refuse before anything is created a run whose pod no current node could hold (PodsNeverFit); false where a node autoscaler adds larger nodes than the cluster has [DAPRBENCH_PREFLIGHT_FIT]")
	flag.StringVar(&f.watchNamespaces, "watch-namespaces", envOr("DAPRBENCH_WATCH_NAMESPACES", ""),
		"comma-separated namespaces runs may create workloads in (the Helm chart's rbac.namespaced mode grants Roles only there); a run elsewhere fails NamespaceNotWatched; empty: every namespace [DAPRBENCH_WATCH_NAMESPACES]")
	flag.DurationVar(&f.pollInterval, "poll-interval", 5*time.Second, "how often a run in progress is looked at again")
	flag.DurationVar(&f.imageStartGrace, "image-start-grace", 3*time.Minute, "how long a container may back off (image pull, crash loop) before its run fails")
	flag.DurationVar(&f.usageInterval, "usage-interval", 5*time.Second, "how often the metrics API is read during a run: at most half metrics-server's resolution (10s at its finest), so no window is missed")
	flag.IntVar(&f.workers, "max-concurrent-reconciles", 4, "runs (and schedules, sweeps) reconciled at once, so a slow one never holds up the others")
	flag.Float64Var(&f.apiQPS, "kube-api-qps", 50, "requests per second the manager may send the API server (client-side limit)")
	flag.IntVar(&f.apiBurst, "kube-api-burst", 100, "requests the manager may send the API server in a burst")
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	if f.killAddr == "0" || f.killAddr == "" {
		// A route not served is no route: its runs are refused, not sent to order from nothing.
		f.opts.KillURL = ""
	}
	return f, zapOpts
}

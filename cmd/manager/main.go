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

// Command manager runs the daprbench operator.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/perfrun"
	"github.com/daprbench/daprbench/controllers/perfschedule"
	"github.com/daprbench/daprbench/controllers/perfsweep"
	"github.com/daprbench/daprbench/internal/kit/version"
	"github.com/daprbench/daprbench/internal/operator/manager"
	"github.com/daprbench/daprbench/internal/operator/podkill"
	"github.com/daprbench/daprbench/internal/operator/policy"
	"github.com/daprbench/daprbench/internal/operator/usage"
	// Every scenario's operator side and preflight (internal/scenario/<name>).
	"github.com/daprbench/daprbench/internal/scenario/all"
)

func main() {
	f, zapOpts := parseFlags()
	if f.showVersion {
		fmt.Println("daprbench manager", version.Get())
		return
	}
	f.opts.PullSecrets = splitList(f.imagePullSecrets)
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	setupLog := ctrl.Log.WithName("setup")
	if missing := all.Unregistered(); len(missing) > 0 {
		setupLog.Error(nil, "Scenarios admitted with no folder registered: import each one's folder in internal/scenario/all", "scenarios", missing)
		os.Exit(1)
	}

	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(perfv1alpha1.AddToScheme(scheme))

	cfg := ctrl.GetConfigOrDie()
	cfg.QPS, cfg.Burst = float32(f.apiQPS), f.apiBurst
	newInformer, err := manager.LenientInformers(cfg, scheme)
	if err != nil {
		setupLog.Error(err, "Unable to create the informers")
		os.Exit(1)
	}
	watchNamespaces := usableNamespaces(cfg, splitList(f.watchNamespaces))
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsOptions(f),
		HealthProbeBindAddress: f.probeAddr,
		LeaderElection:         f.leaderElect,
		LeaderElectionID:       "daprbench.perf.daprbench.io",
		Cache:                  manager.CacheOptions(newInformer, watchNamespaces),
		Controller:             manager.ControllerOptions(f.workers),
	})
	if err != nil {
		setupLog.Error(err, "Unable to create manager")
		os.Exit(1)
	}
	k8sVersion := ""
	if dc, err := discovery.NewDiscoveryClientForConfig(cfg); err == nil {
		if v, err := dc.ServerVersion(); err == nil {
			k8sVersion = v.GitVersion
		}
	}
	if err := (&perfrun.Reconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Recorder:  mgr.GetEventRecorder("daprbench"),
		Clock:     clock.RealClock{},
		Workload:  f.opts,
		Policy: policy.Policy{OwnImage: f.opts.Image, AllowedImagePrefixes: splitList(f.allowedImagePrefixes),
			AllowedLoadTesterImagePrefixes: splitList(f.allowedLoadTesterImagePrefixes),
			AllowedTolerations:             splitList(f.allowedTolerations), AllowedNodeLabels: splitList(f.allowedNodeLabels),
			AllowedStateStores: splitList(f.allowedStateStores), AllowNamedTopics: f.allowNamedTopics, MaxSchedulerHeldBytes: f.maxSchedulerHeldBytes,
			AllowControlPlaneFaults: f.allowControlPlaneFaults},
		DaprNamespace:       f.daprNamespace,
		MaxRunsPerNamespace: f.maxRunsPerNamespace,
		NetworkPolicies:     f.networkPolicies,
		SkipFitCheck:        !f.preflightFit,
		PollInterval:        f.pollInterval,
		ImageStartGrace:     f.imageStartGrace,
		KubernetesVersion:   k8sVersion,
		Usage:               &usage.Sampler{Client: metricsclient.NewForConfigOrDie(cfg), ControlPlaneNamespace: f.daprNamespace},
		Counters:            kubeletCounters(f, cfg),
		Logs:                perfrun.APIServerLogs{Client: corev1client.NewForConfigOrDie(cfg)},
		UsageInterval:       f.usageInterval,
		WatchNamespaces:     watchNamespaces,
	}).SetupWithManager(mgr); err != nil {
		setupLog.Error(err, "Unable to create controller", "controller", "PerfRun")
		os.Exit(1)
	}
	if err := (&perfschedule.Reconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Recorder:  mgr.GetEventRecorder("daprbench-schedule"),
		Clock:     clock.RealClock{},
	}).SetupWithManager(mgr); err != nil {
		setupLog.Error(err, "Unable to create controller", "controller", "PerfSchedule")
		os.Exit(1)
	}
	if err := (&perfsweep.Reconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Recorder:  mgr.GetEventRecorder("daprbench-sweep"),
		Clock:     clock.RealClock{},
	}).SetupWithManager(mgr); err != nil {
		setupLog.Error(err, "Unable to create controller", "controller", "PerfSweep")
		os.Exit(1)
	}
	if f.killAddr != "0" && f.killAddr != "" {
		utilruntime.Must(mgr.Add(&podkill.Server{Addr: f.killAddr, Client: mgr.GetClient(), Log: ctrl.Log.WithName("podkill"),
			AllowControlPlane: f.allowControlPlaneFaults, DaprNamespace: f.daprNamespace, APIReader: mgr.GetAPIReader()}))
	}
	utilruntime.Must(mgr.AddHealthzCheck("healthz", healthz.Ping))
	utilruntime.Must(mgr.AddReadyzCheck("readyz", healthz.Ping))

	warnAboutDefaults(f)
	setupLog.Info("Starting manager", "version", version.Get().String(), "image", f.opts.Image, "kubernetesVersion", k8sVersion, "daprNamespace", f.daprNamespace)
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		setupLog.Error(err, "Manager stopped with an error")
		os.Exit(1)
	}
}

func envOr(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}

// envInt64Or is key's integer, or def when unset or not an integer (the flag's own parse
// then says nothing of the environment: it stays def).
func envInt64Or(key string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(key), 10, 64); err == nil {
		return v
	}
	return def
}

// splitList is a comma-separated flag's non-empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// +kubebuilder:rbac:groups=authentication.k8s.io,resources=tokenreviews,verbs=create
// +kubebuilder:rbac:groups=authorization.k8s.io,resources=subjectaccessreviews,verbs=create

// metricsOptions serves the metrics endpoint over HTTPS (a self-signed certificate) behind
// controller-runtime's authentication and authorisation filter: a scraper presents a token
// whose subject may GET /metrics (ClusterRole daprbench-metrics-reader). The results of
// every namespace's runs are on it, so it is not left open on the pod network.
func metricsOptions(f managerFlags) metricsserver.Options {
	o := metricsserver.Options{BindAddress: f.metricsAddr}
	if f.metricsSecure {
		o.SecureServing = true
		o.FilterProvider = filters.WithAuthenticationAndAuthorization
	}
	return o
}

// usableNamespaces leaves out of --watch-namespaces, loudly, each namespace the manager
// cannot list its runs' children in (deleted, or its Role missing): one such namespace
// would keep the whole cache from syncing. With none left it stops, rather than fall back
// to watching every namespace.
func usableNamespaces(cfg *rest.Config, namespaces []string) []string {
	if len(namespaces) == 0 {
		return nil
	}
	log := ctrl.Log.WithName("setup")
	usable, skipped := manager.UsableNamespaces(context.Background(), kubernetes.NewForConfigOrDie(cfg), namespaces)
	for ns, why := range skipped {
		log.Info("WARNING: leaving a namespace of --watch-namespaces out until the manager restarts: runs there fail NamespaceNotWatched",
			"namespace", ns, "reason", why)
	}
	if len(usable) == 0 {
		log.Error(nil, "None of --watch-namespaces can be listed: grant the manager's Role in them (the chart's rbac.namespaces), or create them", "namespaces", namespaces)
		os.Exit(1)
	}
	return usable
}

// kubeletCounters is the CPU counter source: the kubelet through the API server's node
// proxy, or none when the platform team did not grant nodes/proxy.
func kubeletCounters(f managerFlags, cfg *rest.Config) usage.CounterSource {
	if !f.kubeletCounters {
		return nil
	}
	return usage.NodeProxy{Client: corev1client.NewForConfigOrDie(cfg)}
}

// warnAboutDefaults says loudly, once at start, which of the platform team's guards fall
// back to a default that a shared cluster may not want.
func warnAboutDefaults(f managerFlags) {
	log := ctrl.Log.WithName("policy")
	if f.allowedImagePrefixes == "" {
		log.Info("WARNING: no --allowed-image-prefixes (Helm value allowedImagePrefixes): runs may use the operator's own repository and "+
			"the registry path of Dapr's injector image in the Dapr namespace; list your registries to allow others",
			"daprNamespace", f.daprNamespace, "ownImage", f.opts.Image)
	}
	if f.watchNamespaces == "" {
		log.Info("WARNING: no --watch-namespaces: runs may create workloads in every namespace (Helm value rbac.namespaced=true limits them)")
	}
	if f.maxRunsPerNamespace == 0 {
		log.Info("WARNING: no --max-runs-per-namespace: one namespace may fill the queue")
	}
}

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
	"flag"
	"os"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/discovery"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers"
	"github.com/daprbench/daprbench/internal/usage"
	"github.com/daprbench/daprbench/internal/workload"
)

func main() {
	var (
		metricsAddr, probeAddr string
		leaderElect            bool
		opts                   workload.Options
		pollInterval           time.Duration
		imageStartGrace        time.Duration
		usageInterval          time.Duration
		workers                int
		apiQPS                 float64
		apiBurst               int
		allowedImagePrefixes   string
		networkPolicies        bool
	)
	flag.StringVar(&metricsAddr, "metrics-bind-address", ":8080", "address of the metrics endpoint (0 disables it)")
	flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "address of the health probes")
	flag.BoolVar(&leaderElect, "leader-elect", false, "elect a leader, so only one manager of several replicas works")
	flag.StringVar(&opts.Image, "image", envOr("DAPRBENCH_IMAGE", "daprbench:dev"), "image of the load tester and target app, unless a PerfRun overrides it [DAPRBENCH_IMAGE]")
	flag.StringVar(&opts.PullPolicy, "image-pull-policy", envOr("DAPRBENCH_IMAGE_PULL_POLICY", "IfNotPresent"), "pull policy of the run's containers [DAPRBENCH_IMAGE_PULL_POLICY]")
	flag.StringVar(&allowedImagePrefixes, "allowed-image-prefixes", envOr("DAPRBENCH_ALLOWED_IMAGE_PREFIXES", ""),
		"comma-separated image prefixes a PerfRun may name for its target, load tester and sidecars, besides the operator's own repository; empty: the registry path of Dapr's injector [DAPRBENCH_ALLOWED_IMAGE_PREFIXES]")
	flag.BoolVar(&networkPolicies, "network-policies", envOr("DAPRBENCH_NETWORK_POLICIES", "true") == "true",
		"create each run's NetworkPolicies: only its load tester reaches its load-tester group's leader and its targets' load ports (enforced where the network plugin enforces NetworkPolicy) [DAPRBENCH_NETWORK_POLICIES]")
	flag.DurationVar(&pollInterval, "poll-interval", 5*time.Second, "how often a run in progress is looked at again")
	flag.DurationVar(&imageStartGrace, "image-start-grace", 3*time.Minute, "how long a container may back off (image pull, crash loop) before its run fails")
	flag.DurationVar(&usageInterval, "usage-interval", 5*time.Second, "how often the metrics API is read during a run: at most half metrics-server's resolution (10s at its finest), so no window is missed")
	flag.IntVar(&workers, "max-concurrent-reconciles", 4, "runs (and schedules, sweeps) reconciled at once, so a slow one never holds up the others")
	flag.Float64Var(&apiQPS, "kube-api-qps", 50, "requests per second the manager may send the API server (client-side limit)")
	flag.IntVar(&apiBurst, "kube-api-burst", 100, "requests the manager may send the API server in a burst")
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	setupLog := ctrl.Log.WithName("setup")

	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(perfv1alpha1.AddToScheme(scheme))

	cfg := ctrl.GetConfigOrDie()
	cfg.QPS, cfg.Burst = float32(apiQPS), apiBurst
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: metricsAddr},
		HealthProbeBindAddress: probeAddr,
		LeaderElection:         leaderElect,
		LeaderElectionID:       "daprbench.perf.daprbench.io",
		Cache:                  controllers.CacheOptions(),
		Controller:             controllers.ControllerOptions(workers),
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
	if err := (&controllers.PerfRunReconciler{
		Client:               mgr.GetClient(),
		APIReader:            mgr.GetAPIReader(),
		Recorder:             mgr.GetEventRecorder("daprbench"),
		Clock:                clock.RealClock{},
		Workload:             opts,
		AllowedImagePrefixes: splitList(allowedImagePrefixes),
		NetworkPolicies:      networkPolicies,
		PollInterval:         pollInterval,
		ImageStartGrace:      imageStartGrace,
		KubernetesVersion:    k8sVersion,
		Usage:                &usage.Sampler{Client: metricsclient.NewForConfigOrDie(cfg)},
		Counters:             usage.NodeProxy{Client: corev1client.NewForConfigOrDie(cfg)},
		UsageInterval:        usageInterval,
	}).SetupWithManager(mgr); err != nil {
		setupLog.Error(err, "Unable to create controller", "controller", "PerfRun")
		os.Exit(1)
	}
	if err := (&controllers.PerfScheduleReconciler{
		Client:   mgr.GetClient(),
		Recorder: mgr.GetEventRecorder("daprbench-schedule"),
		Clock:    clock.RealClock{},
	}).SetupWithManager(mgr); err != nil {
		setupLog.Error(err, "Unable to create controller", "controller", "PerfSchedule")
		os.Exit(1)
	}
	if err := (&controllers.PerfSweepReconciler{
		Client:   mgr.GetClient(),
		Recorder: mgr.GetEventRecorder("daprbench-sweep"),
		Clock:    clock.RealClock{},
	}).SetupWithManager(mgr); err != nil {
		setupLog.Error(err, "Unable to create controller", "controller", "PerfSweep")
		os.Exit(1)
	}
	utilruntime.Must(mgr.AddHealthzCheck("healthz", healthz.Ping))
	utilruntime.Must(mgr.AddReadyzCheck("readyz", healthz.Ping))

	setupLog.Info("Starting manager", "image", opts.Image, "kubernetesVersion", k8sVersion)
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

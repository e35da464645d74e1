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

package controllers

import (
	"context"
	"net"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/perfrun"
	"github.com/daprbench/daprbench/controllers/perfschedule"
	"github.com/daprbench/daprbench/controllers/perfsweep"
	"github.com/daprbench/daprbench/internal/operator/manager"
	"github.com/daprbench/daprbench/internal/operator/policy"
	"github.com/daprbench/daprbench/internal/operator/usage"
	"github.com/daprbench/daprbench/internal/operator/workload"
	// Every scenario, as the manager registers them.
	_ "github.com/daprbench/daprbench/internal/scenario/all"
	"github.com/daprbench/daprbench/internal/testenv"
)

// The suite runs the real manager against a real kube-apiserver with daprbench's and Dapr's
// CRDs. There is no kubelet and no kube-controller-manager: the specs play the kubelet's
// part (Deployment availability, the load tester's pod and its termination message) and
// assert what the controller writes.

var (
	suiteCtx    context.Context
	suiteCancel context.CancelFunc
	testEnv     *envtest.Environment
	restConfig  *rest.Config
	k8sClient   client.Client
	scheme      = runtime.NewScheme()
	fakeClock   = clocktesting.NewFakeClock(time.Now())
	stopManager func()
	// managerCache is the running manager's cache, to check what it holds.
	managerCache cache.Cache
	// runReconciler is the running manager's PerfRun reconciler, to check its memory.
	runReconciler *perfrun.Reconciler
	// metricsAddr is where the manager serves /metrics, scraped by a spec.
	metricsAddr = freeAddr()
)

const (
	testPollInterval = 200 * time.Millisecond
	testImage        = "daprbench:test"
	injectorImage    = "ghcr.io/dapr/dapr:1.14.4"
	// testKillURL is the kill route's address the manager gives a run with a PodKill.
	testKillURL = "http://daprbench-controller-manager-kill.daprbench-system.svc:9444"
)

func TestControllers(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "PerfRun controller suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	SetDefaultEventuallyTimeout(10 * time.Second)
	SetDefaultEventuallyPollingInterval(50 * time.Millisecond)
	suiteCtx, suiteCancel = context.WithCancel(context.Background())
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(perfv1alpha1.AddToScheme(scheme))

	var err error
	testEnv, err = testenv.New(true)
	Expect(err).NotTo(HaveOccurred())
	restConfig, err = testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	k8sClient, err = client.New(restConfig, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())

	installDaprControlPlane(true)
	stopManager = startManager()
})

// Every spec starts with the fake clock at real time (the API server's timestamps are
// real); specs that move it do so from there.
var _ = BeforeEach(func() { fakeClock.SetTime(time.Now()) })

var _ = AfterSuite(func() {
	if stopManager != nil {
		stopManager()
	}
	suiteCancel()
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
})

// startManager starts the operator's manager as cmd/manager wires it, and returns a
// function that stops it and waits until it has stopped.
func startManager() func() { return startManagerAs(restConfig, nil) }

// startManagerAs starts the manager with cfg's identity, given watchNamespaces
// (--watch-namespaces); tune changes the PerfRun reconciler's settings (the manager's
// flags) before it starts.
func startManagerAs(cfg *rest.Config, watchNamespaces []string, tune ...func(*perfrun.Reconciler)) func() {
	newInformer, err := manager.LenientInformers(cfg, scheme)
	Expect(err).NotTo(HaveOccurred())
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: metricsAddr},
		HealthProbeBindAddress: "0",
		Controller:             withNameValidationSkipped(manager.ControllerOptions(4)), // as the manager runs; restarted in a spec
		Cache:                  manager.CacheOptions(newInformer, watchNamespaces),
	})
	Expect(err).NotTo(HaveOccurred())
	managerCache = mgr.GetCache()
	runReconciler = &perfrun.Reconciler{
		Client:            mgr.GetClient(),
		APIReader:         mgr.GetAPIReader(),
		Recorder:          mgr.GetEventRecorder("daprbench"),
		Clock:             fakeClock,
		Workload:          workload.Options{Image: testImage, PullPolicy: "IfNotPresent", KillURL: testKillURL},
		NetworkPolicies:   true,
		PollInterval:      testPollInterval,
		ImageStartGrace:   time.Minute,
		KubernetesVersion: "v1.36.3",
		// envtest serves no metrics API: the real client meets the API server's own 404.
		Usage:           &usage.Sampler{Client: metricsclient.NewForConfigOrDie(cfg)},
		UsageInterval:   testPollInterval,
		WatchNamespaces: watchNamespaces,
		Logs:            testLogs,
		Counters:        testKubelet,
		// The one store the specs name on purpose; any other is the platform team's to allow.
		Policy: policy.Policy{AllowedStateStores: []string{"redis-actors"}, AllowNamedTopics: true},
	}
	for _, t := range tune {
		t(runReconciler)
	}
	Expect(runReconciler.SetupWithManager(mgr)).To(Succeed())
	Expect((&perfschedule.Reconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Recorder:  mgr.GetEventRecorder("daprbench-schedule"),
		Clock:     fakeClock,
	}).SetupWithManager(mgr)).To(Succeed())
	Expect((&perfsweep.Reconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Recorder:  mgr.GetEventRecorder("daprbench-sweep"),
		Clock:     fakeClock,
	}).SetupWithManager(mgr)).To(Succeed())
	ctx, cancel := context.WithCancel(suiteCtx)
	done := make(chan struct{})
	go func() {
		defer GinkgoRecover()
		defer close(done)
		Expect(mgr.Start(ctx)).To(Succeed())
	}()
	return func() {
		cancel()
		Eventually(done, 30*time.Second).Should(BeClosed())
	}
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// installDaprControlPlane creates what a Dapr install leaves in dapr-system that the
// preflight reads: the sidecar injector Deployment and the daprsystem Configuration.
func installDaprControlPlane(mtls bool) {
	ctx := suiteCtx
	Expect(client.IgnoreAlreadyExists(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "dapr-system"}}))).To(Succeed())
	injector := deploymentSkeleton("dapr-system", "dapr-sidecar-injector", map[string]string{"app": "dapr-sidecar-injector"}, injectorImage)
	Expect(client.IgnoreAlreadyExists(k8sClient.Create(ctx, injector))).To(Succeed())
	cfg := &unstructured.Unstructured{}
	cfg.SetGroupVersionKind(workload.ConfigurationGVK)
	cfg.SetNamespace("dapr-system")
	cfg.SetName("daprsystem")
	// As Dapr's chart writes it (v1.16's CRD requires the trust domain and sentry address).
	cfg.Object["spec"] = map[string]any{"mtls": map[string]any{"enabled": mtls,
		"controlPlaneTrustDomain": "cluster.local", "sentryAddress": "dapr-sentry.dapr-system.svc.cluster.local:443"}}
	Expect(client.IgnoreAlreadyExists(k8sClient.Create(ctx, cfg))).To(Succeed())
}

func withNameValidationSkipped(c config.Controller) config.Controller {
	c.SkipNameValidation = ptr.To(true)
	return c
}

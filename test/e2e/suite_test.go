//go:build e2e

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

// Package e2e runs daprbench on a real cluster: real pods, real load, the real
// metrics-server. `make test-e2e` brings up the local one-node cluster
// (hack/local-cluster), imports the image and runs this suite against it; any cluster
// reachable through KUBECONFIG with the image loaded works too.
package e2e

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/config"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

const operatorNamespace = "daprbench-system"

var (
	ctx       = context.Background()
	k8sClient client.Client
	scheme    = k8sruntime.NewScheme()
	repoRoot  string
)

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "daprbench e2e suite")
}

var _ = BeforeSuite(func() {
	SetDefaultEventuallyPollingInterval(time.Second)
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(perfv1alpha1.AddToScheme(scheme))
	_, file, _, _ := runtime.Caller(0)
	repoRoot = filepath.Join(filepath.Dir(file), "..", "..")

	cfg, err := config.GetConfig()
	Expect(err).NotTo(HaveOccurred(), "set KUBECONFIG to the cluster under test")
	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())

	By("installing the operator with its Helm chart")
	repo, tag, _ := strings.Cut(image(), ":")
	namespacePool = poolOfNamespaces(fmt.Sprintf("e2e-%x", time.Now().Unix()%0xfffff), namespacePoolSize)
	for _, name := range namespacePool { // the chart's Roles go into them
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"pod-security.kubernetes.io/enforce": "restricted"}}}
		Expect(k8sClient.Create(ctx, ns)).To(Succeed())
	}
	namespaces, _ := json.Marshal(namespacePool)
	// The chart's defaults (the namespaced mode, no kubelet API) but for the kubelet's
	// counters, which the throttling specs read. The chart installs and upgrades the CRDs
	// (crds.install); --take-ownership adopts CRDs a kept cluster has from before they were
	// the chart's (kubectl apply, or 0.1.0's crds/), the upgrade path the chart's README gives.
	run(helmBin(), "upgrade", "--install", "daprbench", filepath.Join(repoRoot, "charts", "daprbench"),
		"--namespace", operatorNamespace, "--create-namespace", "--wait", "--timeout", "3m", "--take-ownership",
		"--set", "image.repository="+repo, "--set", "image.tag="+tag, "--set", "metrics.service.enabled=true",
		"--set-json", "rbac.namespaces="+string(namespaces), "--set", "kubeletCounters=true",
		// shorter waits, so the failure specs finish fast
		"--set-json", `extraArgs=["--image-start-grace=20s","--poll-interval=2s"]`,
		// the Redis a State run deploys: make cluster-redis's image here (REDIS_IMG)
		"--set", "redisImage="+cmp.Or(os.Getenv("REDIS_IMG"), "daprbench-redis:debian"))
	run(kubectlBin(), "wait", "--for=condition=Established", "--timeout=60s", "crd/"+crdNames[0], "crd/"+crdNames[1], "crd/"+crdNames[2])
	// A cluster kept from an earlier run has the manager running an older build of the same
	// tag: restart it so the suite tests the image just imported.
	run(kubectlBin(), "-n", operatorNamespace, "rollout", "restart", "deployment/daprbench-controller-manager")
	run(kubectlBin(), "-n", operatorNamespace, "rollout", "status", "--timeout=2m", "deployment/daprbench-controller-manager")
	Eventually(managerAvailable, 2*time.Minute).Should(BeTrue(), "the manager Deployment did not become Available")
})

var _ = AfterSuite(func() {
	if k8sClient == nil {
		return
	}
	printKeptDocuments()
	By("removing the operator and the namespaces no spec took")
	run(helmBin(), "uninstall", "daprbench", "--namespace", operatorNamespace, "--wait", "--timeout", "2m")
	for _, name := range namespacePool[nextNamespace:] {
		Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}))).To(Succeed())
	}
	// helm uninstall keeps the CRDs (crds.keep): the suite removes them, and every object left.
	run(kubectlBin(), append([]string{"delete", "--ignore-not-found", "--wait=true", "--timeout=2m", "crd"}, crdNames[:]...)...)
})

// printKeptDocuments prints the manager's log line for each result document it kept this
// suite (its size and how long writing it took), so CI's log says what documents cost. The
// log is the current manager pod's; a failure to read it fails nothing.
func printKeptDocuments() {
	out, err := exec.Command(kubectlBin(), "-n", operatorNamespace, "logs", "deployment/daprbench-controller-manager").Output()
	if err != nil {
		GinkgoWriter.Printf("the manager's log: %v\n", err)
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "Kept the result document") {
			GinkgoWriter.Println(line)
		}
	}
}

// crdNames are the chart's CRDs (templates/crds).
var crdNames = [3]string{"perfruns.perf.daprbench.io", "perfschedules.perf.daprbench.io", "perfsweeps.perf.daprbench.io"}

func managerAvailable() bool {
	d := &appsv1.Deployment{}
	if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: operatorNamespace, Name: "daprbench-controller-manager"}, d); err != nil {
		return false
	}
	return d.Status.ObservedGeneration == d.Generation && d.Status.AvailableReplicas >= 1 && d.Status.UpdatedReplicas >= 1
}

func kubectlBin() string {
	if k := os.Getenv("KUBECTL"); k != "" {
		return k
	}
	return "kubectl"
}

func helmBin() string {
	if h := os.Getenv("HELM"); h != "" {
		return h
	}
	return filepath.Join(repoRoot, "bin", "helm")
}

// image is the operator's image under test (make test-e2e passes IMG).
func image() string {
	if img := os.Getenv("IMG"); img != "" {
		return img
	}
	return "daprbench:dev"
}

func run(name string, args ...string) []byte {
	return runWithInput(nil, name, args...)
}

func runWithInput(stdin []byte, name string, args ...string) []byte {
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ExpectWithOffset(2, cmd.Run()).To(Succeed(), "%s %v: %s", name, args, stderr.String())
	return stdout.Bytes()
}

// The operator is installed in the chart's namespaced mode, which runs benchmarks only in
// the namespaces named at install: the suite names them up front, one per spec.
const namespacePoolSize = 40

var (
	namespacePool []string
	nextNamespace int
)

func poolOfNamespaces(prefix string, n int) []string {
	pool := make([]string, n)
	for i := range pool {
		pool[i] = fmt.Sprintf("%s-%02d", prefix, i)
	}
	return pool
}

// newNamespace hands out the pool's next namespace (made before the install) for one spec
// and deletes it when the spec ends.
func newNamespace() string {
	Expect(nextNamespace).To(BeNumerically("<", len(namespacePool)), "the suite's namespace pool is used up: raise namespacePoolSize")
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespacePool[nextNamespace]}}
	nextNamespace++
	DeferCleanup(func() {
		Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, ns))).To(Succeed())
	})
	return ns.Name
}

func describe(run *perfv1alpha1.PerfRun) string {
	r := &perfv1alpha1.PerfRun{}
	if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(run), r); err != nil {
		return err.Error()
	}
	s := fmt.Sprintf("phase %s", r.Status.Phase)
	for _, c := range r.Status.Conditions {
		s += fmt.Sprintf("\n  %s=%s %s: %s", c.Type, c.Status, c.Reason, c.Message)
	}
	return s
}

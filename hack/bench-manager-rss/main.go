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

// Command bench-manager-rss measures the manager's resident memory against a real API server
// (envtest) with one run in progress, then beside N pods that are none of its business. With the cache limited
// to the runs' own objects (controllers.CacheOptions) the two should be about equal.
//
//	hack/bench-manager-rss.sh [-pods 2000]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/testenv"
)

func main() {
	pods := flag.Int("pods", 2000, "unrelated pods to create")
	manager := flag.String("manager", "bin/manager", "the manager binary")
	settle := flag.Duration("settle", 15*time.Second, "wait before each reading")
	flag.Parse()
	if err := run(*manager, *pods, *settle); err != nil {
		fmt.Fprintln(os.Stderr, "bench-manager-rss:", err)
		os.Exit(1)
	}
}

func run(manager string, pods int, settle time.Duration) error {
	env, err := testenv.New(true)
	if err != nil {
		return err
	}
	cfg, err := env.Start()
	if err != nil {
		return err
	}
	defer func() { _ = env.Stop() }()
	user, err := env.AddUser(envtest.User{Name: "bench", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return err
	}
	kubeconfig, err := user.KubeConfig()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "bench-manager-rss")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	kcPath := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kcPath, kubeconfig, 0o600); err != nil {
		return err
	}

	cmd := exec.Command(manager, "--metrics-bind-address=0", "--health-probe-bind-address=0")
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kcPath)
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	// One run in progress, so the manager watches what a run needs (informers start lazily:
	// without a run, no pod is ever listed and nothing is cached either way).
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(perfv1alpha1.AddToScheme(scheme))
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return err
	}
	ctx := context.Background()
	for _, ns := range []string{"bench", "unrelated"} {
		if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			return err
		}
	}
	if err := c.Create(ctx, &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: "floor"},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
			Load: perfv1alpha1.LoadSpec{QPS: 100}, Dapr: perfv1alpha1.DaprSpec{Enabled: ptr.To(false)}}}); err != nil {
		return err
	}
	time.Sleep(settle)
	idle, err := rssKiB(cmd.Process.Pid)
	if err != nil {
		return err
	}

	start := time.Now()
	for i := range pods {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "unrelated", Name: "web-" + strconv.Itoa(i),
			Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx", Args: []string{strings.Repeat("x", 512)}}}}}
		if err := c.Create(ctx, pod); err != nil {
			return err
		}
	}
	created := time.Since(start)
	time.Sleep(settle)
	beside, err := rssKiB(cmd.Process.Pid)
	if err != nil {
		return err
	}
	fmt.Printf("manager RSS, one run provisioning:     %6d KiB\n", idle)
	fmt.Printf("manager RSS beside %5d unrelated pods: %6d KiB (ratio %.2f; pods created in %v)\n",
		pods, beside, float64(beside)/float64(idle), created.Round(time.Second))
	return nil
}

// rssKiB reads a process's resident set size from /proc.
func rssKiB(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

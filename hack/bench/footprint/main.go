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

// Command footprint measures the operator's own footprint against a real API server
// (envtest), as #14 asks: the manager idle beside N unrelated pods and Deployments (its
// caches hold only the runs' own objects), then with R PerfRuns created at once — resident
// memory, CPU, the time until every run is provisioned, and the API requests per reconcile
// (from the manager's own metrics endpoint).
//
// With -largest the runs are the largest the CRDs admit (testenv.LargestRunSpec, about
// 200 KiB of JSON each): what a tenant could make the manager hold. They fail their
// preflight at once (their spec names a control plane the operator does not read) and
// stay cached; the time until every run has a phase is reported instead.
//
// With -finished N, N finished runs are created first, each with its result document
// (finished.go), the manager stopped; started beside them, it reads each document once to
// export its figures. How long that takes and its memory then are reported.
//
//	hack/bench/footprint.sh [-pods 10000] [-runs 1000] [-largest] [-finished 1000]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/testenv"
)

type options struct {
	manager    string
	pods, runs int
	settle     time.Duration
	cpuWindow  time.Duration
	provision  time.Duration
	parallel   int
	largest    bool
	finished   int
}

func main() {
	var o options
	flag.IntVar(&o.pods, "pods", 10000, "unrelated pods (and as many Deployments) to create")
	flag.IntVar(&o.runs, "runs", 1000, "PerfRuns created at once")
	flag.StringVar(&o.manager, "manager", "bin/manager", "the manager binary")
	flag.DurationVar(&o.settle, "settle", 15*time.Second, "wait before each reading")
	flag.DurationVar(&o.cpuWindow, "cpu-window", 30*time.Second, "how long idle CPU is measured")
	flag.DurationVar(&o.provision, "provision-bound", 5*time.Minute, "give up waiting for the runs to be provisioned after this")
	flag.IntVar(&o.parallel, "parallel", 32, "concurrent creates")
	flag.BoolVar(&o.largest, "largest", false, "create the largest PerfRuns the CRDs admit (they fail their preflight and stay cached)")
	flag.IntVar(&o.finished, "finished", 0, "finished PerfRuns, each with its result document, to create before the runs (0: none)")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench-footprint:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	env, err := testenv.New(false)
	if err != nil {
		return err
	}
	// envtest's default Service range is a /24: 253 ClusterIPs, fewer than the runs' Services.
	env.ControlPlane.GetAPIServer().Configure().Set("service-cluster-ip-range", "10.0.0.0/16")
	cfg, err := env.Start()
	if err != nil {
		return err
	}
	defer func() { _ = env.Stop() }()
	cfg.QPS, cfg.Burst = 2000, 4000 // the bench's own client: fill the cluster quickly
	c, err := newClient(cfg)
	if err != nil {
		return err
	}
	ctx := context.Background()
	for _, ns := range []string{"bench", "unrelated"} {
		if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			return err
		}
	}
	start := time.Now()
	if err := inParallel(o.parallel, o.pods, func(i int) error { return createUnrelated(ctx, c, i) }); err != nil {
		return err
	}
	fmt.Printf("created %d unrelated pods and %d Deployments in %v\n", o.pods, o.pods, time.Since(start).Round(time.Second))

	mgr, metricsURL, err := startManager(env, o.manager)
	if err != nil {
		return err
	}
	defer func() { _ = mgr.Process.Kill(); _ = mgr.Wait() }()

	// One run provisioning, so the manager's informers for a run's kinds have started
	// (they start lazily): idle then means "watching, nothing to do".
	if err := c.Create(ctx, perfRun("floor")); err != nil {
		return err
	}
	time.Sleep(o.settle)
	idleRSS, err := rssKiB(mgr.Process.Pid)
	if err != nil {
		return err
	}
	idleCPU, err := cpuOver(mgr.Process.Pid, o.cpuWindow)
	if err != nil {
		return err
	}
	before, err := scrapeCounters(metricsURL)
	if err != nil {
		return err
	}

	var finishedRows []string
	if o.finished > 0 {
		rows, err := finishedRuns(ctx, c, o, env, &mgr, &metricsURL)
		if err != nil {
			return err
		}
		finishedRows = rows
		// The manager was started anew: its counters with it.
		if before, err = scrapeCounters(metricsURL); err != nil {
			return err
		}
	}

	newRun, wait, reached := perfRun, waitProvisioned, "provisioned"
	if o.largest {
		newRun, wait, reached = largestRun, waitObserved, "observed (a phase in their status)"
	}
	start = time.Now()
	if err := inParallel(o.parallel, o.runs, func(i int) error { return c.Create(ctx, newRun(fmt.Sprintf("run-%d", i))) }); err != nil {
		return err
	}
	created := time.Since(start)
	provisioned, err := wait(ctx, c, o.runs+1, o.provision)
	if err != nil {
		return err
	}
	allIn := time.Since(start)
	var peak int
	for range 5 { // the peak of the next few seconds, while status writes drain
		if rss, err := rssKiB(mgr.Process.Pid); err == nil && rss > peak {
			peak = rss
		}
		time.Sleep(time.Second)
	}
	time.Sleep(o.settle)
	after, err := scrapeCounters(metricsURL)
	if err != nil {
		return err
	}
	settled, err := rssKiB(mgr.Process.Pid)
	if err != nil {
		return err
	}
	busyCPU, err := cpuOver(mgr.Process.Pid, o.cpuWindow)
	if err != nil {
		return err
	}
	requests := after.requests - before.requests
	reconciles := after.reconciles - before.reconciles

	fmt.Printf("\n| figure | goal | measured |\n|---|---|---|\n")
	fmt.Printf("| RSS idle beside %d pods and %d Deployments | ≤ 20 MiB | %.1f MiB |\n", o.pods, o.pods, mib(idleRSS))
	fmt.Printf("| CPU idle (over %v) | ≤ 0.002 vCPU | %.4f vCPU |\n", o.cpuWindow, idleCPU)
	kind := "runs"
	if o.largest {
		kind = "largest admitted runs"
	}
	fmt.Printf("| RSS with %d %s %s (peak / settled) | ≤ 80 MiB | %.1f / %.1f MiB |\n", o.runs, kind, reached, mib(peak), mib(settled))
	fmt.Printf("| time until all %d %s are %s (created in %v) | ≤ 30 s | %v (%d) |\n", o.runs, kind, reached, created.Round(time.Millisecond),
		allIn.Round(100*time.Millisecond), provisioned)
	fmt.Printf("| API requests per reconcile | — | %.2f (%.0f requests, %.0f reconciles) |\n", requests/max(reconciles, 1), requests, reconciles)
	var methods []string
	for m, n := range after.byMethod {
		if d := n - before.byMethod[m]; d > 0 {
			methods = append(methods, fmt.Sprintf("%s %.0f", m, d))
		}
	}
	sort.Strings(methods)
	fmt.Printf("| API requests by method | — | %s |\n", strings.Join(methods, ", "))
	fmt.Printf("| CPU with %d runs waiting on their targets (over %v) | — | %.4f vCPU |\n", o.runs, o.cpuWindow, busyCPU)
	for _, r := range finishedRows {
		fmt.Println(r)
	}
	return nil
}

// finishedRuns stops the manager, creates o.finished finished runs with their documents,
// and starts it again (mgr, metricsURL are replaced): a manager starting beside them reads
// every document once to export its figures. The table's rows: how long until all are
// exported, and the manager's memory then.
func finishedRuns(ctx context.Context, c client.Client, o options, env *envtest.Environment, mgr **exec.Cmd, metricsURL *string) ([]string, error) {
	_ = (*mgr).Process.Kill()
	_ = (*mgr).Wait()
	sizes := make([]int, o.finished)
	start := time.Now()
	if err := inParallel(o.parallel, o.finished, func(i int) error {
		n, err := createFinished(ctx, c, i)
		sizes[i] = n
		return err
	}); err != nil {
		return nil, err
	}
	created := time.Since(start)
	started := time.Now()
	next, url, err := startManager(env, o.manager)
	if err != nil {
		return nil, err
	}
	*mgr, *metricsURL = next, url
	if _, err := waitExported(url, o.finished, o.provision); err != nil {
		return nil, err
	}
	exported := time.Since(started)
	var peak int
	for range 5 {
		if r, err := rssKiB(next.Process.Pid); err == nil && r > peak {
			peak = r
		}
		time.Sleep(time.Second)
	}
	time.Sleep(o.settle)
	settled, err := rssKiB(next.Process.Pid)
	if err != nil {
		return nil, err
	}
	return []string{
		fmt.Sprintf("| result document of one finished run (gzipped) | — | %d bytes |", sizes[0]),
		fmt.Sprintf("| a manager started beside %d finished runs (created in %v): every document read, all exported | — | %v |",
			o.finished, created.Round(time.Second), exported.Round(100*time.Millisecond)),
		fmt.Sprintf("| RSS then (peak / settled) | ≤ 80 MiB | %.1f / %.1f MiB |", mib(peak), mib(settled)),
	}, nil
}

func newClient(cfg *rest.Config) (client.Client, error) {
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(perfv1alpha1.AddToScheme(scheme))
	return client.New(cfg, client.Options{Scheme: scheme})
}

// createUnrelated creates a pod and a Deployment that are none of the operator's business.
func createUnrelated(ctx context.Context, c client.Client, i int) error {
	labels := map[string]string{"app": "web-" + strconv.Itoa(i)}
	spec := corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx", Args: []string{strings.Repeat("x", 512)}}}}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "unrelated", Name: "web-" + strconv.Itoa(i), Labels: labels}, Spec: spec}
	if err := c.Create(ctx, pod); err != nil {
		return err
	}
	return c.Create(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "unrelated", Name: "web-" + strconv.Itoa(i)},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: spec}}})
}

// perfRun is a direct-path run: it needs no Dapr CRDs, and in envtest (no kubelet) it stays
// provisioned, waiting for its target, which is what is measured. Not exclusive: the queue
// admits exclusive runs one at a time before they create anything, and none ever ends here.
func perfRun(name string) *perfv1alpha1.PerfRun {
	return &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: name},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Exclusive: ptr.To(false),
			Load: perfv1alpha1.LoadSpec{QPS: 100}, Dapr: perfv1alpha1.DaprSpec{Enabled: ptr.To(false)}, Baseline: ptr.To(false)}}
}

// largestRun is the largest PerfRun the CRDs admit.
func largestRun(name string) *perfv1alpha1.PerfRun {
	return &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: name}, Spec: testenv.LargestRunSpec()}
}

// waitObserved waits until every run in the bench namespace has a phase: the manager has
// taken it in (the largest runs fail their preflight at once).
func waitObserved(ctx context.Context, c client.Client, want int, bound time.Duration) (int, error) {
	deadline := time.Now().Add(bound)
	for {
		var runs perfv1alpha1.PerfRunList
		if err := c.List(ctx, &runs, client.InNamespace("bench")); err != nil {
			return 0, err
		}
		seen := 0
		for _, r := range runs.Items {
			if r.Status.Phase != "" {
				seen++
			}
		}
		if seen >= want {
			return seen, nil
		}
		if time.Now().After(deadline) {
			return seen, fmt.Errorf("only %d of %d runs observed after %v", seen, want, bound)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// waitProvisioned waits until every run has its target Deployment, as the operator created it.
func waitProvisioned(ctx context.Context, c client.Client, want int, bound time.Duration) (int, error) {
	deadline := time.Now().Add(bound)
	for {
		var ds appsv1.DeploymentList
		if err := c.List(ctx, &ds, client.InNamespace("bench")); err != nil {
			return 0, err
		}
		if len(ds.Items) >= want {
			return len(ds.Items), nil
		}
		if time.Now().After(deadline) {
			return len(ds.Items), fmt.Errorf("only %d of %d runs provisioned after %v", len(ds.Items), want, bound)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func startManager(env *envtest.Environment, binary string) (*exec.Cmd, string, error) {
	user, err := env.AddUser(envtest.User{Name: "bench", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return nil, "", err
	}
	kubeconfig, err := user.KubeConfig()
	if err != nil {
		return nil, "", err
	}
	dir, err := os.MkdirTemp("", "bench-footprint")
	if err != nil {
		return nil, "", err
	}
	kcPath := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kcPath, kubeconfig, 0o600); err != nil {
		return nil, "", err
	}
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(binary, "--metrics-bind-address="+addr, "--metrics-secure=false", "--health-probe-bind-address=0")
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kcPath)
	// Its log, for when a figure does not come: the path is printed with the error.
	logFile, err := os.Create(filepath.Join(dir, "manager.log"))
	if err != nil {
		return nil, "", err
	}
	cmd.Stderr = logFile
	fmt.Fprintln(os.Stderr, "the manager's log:", logFile.Name())
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	return cmd, "http://" + addr + "/metrics", nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

type counters struct {
	requests, reconciles float64
	byMethod             map[string]float64
}

var (
	restRequests = regexp.MustCompile(`(?m)^rest_client_requests_total\{[^}]*method="([A-Z]+)"[^}]*\} ([0-9.e+]+)$`)
	reconciles   = regexp.MustCompile(`(?m)^controller_runtime_reconcile_total\{controller="perfrun",[^}]*\} ([0-9.e+]+)$`)
)

// scrapeCounters sums the manager's API requests and its PerfRun reconciles.
func scrapeCounters(url string) (counters, error) {
	var out counters
	var body []byte
	for attempt := range 20 { // the endpoint comes up with the manager
		resp, err := http.Get(url)
		if err == nil {
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		if err == nil {
			break
		}
		if attempt == 19 {
			return out, err
		}
		time.Sleep(500 * time.Millisecond)
	}
	out.byMethod = map[string]float64{}
	for _, m := range restRequests.FindAllStringSubmatch(string(body), -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		out.byMethod[m[1]] += v
		out.requests += v
	}
	for _, m := range reconciles.FindAllStringSubmatch(string(body), -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		out.reconciles += v
	}
	if out.requests == 0 {
		return out, errors.New("no rest_client_requests_total on the manager's metrics endpoint")
	}
	return out, nil
}

// inParallel calls fn(0..n-1) on workers goroutines, stopping at the first error.
func inParallel(workers, n int, fn func(int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				mu.Lock()
				failed := first != nil
				mu.Unlock()
				if failed {
					return
				}
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// cpuOver is the process's CPU use over d, in vCPUs (user + system time from /proc).
func cpuOver(pid int, d time.Duration) (float64, error) {
	a, err := cpuSeconds(pid)
	if err != nil {
		return 0, err
	}
	time.Sleep(d)
	b, err := cpuSeconds(pid)
	if err != nil {
		return 0, err
	}
	return (b - a) / d.Seconds(), nil
}

// clockTicks is USER_HZ, 100 on Linux.
const clockTicks = 100

func cpuSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	utime, err1 := strconv.ParseFloat(fields[11], 64)
	stime, err2 := strconv.ParseFloat(fields[12], 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return (utime + stime) / clockTicks, nil
}

func mib(kib int) float64 { return float64(kib) / 1024 }

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

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

package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/daprbench/daprbench/internal/contract/cliflags"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/calibrate"
)

const usageIntro = `loadtester drives a daprbench run with fortio: a warm-up, then measured runs of every
target URL, interleaved across repetitions. It writes each run's full fortio JSON to stdout
and progress to stderr, stops its Dapr sidecar at the end (on failure too), then writes its
whole report as one frame to stdout and a pointer to it (size, digest, error) to the
termination log.`

// Main is cmd/loadtester: it parses flags (and DAPRBENCH_* variables, env in os.Environ's
// form), runs the load and returns the process exit code. The report and its pointer are
// written whatever happens.
func Main(ctx context.Context, args, env []string, stdout, stderr io.Writer) int {
	inv, err := parse(args, env, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "loadtester:", err)
		writePointer(terminationLog(args, env), result.Pointer{Error: "bad flags: " + err.Error()}, stderr)
		return 2
	}
	if inv.calibrate > 0 {
		return calibrateNode(inv.calibrate, inv.termLog, stdout, stderr)
	}
	rep, err := runWithSidecar(ctx, inv.cfg, inv.sidecarURL, inv.sidecarWait)
	if err != nil {
		rep.Summary.Error = err.Error()
		fmt.Fprintln(stderr, "loadtester:", err)
	}
	// Last on stdout, after the sidecar stopped: the operator reads the log's end.
	p, werr := result.WriteFrame(stdout, rep, rep.Summary.Error)
	if werr != nil {
		fmt.Fprintln(stderr, "loadtester:", werr)
		p.Error = strings.TrimPrefix(p.Error+"; ", "; ") + werr.Error()
	}
	writePointer(inv.termLog, p, stderr)
	if err != nil || werr != nil {
		return 1
	}
	return 0
}

// invocation is what the flags and the environment ask of the load tester.
type invocation struct {
	cfg         Config
	sidecarURL  string
	sidecarWait time.Duration
	termLog     string
	calibrate   time.Duration
}

// profileSlack bounds the wait for a daprd profile past its window: daprd answers at the
// window's end, and a sidecar that does not is reported, not waited for.
const profileSlack = 30 * time.Second

// defaultTerminationLog is where Kubernetes reads a container's termination message.
const defaultTerminationLog = "/dev/termination-log"

// parse reads the flags, then the DAPRBENCH_* variables of env for those not given.
func parse(args, env []string, stdout, stderr io.Writer) (invocation, error) {
	fs := flag.NewFlagSet("loadtester", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = cliflags.UsageWithEnv(fs, usageIntro)
	var (
		inv         = invocation{cfg: Config{FortioJSON: stdout, Log: stderr}}
		cfg         = &inv.cfg
		daprURL     = fs.String(ls.DaprURL, "", "URL measured through the Dapr sidecar: http://localhost:3500/v1.0/invoke/APP/method/test ({uuid} is replaced per request) or dapr-grpc://localhost:50001/APP/test (daprd's InvokeService); a baseline or direct URL may be grpc://HOST:PORT/test (the app's OnInvoke)")
		baselineURL = fs.String(ls.BaselineURL, "", "URL of the sidecar-free twin, measured before the Dapr URL in every repetition")
		directURL   = fs.String(ls.DirectURL, "", "URL measured directly when Dapr is disabled")
		variantURLs = fs.String(ls.VariantURLs, "", "comma-separated URLs of further sidecar variants, measured after the Dapr URL (paths d1, d2, …)")
		clientOnly  = fs.String(ls.ClientOnlyURL, "", "URL through the load tester's sidecar alone, the app called as a non-Dapr endpoint: http://localhost:3500/v1.0/invoke/http://HOST:PORT/method/test (path c)")
		serverOnly  = fs.String(ls.ServerOnlyURL, "", "URL of the target's sidecar on its pod address, invoking its own app: http://POD-IP:3500/v1.0/invoke/APP/method/test (path s)")
		storePass   = fs.String(ls.StorePassword, "", "the password of the Redis the run deploys, which the baseline's client presents (set from the run's Secret as DAPRBENCH_STORE_PASSWORD; never on the command line)")
		apiToken    = fs.String(ls.DaprAPIToken, "", "the target daprd's API token, sent as dapr-api-token on the server-only path (set from the run's Secret as DAPRBENCH_DAPR_API_TOKEN; never on the command line)")
		payload     = fs.String(ls.Payload, "", "literal request body, e.g. {} (wins over --payload-bytes)")
		group       = Group{}
		profile     = ProfileCapture{Slack: profileSlack}
	)
	fs.StringVar(&inv.sidecarURL, ls.SidecarURL, "", "base URL of the load tester's own Dapr sidecar, e.g. http://localhost:3500; empty: no sidecar")
	fs.DurationVar(&inv.sidecarWait, ls.SidecarWait, 2*time.Minute, "how long to wait for the sidecar to become healthy")
	fs.StringVar(&inv.termLog, ls.TerminationLog, defaultTerminationLog, "where the pointer to the report (its size and digest, the error) is written")
	fs.DurationVar(&inv.calibrate, ls.Calibrate, 0, "instead of a load: score this node on the calibration workload for this long (each of one goroutine and GOMAXPROCS goroutines) and write the score as the termination message")
	fs.Float64Var(&cfg.QPS, ls.QPS, 0, "requested requests per second, across all connections")
	fs.IntVar(&cfg.Connections, ls.Connections, 16, "concurrent connections")
	fs.DurationVar(&cfg.Duration, ls.Duration, 60*time.Second, "duration of one measured run")
	fs.DurationVar(&cfg.Warmup, ls.Warmup, 10*time.Second, "unmeasured warm-up at qps, split over the targets")
	fs.IntVar(&cfg.Repetitions, ls.Repetitions, 1, "measured runs per target")
	fs.IntVar(&cfg.PayloadBytes, ls.PayloadBytes, 0, "size of a random request body (0: no body, a GET)")
	fs.Float64Var(&cfg.Resolution, ls.Resolution, 0.0001, "latency histogram resolution in seconds (fortio -r)")
	fs.DurationVar(&cfg.RequestTimeout, ls.RequestTimeout, 10*time.Second, "timeout of one request")
	fs.IntVar(&group.Size, ls.GroupSize, 1, "load-tester pods sharing the load (each sends qps/size over its share of the connections; pod 0 merges)")
	fs.IntVar(&group.Index, ls.GroupIndex, 0, "this pod's index in its group, from 0 (a Job's completion index)")
	fs.StringVar(&group.LeaderURL, ls.GroupLeader, "", "URL of pod 0's coordinator, e.g. http://run-loadtester-0.run-loadtester:8079")
	fs.StringVar(&group.Listen, ls.GroupListen, ":8079", "pod 0's listen address for the other pods")
	fs.StringVar(&group.Token, ls.GroupToken, "", "the secret the group's pods present to pod 0 (set from the run's Secret as DAPRBENCH_GROUP_TOKEN; never on the command line)")
	fs.DurationVar(&group.Wait, ls.GroupWait, 3*time.Minute, "how long a pod waits for the others: at each phase's start barrier, and pod 0 for their measurements")
	fs.BoolVar(&cfg.Uniform, ls.Uniform, false, "stagger the connections' requests evenly (fortio -uniform, without -jitter: latency is timed from each request's slot); default: every connection sends at the same instant (fortio's default)")
	fs.BoolVar(&cfg.FortioPacing, "fortio-pacing", false, "send when fortio's own sleep ends (Go's timer, up to ~1 ms late) instead of on the pacer's fine clock; for benchmarks of the pacer only")
	fs.StringVar(&cfg.SubscriberListen, ls.SubscriberListen, subscriberListen(), "where a pub/sub run's subscriber receives its daprd's deliveries (the daprd's app port, on loopback)")
	fs.DurationVar(&cfg.TargetWait, ls.TargetWait, time.Minute, "how long to wait for every target to answer 2xx before any load (0: do not wait)")

	fs.IntVar(&profile.Seconds, ls.ProfileSeconds, 0, "take a CPU profile of both daprd sidecars over this many seconds, centred in the first whole measured phase of the Dapr path (0: none)")
	fs.StringVar(&profile.ServerURL, ls.ProfileServerURL, "", "where the target's daprd profile is taken: its app's capture route, e.g. http://10.0.0.7:3000/daprd (or a daprd profiling server, e.g. http://10.0.0.7:7777)")
	fs.StringVar(&profile.ServerToken, ls.ProfileToken, "", "the token the target app's capture route asks for (set from the run's Secret as DAPRBENCH_PROFILE_TOKEN; never on the command line)")
	fs.StringVar(&profile.ClientURL, ls.ProfileClientURL, "http://localhost:7777", "this pod's own daprd profiling server")
	faults := fs.String(ls.Faults, "", "faults to apply in every measured phase but the baseline's, as the operator writes spec.faults (JSON; empty: none)")
	var plan FaultPlan
	fs.StringVar(&plan.AppURL, ls.FaultURL, "", "the target app's address, e.g. http://10.0.0.7:3000: it takes the fault orders and counts the invocations it saw")
	variantFaultURLs := fs.String(ls.VariantFaultURLs, "", "comma-separated addresses of the further sidecar variants' target apps (paths d1, d2, …), as --"+ls.FaultURL+" is the first's")
	fs.StringVar(&plan.Token, ls.FaultToken, "", "the token the target app's fault route asks for (set from the run's Secret as DAPRBENCH_FAULT_TOKEN; never on the command line)")
	fs.StringVar(&plan.KillURL, ls.KillURL, "", "the operator's address, e.g. http://daprbench-controller-manager-kill.daprbench-system.svc:9444: it takes a PodKill's order, with the run's token")
	fs.StringVar(&plan.Run.Namespace, ls.RunNamespace, "", "the run's namespace, for a PodKill's order")
	fs.StringVar(&plan.Run.Name, ls.RunName, "", "the run's name, for a PodKill's order")
	fs.StringVar(&cfg.DaprdMetrics.ClientURL, ls.DaprdMetricsClientURL, "", "this pod's own daprd metrics page, e.g. http://localhost:9090/metrics: its CPU counter is read at every measured run's edges (empty: not read)")
	fs.StringVar(&cfg.DaprdMetrics.ServerURL, ls.DaprdMetricsServerURL, "", "the target's daprd metrics page, e.g. http://10.0.0.7:9090/metrics (read by the group's leader only; empty: not read)")

	err := fs.Parse(args)
	if err == nil {
		err = cliflags.ApplyEnv(fs, env)
	}
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err != nil {
		return inv, err
	}
	if group.Size > 1 {
		cfg.Group = &group
	}
	if profile.Seconds > 0 {
		cfg.Profile = &profile
	}
	if plan.Faults, err = ls.DecodeFaults(*faults); err != nil {
		return inv, err
	}
	if len(plan.Faults) > 0 {
		if *variantFaultURLs != "" {
			plan.VariantAppURLs = strings.Split(*variantFaultURLs, ",")
		}
		cfg.Faults = &plan
	}
	if *payload != "" {
		cfg.Payload = []byte(*payload)
	}
	if inv.calibrate > 0 {
		return inv, nil // a node's score, no load
	}
	given := map[result.Variant]Target{result.Baseline: {URL: *baselineURL, StorePassword: *storePass}, result.ClientOnly: {URL: *clientOnly},
		result.ServerOnly: {URL: *serverOnly, DaprAPIToken: *apiToken}, result.Dapr: {URL: *daprURL}, result.Direct: {URL: *directURL, StorePassword: *storePass}}
	var more []string
	if *variantURLs != "" {
		more = strings.Split(*variantURLs, ",")
	}
	for i, u := range more {
		given[result.DaprVariant(i+1)] = Target{URL: u}
	}
	cfg.Targets, err = inPlanOrder(given, result.PathSet{Dapr: *directURL == "", Baseline: *baselineURL != "",
		FourPaths: *clientOnly != "" || *serverOnly != "", Variants: 1 + len(more)})
	return inv, err
}

// inPlanOrder lists the given paths' targets in the order the operator's plan measures
// them (result.MeasuredPaths): a path the URLs given imply but lack, or a URL no such run
// measures, is an error, not a run of other paths than the operator's.
func inPlanOrder(given map[result.Variant]Target, set result.PathSet) ([]Target, error) {
	var out []Target
	for _, v := range result.MeasuredPaths(set) {
		t := given[v]
		if t.URL == "" {
			return nil, fmt.Errorf("no URL for the %s path, which a run with the URLs given measures", v)
		}
		t.Variant = v
		out = append(out, t)
		delete(given, v)
	}
	for v, t := range given {
		if t.URL != "" {
			return nil, fmt.Errorf("a URL for the %s path, which no run with the other URLs given measures (a direct URL goes alone)", v)
		}
	}
	return out, nil
}

// calibrateNode scores the node on the calibration workload and writes the score, as JSON,
// to the termination log and stdout.
func calibrateNode(d time.Duration, termLog string, stdout, stderr io.Writer) int {
	score := calibrate.Measure(d, 0)
	b, err := json.Marshal(score)
	if err == nil {
		err = os.WriteFile(termLog, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "loadtester: writing the calibration:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

// runWithSidecar waits for the sidecar (if any), runs the load, and always stops the sidecar.
func runWithSidecar(ctx context.Context, cfg Config, sidecarURL string, wait time.Duration) (result.Report, error) {
	if sidecarURL == "" {
		return Run(ctx, cfg)
	}
	sc := &Sidecar{BaseURL: sidecarURL}
	defer func() {
		if err := sc.Shutdown(context.WithoutCancel(ctx)); err != nil {
			logf(cfg.Log, "%v", err)
			return
		}
		if hostsActors(cfg.Targets) {
			sc.WaitDown(context.WithoutCancel(ctx), actorHostGrace)
		}
	}()
	if err := cfg.Validate(); err != nil {
		return result.Report{Summary: result.Summary{RequestedQPS: cfg.QPS}}, err
	}
	logf(cfg.Log, "waiting up to %v for the dapr sidecar at %s", wait, sidecarURL)
	if err := sc.WaitReady(ctx, wait); err != nil {
		return result.Report{Summary: result.Summary{RequestedQPS: cfg.QPS}}, err
	}
	return Run(ctx, cfg)
}

// terminationLog finds the summary's path when parsing stopped early: the flag wherever it
// stands, else its environment variable, else the default.
func terminationLog(args, env []string) string {
	for _, a := range args {
		for _, prefix := range []string{"--", "-"} {
			if v, ok := strings.CutPrefix(a, prefix+ls.TerminationLog+"="); ok {
				return v
			}
		}
	}
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, ls.Env(ls.TerminationLog)+"="); ok {
			return v
		}
	}
	return defaultTerminationLog
}

func writePointer(path string, p result.Pointer, log io.Writer) {
	b, err := result.EncodePointer(p)
	if err == nil {
		err = os.WriteFile(path, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(log, "loadtester: writing the termination message to %s: %v\n", path, err)
	}
}

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

// Package loadgen drives the load of a PerfRun with fortio (as a library: its HTTP runner,
// or its periodic runner driving gRPC calls) and turns fortio's results into the summary of
// package result.
package loadgen

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// Target is one measured path.
type Target struct {
	Variant result.Variant
	URL     string
	// DaprAPIToken is sent as dapr-api-token: the server-only path calls a daprd that asks
	// for one (dapr.io/api-token-secret).
	DaprAPIToken string
	// StorePassword is presented to the Redis a baseline path calls (the run's token, as the
	// store the run deploys asks for it); empty: none.
	StorePassword string
}

// endpoint is t's URL read, with what t presents to it.
func (t Target) endpoint() (endpoint, error) {
	ep, err := parseEndpoint(t.URL)
	ep.password = t.StorePassword
	return ep, err
}

// Config is everything one load-tester run needs.
type Config struct {
	// Targets are measured in this order within every repetition (baseline first, so the
	// runs interleave B D B D ... across repetitions and drift hits both alike).
	Targets     []Target
	QPS         float64
	Connections int
	Duration    time.Duration
	// Warmup is spent at QPS, split evenly over the targets, before measuring: a path warmed
	// at a lower rate meets the measured rate's connection pools, heap and queues cold.
	Warmup      time.Duration
	Repetitions int
	// PayloadBytes of random data, or Payload as a literal body (Payload wins when set).
	PayloadBytes int
	Payload      []byte
	// Resolution of fortio's latency histogram, in seconds.
	Resolution     float64
	RequestTimeout time.Duration
	// TargetWait bounds the wait for every target to answer 2xx before any load: a Service's
	// routing (or Dapr's name resolution) can lag behind its pods being Ready.
	TargetWait time.Duration
	// FortioJSON receives the full fortio result of every run, one JSON document per line.
	FortioJSON io.Writer
	// Log receives progress (fortio's text report included).
	Log io.Writer
	// Uniform staggers the connections' requests evenly over each one's period (fortio's
	// -uniform, as Istio's benchmark runs it, but without its -jitter: latency is timed from
	// each request's slot, and a jittered send has none). Without it every connection sends
	// at the same instant (fortio's default, as Dapr's suite runs it): bursts of one request
	// per connection.
	Uniform bool
	// FortioPacing sends each request when fortio's own sleep ends (Go's timer, up to ~1 ms
	// late) instead of holding it to its slot on a fine clock (latency.Pacer): only to
	// measure what the pacer changes (hack/bench/pacing.sh).
	FortioPacing bool
	// Group splits the load over several pods; nil: this pod sends all of it.
	Group *Group
	// Profile takes a CPU profile of both daprd sidecars during the Dapr path; nil: none.
	Profile *ProfileCapture
	// Faults are applied in every measured phase but the baseline's; nil: none.
	Faults *FaultPlan
	// DaprdMetrics are read at every measured run's edges for the daprds' own CPU.
	DaprdMetrics DaprdMetrics
	// SubscriberListen is where a PubSub run's subscriber receives its daprd's deliveries
	// (empty: loadsettings.SubscriberPort).
	SubscriberListen string

	// app is the run's app server: deliveries, triggers and workflow completions (set by Run;
	// nil when no path needs one).
	app *appServer
}

// Validate checks a Config before any load is sent.
func (c *Config) Validate() error {
	var errs []error
	if len(c.Targets) == 0 {
		errs = append(errs, errors.New("no target URL: set --dapr-url (with --baseline-url, the one-sidecar URLs and --variant-urls as the run measures) or --direct-url alone"))
	}
	for _, t := range c.Targets {
		if ep, err := parseEndpoint(t.URL); err != nil {
			errs = append(errs, fmt.Errorf("%s target: %w", t.Variant, err))
		} else if t.DaprAPIToken != "" && ep.kind != viaHTTP {
			errs = append(errs, fmt.Errorf("%s target: a dapr api token is sent over HTTP only, not to %s", t.Variant, t.URL))
		}
	}
	if c.QPS <= 0 {
		errs = append(errs, fmt.Errorf("--qps must be > 0, got %v", c.QPS))
	}
	if c.Connections < 1 {
		errs = append(errs, fmt.Errorf("--connections must be >= 1, got %d", c.Connections))
	}
	if c.Duration <= 0 {
		errs = append(errs, fmt.Errorf("--duration must be > 0, got %v", c.Duration))
	}
	if c.Warmup < 0 {
		errs = append(errs, fmt.Errorf("--warmup must be >= 0, got %v", c.Warmup))
	}
	if c.Repetitions < 1 {
		errs = append(errs, fmt.Errorf("--repetitions must be >= 1, got %d", c.Repetitions))
	}
	if c.PayloadBytes < 0 {
		errs = append(errs, fmt.Errorf("--payload-bytes must be >= 0, got %d", c.PayloadBytes))
	}
	if c.Resolution <= 0 {
		errs = append(errs, fmt.Errorf("--resolution must be > 0, got %v", c.Resolution))
	}
	if c.Group != nil {
		if err := c.Group.Validate(); err != nil {
			errs = append(errs, err)
		} else if c.Connections < c.Group.Size {
			errs = append(errs, fmt.Errorf("--connections (%d) must be at least the group's size (%d): every pod needs one", c.Connections, c.Group.Size))
		}
	}
	for _, t := range c.Targets {
		if ep, err := parseEndpoint(t.URL); err == nil && ep.isPubSub() && c.Group != nil {
			errs = append(errs, errors.New("a pub/sub path is measured by one load-tester pod: its subscriber times what it published itself"))
			break
		}
	}
	if p := c.Profile; p != nil {
		if p.Seconds < 1 {
			errs = append(errs, fmt.Errorf("--profile-seconds must be >= 1 to profile, got %d", p.Seconds))
		}
		for name, u := range map[string]string{"--profile-server-url": p.ServerURL, "--profile-client-url": p.ClientURL} {
			if parsed, err := url.Parse(u); u != "" && (err != nil || parsed.Scheme != "http" || parsed.Host == "") {
				errs = append(errs, fmt.Errorf("%s must be an http://HOST:PORT URL to profile, got %q", name, u))
			}
		}
	}
	if f := c.Faults; f != nil {
		if f.needsApp() {
			errs = append(errs, faultAppErrors(c.Targets, f)...)
		}
		if f.Token == "" {
			errs = append(errs, fmt.Errorf("--%s is required to apply faults", loadsettings.FaultToken))
		}
		// What admission holds a fault run to, held here exactly: a fault is timed in a whole,
		// paced phase, and ends within it; of one load tester, but for a kill of a load
		// tester, which needs a group to kill one of. Admission, which cannot count the
		// paths, also refuses an odd count of one path's repetitions, never split.
		if loadsettings.Splits(len(c.Targets), c.Repetitions, c.Duration) || c.FortioPacing {
			errs = append(errs, errors.New("faults need phases that are not split in two (an even --repetitions, one shorter than a minute, or one path) and the pacer (not --fortio-pacing)"))
		}
		if killsTester := f.killsLoadTester(); killsTester != (c.Group != nil) {
			errs = append(errs, errors.New("a PodKill of a LoadTester needs a group of load-tester pods (--group-size 2 or more), and every other fault one load-tester pod"))
		}
		for i, fault := range f.Faults {
			if fault.At+fault.For > c.Duration {
				errs = append(errs, fmt.Errorf("fault %d ends at %v, after the %v phase it is timed in", i, fault.At+fault.For, c.Duration))
			}
		}
		if f.kills() {
			if parsed, err := url.Parse(f.KillURL); err != nil || parsed.Scheme != "http" || parsed.Host == "" {
				errs = append(errs, fmt.Errorf("--%s must be the operator's http://HOST:PORT to kill a pod, got %q", loadsettings.KillURL, f.KillURL))
			}
			if f.Run.Namespace == "" || f.Run.Name == "" {
				errs = append(errs, fmt.Errorf("--%s and --%s are required to kill a pod", loadsettings.RunNamespace, loadsettings.RunName))
			}
		}
	}
	for name, u := range map[string]string{"--daprd-metrics-client-url": c.DaprdMetrics.ClientURL, "--daprd-metrics-server-url": c.DaprdMetrics.ServerURL} {
		if parsed, err := url.Parse(u); u != "" && (err != nil || parsed.Scheme != "http" || parsed.Host == "") {
			errs = append(errs, fmt.Errorf("%s must be an http://HOST:PORT/metrics URL, got %q", name, u))
		}
	}
	return errors.Join(errs...)
}

// faultAppErrors says which measured Dapr path of targets has no target app to apply
// faults through: the first variant's is --fault-url, the others' --variant-fault-urls.
func faultAppErrors(targets []Target, f *FaultPlan) []error {
	var errs []error
	if parsed, err := url.Parse(f.AppURL); err != nil || parsed.Scheme != "http" || parsed.Host == "" {
		errs = append(errs, fmt.Errorf("--%s must be the target app's http://HOST:PORT to apply faults, got %q", loadsettings.FaultURL, f.AppURL))
	}
	for i, u := range f.VariantAppURLs {
		if parsed, err := url.Parse(u); err != nil || parsed.Scheme != "http" || parsed.Host == "" {
			errs = append(errs, fmt.Errorf("--%s: variant d%d's target app must be at http://HOST:PORT to apply faults, got %q", loadsettings.VariantFaultURLs, i+1, u))
		}
	}
	further := 0
	for _, t := range targets {
		if t.Variant == result.Dapr || t.Variant == result.Baseline || t.Variant == result.Direct {
			continue
		}
		further++
		if f.declaredURL(t.Variant) == "" {
			errs = append(errs, fmt.Errorf("--%s names no target app for variant %s: its faults would reach no app", loadsettings.VariantFaultURLs, t.Variant))
		}
	}
	if len(f.VariantAppURLs) > further {
		errs = append(errs, fmt.Errorf("--%s names %d target apps for %d further variants: one a variant, in order", loadsettings.VariantFaultURLs, len(f.VariantAppURLs), further))
	}
	return errs
}

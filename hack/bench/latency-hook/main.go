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

// Command bench-latency-hook measures what recording every request's latency into an HDR
// histogram (fortio's per-request hook, internal/pods/latency) costs the load tester: fortio's
// HTTP runner as a library against perfapp on loopback, without the hook (A) and with it (B),
// alternating A B B A so drift hits both alike. It reports the client's CPU per request and
// the highest rate each reaches, as B/A ratios.
//
//	hack/bench/latency-hook.sh [--duration 5s] [--pairs 6]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"syscall"
	"time"

	"fortio.org/fortio/fhttp"
	"fortio.org/fortio/fnet"
	"fortio.org/fortio/periodic"

	"github.com/daprbench/daprbench/hack/bench/benchkit"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

type sample struct {
	qps, cpuUsPerReq float64
}

func main() {
	perfapp := flag.String("perfapp", "bin/perfapp", "perfapp binary (served on CPU 0)")
	conns := flag.Int("connections", 8, "connections")
	dur := flag.Duration("duration", 5*time.Second, "duration of one run")
	pairs := flag.Int("pairs", 6, "A B pairs")
	flag.Parse()

	url, stop := benchkit.StartPerfapp(*perfapp, "0")
	defer stop()
	body := fnet.GenerateRandomPayload(1024)

	var a, b []sample
	for i := range *pairs {
		// A B, then B A: whatever drifts with position in a pair hits both alike.
		if i%2 == 0 {
			a = append(a, run(url, body, *conns, *dur, false))
			b = append(b, run(url, body, *conns, *dur, true))
		} else {
			b = append(b, run(url, body, *conns, *dur, true))
			a = append(a, run(url, body, *conns, *dur, false))
		}
		fmt.Fprintf(os.Stderr, "pair %d: fortio alone %+v | with the hook %+v\n", i+1, a[i], b[i])
	}
	ma, mb := mean(a), mean(b)
	var ratios []float64
	for i := range a {
		ratios = append(ratios, b[i].cpuUsPerReq/a[i].cpuUsPerReq)
	}
	slices.Sort(ratios)
	fmt.Printf("\nmax rate, 1 KiB, %d connections, %v per run, %d A/B pairs (A = fortio alone, B = with the HDR hook)\n", *conns, *dur, *pairs)
	fmt.Printf("%-26s %12s %12s %8s\n", "figure", "A", "B", "B/A")
	fmt.Printf("%-26s %12.2f %12.2f %8.4f\n", "client CPU µs / request", ma.cpuUsPerReq, mb.cpuUsPerReq, mb.cpuUsPerReq/ma.cpuUsPerReq)
	fmt.Printf("%-26s %12.0f %12.0f %8.4f\n", "achieved qps", ma.qps, mb.qps, mb.qps/ma.qps)
	fmt.Printf("CPU per request B/A per pair, sorted: %.4f (median %.4f)\n", ratios, ratios[len(ratios)/2])
	fmt.Printf("the hook alone (go test -bench Recorder ./internal/pods/latency): ~13 ns per request\n")
}

// run drives url as fast as it answers and returns the rate and this process's CPU per request.
func run(url string, body []byte, conns int, d time.Duration, hook bool) sample {
	opts := fhttp.HTTPRunnerOptions{RunnerOptions: periodic.RunnerOptions{
		QPS: -1, Duration: d, NumThreads: conns, Percentiles: []float64{50, 90, 99}, Resolution: 0.0001, Out: io.Discard,
	}}
	opts.HTTPOptions.Init(url)
	opts.Payload = body
	var rec *latency.Recorder
	if hook {
		rec = latency.NewRecorder(conns)
		opts.AccessLogger = rec
	}
	before := cpuSeconds()
	res, err := fhttp.RunHTTPTest(&opts)
	benchkit.Must(err)
	cpu := cpuSeconds() - before
	n := res.DurationHistogram.Count
	if hook {
		// The unpaced run has no schedule: Finish records service times only.
		if got := rec.Finish(latency.Schedule{}, time.Time{}).Latency.TotalCount(); got != n {
			benchkit.Must(fmt.Errorf("the hook recorded %d of %d requests", got, n))
		}
	}
	return sample{qps: res.ActualQPS, cpuUsPerReq: cpu / float64(n) * 1e6}
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	benchkit.Must(syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return benchkit.Seconds(&ru)
}

func mean(s []sample) sample {
	var m sample
	for _, x := range s {
		m.qps += x.qps / float64(len(s))
		m.cpuUsPerReq += x.cpuUsPerReq / float64(len(s))
	}
	return m
}

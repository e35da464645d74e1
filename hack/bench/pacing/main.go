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

// Command pacing measures what the load tester's pacer changes: runs of the load tester
// with its pacer (requests held to their slots on a timerfd) and with fortio's own sleeps
// (--fortio-pacing), alternated A B A B against one perfapp on loopback so drift hits both
// alike. It reports, per mode, the tester's own lateness p50/p99 (behind max(slot, previous
// completion)), latency and service time p50/p99, and the load tester's CPU-seconds per
// 1000 requests, then each as a ratio pacer / fortio.
//
//	go run ./hack/bench/pacing --loadtester bin/loadtester --perfapp bin/perfapp
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/daprbench/daprbench/hack/bench/benchkit"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// sample is one run's figures, in µs (cpuPer1k in CPU-seconds per 1000 requests).
type sample struct {
	lateP50, lateP99, latP50, latP99, svcP50, svcP99, cpuPer1k float64
}

func main() {
	loadtester := flag.String("loadtester", "bin/loadtester", "daprbench load tester binary")
	perfapp := flag.String("perfapp", "bin/perfapp", "perfapp binary")
	qps := flag.Int("qps", 1000, "requested qps")
	conns := flag.Int("connections", 16, "connections")
	dur := flag.Duration("duration", 20*time.Second, "duration of one run")
	pairs := flag.Int("pairs", 3, "A B pairs")
	uniform := flag.Bool("uniform", false, "stagger the connections' sends (the load tester's --uniform); default: every connection at once, as Dapr's suite sends")
	flag.Parse()

	url, stop := benchkit.StartPerfapp(*perfapp, "1")
	defer stop()
	dir, err := os.MkdirTemp("", "bench-pacing")
	benchkit.Must(err)
	defer os.RemoveAll(dir)

	var paced, fortio []sample
	for i := range *pairs {
		// Alternate which goes first, so neither always runs on a warmer machine.
		first, second := false, true
		if i%2 == 1 {
			first, second = true, false
		}
		for _, fortioPacing := range []bool{first, second} {
			s := run(*loadtester, url, dir, *qps, *conns, *dur, *uniform, fortioPacing)
			if fortioPacing {
				fortio = append(fortio, s)
			} else {
				paced = append(paced, s)
			}
			fmt.Fprintf(os.Stderr, "pair %d, fortio pacing %v: %+v\n", i+1, fortioPacing, s)
		}
	}
	a, b := mean(paced), mean(fortio)
	fmt.Printf("\n%d rps, 1 KiB, %d connections (uniform %v), %v per run, %d A/B pairs (A = pacer, B = fortio's sleeps); means over the runs\n",
		*qps, *conns, *uniform, *dur, *pairs)
	fmt.Printf("%-32s %10s %10s %8s\n", "figure", "pacer", "fortio", "A/B")
	row := func(name string, x, y float64) { fmt.Printf("%-32s %10.1f %10.1f %8.3f\n", name, x, y, x/y) }
	row("tester lateness p50 (µs)", a.lateP50, b.lateP50)
	row("tester lateness p99 (µs)", a.lateP99, b.lateP99)
	row("latency p50 (µs)", a.latP50, b.latP50)
	row("latency p99 (µs)", a.latP99, b.latP99)
	row("service time p50 (µs)", a.svcP50, b.svcP50)
	row("service time p99 (µs)", a.svcP99, b.svcP99)
	// The process's whole CPU (start-up and the 2 s warm-up included) per measured request.
	fmt.Printf("%-32s %10.4f %10.4f %8.3f\n", "CPU-seconds / 1000 requests", a.cpuPer1k, b.cpuPer1k, a.cpuPer1k/b.cpuPer1k)
	fmt.Printf("range over runs, tester lateness p99 (µs): pacer %.0f–%.0f, fortio %.0f–%.0f\n",
		lo(paced, func(s sample) float64 { return s.lateP99 }), hi(paced, func(s sample) float64 { return s.lateP99 }),
		lo(fortio, func(s sample) float64 { return s.lateP99 }), hi(fortio, func(s sample) float64 { return s.lateP99 }))
}

func run(bin, url, dir string, qps, conns int, d time.Duration, uniform, fortioPacing bool) sample {
	term := filepath.Join(dir, "summary.json")
	args := []string{"--qps=" + strconv.Itoa(qps), "--connections=" + strconv.Itoa(conns), "--duration=" + d.String(), "--warmup=2s",
		"--payload-bytes=1024", "--direct-url=" + url, "--termination-log=" + term, "--fortio-pacing=" + strconv.FormatBool(fortioPacing), "--uniform=" + strconv.FormatBool(uniform)}
	cmd := exec.Command(bin, args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	benchkit.Must(cmd.Run())
	cpu := benchkit.Seconds(cmd.ProcessState.SysUsage().(*syscall.Rusage))
	s := benchkit.Summary(term, stdout.Bytes())
	m, ok := s.MergedOf(result.Direct)
	if !ok {
		benchkit.Must(fmt.Errorf("no direct path in the summary"))
	}
	at := func(sp result.Spectrum, p float64) float64 {
		d, _ := sp.At(p)
		return float64(d.Microseconds())
	}
	lat := func(p float64) float64 { d, _ := m.Latency(p); return float64(d.Microseconds()) }
	return sample{lateP50: at(m.TesterLag, 50), lateP99: at(m.TesterLag, 99), latP50: lat(50), latP99: lat(99),
		svcP50: at(m.Service, 50), svcP99: at(m.Service, 99), cpuPer1k: cpu / float64(s.Runs[0].Requests) * 1000}
}

func mean(s []sample) sample {
	var m sample
	n := float64(len(s))
	for _, x := range s {
		m.lateP50 += x.lateP50 / n
		m.lateP99 += x.lateP99 / n
		m.latP50 += x.latP50 / n
		m.latP99 += x.latP99 / n
		m.svcP50 += x.svcP50 / n
		m.svcP99 += x.svcP99 / n
		m.cpuPer1k += x.cpuPer1k / n
	}
	return m
}

func lo(s []sample, f func(sample) float64) float64 {
	v := f(s[0])
	for _, x := range s {
		v = min(v, f(x))
	}
	return v
}

func hi(s []sample, f func(sample) float64) float64 {
	v := f(s[0])
	for _, x := range s {
		v = max(v, f(x))
	}
	return v
}

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

// Command loadtester compares daprbench's load tester with the fortio CLI of the
// same fortio version, against the same perfapp on loopback, alternating A B A B so drift
// hits both alike. It reports achieved qps, CPU-seconds per 1000 requests and p50/p99 as
// ratios (loadtester / fortio), then the highest qps each sustains on one core.
//
//	go run ./hack/bench/loadtester --loadtester bin/loadtester --fortio bin/fortio --perfapp bin/perfapp
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/daprbench/daprbench/hack/bench/benchkit"
)

type sample struct {
	qps, cpuPer1k, p50, p99 float64 // p50/p99 in ms
	requests                int64
}

func main() {
	loadtester := flag.String("loadtester", "bin/loadtester", "daprbench load tester binary")
	fortio := flag.String("fortio", "bin/fortio", "fortio CLI binary (same version as the library)")
	perfapp := flag.String("perfapp", "bin/perfapp", "perfapp binary")
	qps := flag.Int("qps", 1000, "requested qps")
	conns := flag.Int("connections", 16, "connections")
	dur := flag.Duration("duration", 30*time.Second, "duration of one run")
	pairs := flag.Int("pairs", 2, "A B pairs")
	maxDur := flag.Duration("max-duration", 10*time.Second, "duration of the one-core max-qps runs (0: skip)")
	flag.Parse()

	url, stop := benchkit.StartPerfapp(*perfapp, "0")
	defer stop()
	dir, _ := os.MkdirTemp("", "bench")
	defer os.RemoveAll(dir)

	var a, b []sample
	for i := range *pairs {
		a = append(a, runLoadtester(*loadtester, url, dir, *qps, *conns, *dur, ""))
		b = append(b, runFortio(*fortio, url, dir, *qps, *conns, *dur, ""))
		fmt.Fprintf(os.Stderr, "pair %d: loadtester %+v | fortio %+v\n", i+1, a[i], b[i])
	}
	ma, mb := mean(a), mean(b)
	fmt.Printf("\n%d rps, 1 KiB, %d connections, %v per run, %d A/B pairs (A = loadtester, B = fortio CLI)\n", *qps, *conns, *dur, *pairs)
	fmt.Printf("%-26s %12s %12s %8s\n", "figure", "loadtester", "fortio", "A/B")
	row := func(name string, x, y float64) { fmt.Printf("%-26s %12.4f %12.4f %8.4f\n", name, x, y, x/y) }
	row("achieved qps", ma.qps, mb.qps)
	row("CPU-seconds / 1000 req", ma.cpuPer1k, mb.cpuPer1k)
	row("p50 (ms)", ma.p50, mb.p50)
	row("p99 (ms)", ma.p99, mb.p99)
	if *maxDur > 0 {
		// One core for the load generator (GOMAXPROCS=1, pinned), the other for perfapp.
		mxA := runLoadtester(*loadtester, url, dir, 0, *conns, *maxDur, "1")
		mxB := runFortio(*fortio, url, dir, 0, *conns, *maxDur, "1")
		fmt.Printf("%-26s %12.0f %12.0f %8.4f\n", "max qps on one core", mxA.qps, mxB.qps, mxA.qps/mxB.qps)
	}
}

func runLoadtester(bin, url, dir string, qps, conns int, d time.Duration, pin string) sample {
	term := filepath.Join(dir, "summary.json")
	q := strconv.Itoa(qps)
	if qps == 0 {
		q = "100000" // the API's maximum: as fast as it goes
	}
	args := []string{"--qps=" + q, "--connections=" + strconv.Itoa(conns), "--duration=" + d.String(), "--warmup=0s",
		"--payload-bytes=1024", "--resolution=0.001", "--direct-url=" + url, "--termination-log=" + term}
	cpu, stdout := runTimed(bin, args, pin)
	r := benchkit.Summary(term, stdout).Runs[0]
	p50, _ := r.Latency(50)
	p99, _ := r.Latency(99)
	return sample{qps: r.ActualQPS, requests: r.Requests, cpuPer1k: cpu / float64(r.Requests) * 1000,
		p50: p50.Seconds() * 1000, p99: p99.Seconds() * 1000}
}

func runFortio(bin, url, dir string, qps, conns int, d time.Duration, pin string) sample {
	out := filepath.Join(dir, "fortio.json")
	q := strconv.Itoa(qps)
	if qps == 0 {
		q = "-1"
	}
	args := []string{"load", "-qps", q, "-c", strconv.Itoa(conns), "-t", d.String(), "-payload-size", "1024",
		"-r", "0.001", "-p", "50,75,90,99,99.9", "-json", out, "-quiet", url}
	cpu, _ := runTimed(bin, args, pin)
	b, err := os.ReadFile(out)
	benchkit.Must(err)
	var res struct {
		ActualQPS         float64
		DurationHistogram struct {
			Count       int64
			Percentiles []struct{ Percentile, Value float64 }
		}
	}
	benchkit.Must(json.Unmarshal(b, &res))
	s := sample{qps: res.ActualQPS, requests: res.DurationHistogram.Count, cpuPer1k: cpu / float64(res.DurationHistogram.Count) * 1000}
	for _, p := range res.DurationHistogram.Percentiles {
		switch p.Percentile {
		case 50:
			s.p50 = p.Value * 1000
		case 99:
			s.p99 = p.Value * 1000
		}
	}
	return s
}

// runTimed runs bin and returns the CPU seconds (user + system) it used.
func runTimed(bin string, args []string, pin string) (cpuSeconds float64, stdout []byte) {
	cmd := exec.Command(bin, args...)
	if pin != "" {
		cmd = exec.Command("taskset", append([]string{"-c", pin, bin}, args...)...)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, nil
	benchkit.Must(cmd.Run())
	return benchkit.Seconds(cmd.ProcessState.SysUsage().(*syscall.Rusage)), out.Bytes()
}

func mean(s []sample) sample {
	var m sample
	for _, x := range s {
		m.qps += x.qps / float64(len(s))
		m.cpuPer1k += x.cpuPer1k / float64(len(s))
		m.p50 += x.p50 / float64(len(s))
		m.p99 += x.p99 / float64(len(s))
	}
	return m
}

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

// Package benchkit is what the benchmarks under hack/ share: perfapp pinned to a CPU on
// loopback, CPU time from rusage, the load tester's report, and failing loudly.
package benchkit

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// StartPerfapp serves bin on a free loopback port pinned to cpu (taskset) and returns the
// URL of its /test endpoint and a stop function.
func StartPerfapp(bin, cpu string) (url string, stop func()) {
	addr := freeAddr()
	app := exec.Command("taskset", "-c", cpu, bin, "--listen="+addr)
	app.Stderr = os.Stderr
	Must(app.Start())
	waitListening(addr)
	return "http://" + addr + "/test", func() { _ = app.Process.Signal(syscall.SIGTERM); _ = app.Wait() }
}

// Summary reads a load tester's report as the operator does: its termination message
// (termLog) points to a frame of its stdout.
func Summary(termLog string, stdout []byte) result.Summary {
	b, err := os.ReadFile(termLog)
	Must(err)
	p, err := result.DecodePointer(b)
	Must(err)
	if p.Frame == nil {
		Must(fmt.Errorf("the load tester wrote no report: %s", p.Error))
	}
	rep, err := result.ReadFrame(stdout, *p.Frame)
	Must(err)
	return rep.Summary
}

// Seconds is the user plus system CPU time of a rusage.
func Seconds(ru *syscall.Rusage) float64 {
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// Must ends the benchmark on an error, naming it.
func Must(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(os.Args[0]), err)
		os.Exit(1)
	}
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Must(err)
	defer l.Close()
	return l.Addr().String()
}

func waitListening(addr string) {
	for range 100 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	Must(fmt.Errorf("perfapp did not listen on %s", addr))
}

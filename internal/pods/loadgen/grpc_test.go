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
	"strings"
	"testing"

	commonv1 "github.com/dapr/dapr/pkg/proto/common/v1"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// Real gRPC over loopback: fortio's periodic runner drives InvokeService calls into the
// Dapr stand-in and OnInvoke calls straight into perfapp's gRPC server.
func TestGRPCInvocationInterleavedAgainstPerfapp(t *testing.T) {
	t.Parallel()
	app, appAddr := startGRPCPerfapp(t)
	dapr, daprAddr := startGRPCDapr(t, "target", appAddr)

	r := runCLI(t, "--qps=300", "--connections=4", "--duration=2s", "--warmup=400ms", "--repetitions=2",
		"--payload-bytes=1024", "--baseline-url=grpc://"+appAddr+"/test",
		"--dapr-url=dapr-grpc://"+daprAddr+"/target/test", "--target-wait=5s")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	s := r.summary
	var order []string
	for _, run := range s.Runs {
		order = append(order, run.Variant.String())
		if run.ActualQPS < 0.95*300 || run.ActualQPS > 1.05*300 {
			t.Errorf("%s rep %d: actual qps %.1f, want ~300", run.Variant, run.Rep, run.ActualQPS)
		}
		if run.Errors != 0 || run.Codes["200"] != run.Requests || run.Requests < 500 {
			t.Errorf("%s rep %d: requests %d, codes %v", run.Variant, run.Rep, run.Requests, run.Codes)
		}
	}
	if got := strings.Join(order, " "); got != "baseline dapr dapr baseline" {
		t.Errorf("run order = %q, want baseline and dapr interleaved A B B A", got)
	}
	if s.Added == nil {
		t.Error("no added latency for a gRPC run with a baseline")
	}
	// Exact latencies agree with fortio's own sums, as on the HTTP path.
	checkExactLatencies(t, s, fortioLines(r.stdout)[2:])
	if got := app.Stats.Invocations.Load(); got < 4*500 {
		t.Errorf("app served %d invocations over gRPC", got)
	}
	// What the load tester sent daprd: the app id, the method and the body, as a POST for
	// an HTTP app.
	dapr.mu.Lock()
	defer dapr.mu.Unlock()
	req := dapr.seen[0]
	if req.GetId() != "target" || req.GetMessage().GetMethod() != "test" || len(req.GetMessage().GetData().GetValue()) != 1024 ||
		req.GetMessage().GetHttpExtension().GetVerb() != commonv1.HTTPExtension_POST {
		t.Errorf("InvokeService request = %v", req)
	}
}

// Errors are counted as the HTTP path counts them: the gRPC status becomes the HTTP status
// an HTTP caller would have seen, a connection failure -1 (fortio's socket error).
func TestGRPCErrorsMapToHTTPStatuses(t *testing.T) {
	t.Parallel()
	_, appAddr := startGRPCPerfapp(t)
	_, daprAddr := startGRPCDapr(t, "target", appAddr)
	for name, tc := range map[string]struct {
		url  string
		code string
	}{
		"unknown app id":      {"dapr-grpc://" + daprAddr + "/nobody/test", "404"},
		"method not served":   {"grpc://" + appAddr + "/nothing", "404"},
		"nothing listening":   {"grpc://127.0.0.1:1/test", "-1"},
		"unknown app, direct": {"dapr-grpc://" + appAddr + "/target/test", "501"}, // the app is not daprd: Unimplemented
	} {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, "--qps=50", "--connections=1", "--duration=1s", "--warmup=0s", "--target-wait=0s",
				"--direct-url="+tc.url, "--request-timeout=2s")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.summary.Error)
			}
			run := r.summary.Runs[0]
			if run.Variant != result.Direct || run.Errors == 0 || run.Errors != run.Requests || run.Codes[tc.code] != run.Requests {
				t.Errorf("errors %d of %d requests, codes %v; want every request counted as %s", run.Errors, run.Requests, run.Codes, tc.code)
			}
		})
	}
}

func TestTargetURLsAreCheckedBeforeAnyLoad(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"grpc://host/test", "dapr-grpc://host:50001/only-app", "ftp://x:1/y", "grpc://h:1/"} {
		r := runCLI(t, "--qps=10", "--direct-url="+bad)
		if r.code == 0 || !strings.Contains(r.summary.Error, "want http(s)://") {
			t.Errorf("%s: exit %d, error %q; want a refusal naming the accepted forms", bad, r.code, r.summary.Error)
		}
	}
}

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
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fortio.org/fortio/periodic"
	"github.com/dapr/durabletask-go/api/protos"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// workflowStandIn is a TEST-ONLY stand-in for daprd's workflow gRPC service (durabletask's
// TaskHubSidecarService), as the SDK's worker and client call it: it accepts the worker's
// stream (and sends no work), starts instances and ends each one `took` after its start —
// failed when fail says so, never when stuck does — with output as its output. It runs no
// workflow: the e2e runs the SDK's workflows on real Dapr.
type workflowStandIn struct {
	protos.UnimplementedTaskHubSidecarServiceServer
	took         time.Duration
	output       string
	fail, stuck  func(n int64) bool
	mu           sync.Mutex
	started      map[string]time.Time
	number       map[string]int64
	count        atomic.Int64
	inputs       atomic.Value // the last start's input
	workerStream atomic.Bool
}

func newWorkflowStandIn(took time.Duration) *workflowStandIn {
	never := func(int64) bool { return false }
	return &workflowStandIn{took: took, fail: never, stuck: never, started: map[string]time.Time{}, number: map[string]int64{}}
}

func (s *workflowStandIn) Hello(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func (s *workflowStandIn) GetWorkItems(_ *protos.GetWorkItemsRequest, stream protos.TaskHubSidecarService_GetWorkItemsServer) error {
	s.workerStream.Store(true)
	<-stream.Context().Done()
	return nil
}

func (s *workflowStandIn) StartInstance(_ context.Context, req *protos.CreateInstanceRequest) (*protos.CreateInstanceResponse, error) {
	s.mu.Lock()
	s.started[req.InstanceId] = time.Now()
	s.number[req.InstanceId] = s.count.Add(1)
	s.mu.Unlock()
	s.inputs.Store(req.GetInput().GetValue())
	return &protos.CreateInstanceResponse{InstanceId: req.InstanceId}, nil
}

func (s *workflowStandIn) WaitForInstanceCompletion(ctx context.Context, req *protos.GetInstanceRequest) (*protos.GetInstanceResponse, error) {
	s.mu.Lock()
	at, n := s.started[req.InstanceId], s.number[req.InstanceId]
	s.mu.Unlock()
	if s.stuck(n) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	select {
	case <-time.After(time.Until(at.Add(s.took))):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	st, output := protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED, wrapperspb.String(s.output)
	if s.fail(n) {
		st, output = protos.OrchestrationStatus_ORCHESTRATION_STATUS_FAILED, nil
	}
	return &protos.GetInstanceResponse{Exists: true, OrchestrationState: &protos.OrchestrationState{
		InstanceId: req.InstanceId, Name: "DaprbenchChain", OrchestrationStatus: st, Output: output}}, nil
}

func (s *workflowStandIn) serve(t *testing.T) string {
	g := grpc.NewServer()
	protos.RegisterTaskHubSidecarServiceServer(g, s)
	return serveGRPC(t, g)
}

// Open loop and the known answer: instances that take 150 ms each are started at 100 a
// second over 2 connections — a closed loop could start at most 13 a second — and each one's
// completion reads 150 ms from its slot; the start call's own latency does not wait for it.
// Each instance's output names its 3 activities' dispatch latencies (4, 5 and 6 ms): the
// summary's activity figures are theirs, every one counted.
func TestWorkflowStartsAreOpenLoopAndCompletionIsTimedFromTheSlot(t *testing.T) {
	daprd := newWorkflowStandIn(150 * time.Millisecond)
	daprd.output = `{"dispatch":[4000000,5000000,6000000]}`
	addr := daprd.serve(t)
	r := runCLI(t, "--qps=100", "--connections=2", "--duration=1s", "--warmup=0s", "--repetitions=1",
		"--payload-bytes=100", "--target-wait=5s", "--dapr-url=dapr-workflow+grpc://"+addr+"/Chain?activities=3&delay=2ms")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	if !daprd.workerStream.Load() {
		t.Error("the SDK's worker never opened its work-item stream")
	}
	run := r.summary.Runs[0]
	if run.ActualQPS < 90 {
		t.Errorf("%.1f starts a second for 100 asked: a start waited for a completion", run.ActualQPS)
	}
	d := r.summary.Delivery
	if d == nil {
		t.Fatalf("no completion figures in %+v", r.summary)
	}
	p, _ := d.PathOf(result.Dapr)
	if n := p.Messages; n.Published != run.Requests-run.Errors || n.Delivered != n.Published || n.Lost != 0 || n.Failed != 0 {
		t.Errorf("instances %+v for %d successful starts: want every one started counted and completed once", n, run.Requests-run.Errors)
	}
	p50, _ := p.Latency(50)
	if p0 := p.Percentiles[0].Us; p0 < 150000 || p50 > 180000 {
		t.Errorf("completion: lowest percentile %d µs, p50 %d µs: want from 150 ms, about 150 ms", p0, p50)
	}
	if a := p.Activities; len(a.Percentiles) == 0 || a.Percentiles[0].Us < 3990 || a.MaxUs > 6010 || a.AvgUs < 4990 || a.AvgUs > 5010 {
		t.Errorf("activity dispatch %+v: want 4 to 6 ms, 5 ms on average", a)
	}
	if iv := p.Interval; iv == nil || iv.Reps != 1 {
		t.Errorf("completion interval %+v: want one within one repetition", iv)
	} else if p50, _ := iv.At(50); p50.LowUs > p50.Us || p50.HighUs < p50.Us || p50.LowUs < 150000 {
		t.Errorf("completion p50's interval %+v: want around its point, from 150 ms", p50)
	}
	if m, _ := r.summary.MergedOf(result.Dapr); m.Percentiles[0].Us >= 100000 {
		t.Errorf("the start call's own p50 is %d µs: it must not wait for the completion", m.Percentiles[0].Us)
	}
	var in workflowInput
	if err := json.Unmarshal([]byte(daprd.inputs.Load().(string)), &in); err != nil || in.Activities != 3 || in.DelayUs != 2000 || len(in.Pad) != 100 {
		t.Errorf("an instance's input %+v (%v): want 3 activities of 2 ms and the 100-byte payload", in, err)
	}
}

// Instances that fail are counted failed (and timed: they ended); instances that have not
// ended by the phase's close are counted unfinished, never completed.
func TestFailedAndUnfinishedWorkflowsAreCounted(t *testing.T) {
	t.Parallel()
	daprd := newWorkflowStandIn(10 * time.Millisecond)
	daprd.output = `{"dispatch":[1000000,2000000]}`
	daprd.fail = func(n int64) bool { return n%10 == 0 }
	daprd.stuck = func(n int64) bool { return n%7 == 0 }
	addr := daprd.serve(t)
	ep, err := parseEndpoint("dapr-workflow+grpc://" + addr + "/FanOut?activities=2")
	if err != nil {
		t.Fatal(err)
	}
	host := newWorkflowHost(ep, newDeliveryBook(), io.Discard, 5*time.Second)
	defer host.stop()
	if err := host.startWorker(addr); err != nil {
		t.Fatal(err)
	}
	host.book.begin("dapr-0")
	opts := periodic.RunnerOptions{QPS: 100, NumThreads: 2, Duration: 700 * time.Millisecond, Out: io.Discard}
	out, err := runWorkflows(&opts, ep, nil, 5*time.Second, host, "dapr-0")
	if err != nil {
		t.Fatal(err)
	}
	host.book.await(context.Background(), "dapr-0", 300*time.Millisecond)
	_, n, dispatches := host.book.close("dapr-0", time.Time{})
	started := daprd.count.Load() - 2 // the connections' warm-up starts are no phase's
	if n.Published != started || out.DurationHistogram.Count != started {
		t.Fatalf("%d started in the phase, %d counted, %d requests", started, n.Published, out.DurationHistogram.Count)
	}
	var stuck, failed int64
	for i := int64(3); i <= started+2; i++ {
		switch {
		case i%7 == 0:
			stuck++
		case i%10 == 0:
			failed++
		}
	}
	if n.Lost != stuck || n.Failed != failed || n.Delivered != started-stuck {
		t.Errorf("counts %+v: want %d unfinished, %d failed, %d ended", n, stuck, failed, started-stuck)
	}
	if completed := started - stuck - failed; int64(len(dispatches)) != 2*completed {
		t.Errorf("%d activity dispatches: want 2 for each of the %d completed instances", len(dispatches), completed)
	}
}

func TestWorkflowURLsAreCheckedBeforeAnyLoad(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"dapr-workflow+grpc://localhost:50001/Chain",                          // no activities
		"dapr-workflow+grpc://localhost:50001/Saga?activities=3",              // no such pattern
		"dapr-workflow+grpc://localhost:50001/Chain?activities=101",           // past the bound
		"dapr-workflow+grpc://localhost/Chain?activities=3",                   // no port
		"dapr-workflow+http://localhost:3500/Chain?activities=3",              // no gRPC API for the worker
		"dapr-workflow+grpc://localhost:50001/Chain?activities=3&delay=-1ms",  // negative work
		"dapr-workflow+grpc://localhost:50001/FanOut?activities=3&delay=soon", // not a duration
	} {
		if _, err := parseEndpoint(raw); err == nil {
			t.Errorf("%s: accepted", raw)
		}
	}
	ep, err := parseEndpoint("dapr-workflow+http://localhost:3500/FanOut?activities=5&delay=1ms&grpc=localhost:50001")
	if err != nil || ep.kind != viaDaprWorkflowHTTP || ep.method != workflowFanOut || ep.workflow.activities != 5 ||
		ep.workflow.delay != time.Millisecond || ep.workflow.grpcAddr != "localhost:50001" || !strings.HasSuffix(workflowName(ep.method), "FanOut") {
		t.Errorf("HTTP URL -> %+v, %v", ep, err)
	}
}

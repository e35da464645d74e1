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
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"fortio.org/fortio/periodic"
)

// A Workflow run's path (the operator writes its URL, see workload's workflowSide):
//
//	dapr-workflow+grpc://localhost:50001/PATTERN?activities=N   start through daprd's gRPC API (the SDK's client)
//	dapr-workflow+http://localhost:3500/PATTERN?activities=N&grpc=localhost:50001   through its HTTP API
//
// PATTERN is Chain (N activities one after another) or FanOut (N at once, then joined);
// ?delay=D makes every activity take D (the known answer; 0: no work). The load tester hosts
// the workflows itself, through Dapr's Go SDK (a worker on its daprd's gRPC API, the grpc
// address), as the app of Dapr's own suite starts the workflows it hosts: daprd binds a
// workflow to the app ID of the sidecar that starts it. A request is one start — open loop:
// each start is due at its slot, never after a completion. Each started instance is then
// awaited (daprd's WaitForInstanceCompletion, answered when its workflow actor reports the
// instance done) and its completion timed from the start's slot on this process's clock, in
// the delivery book, as a PubSub message's delivery is.

// Workflow patterns, as the operator names them in a path's URL.
const (
	workflowChain  = "Chain"
	workflowFanOut = "FanOut"
)

// workflowPaths are a Workflow run's paths: instances started through daprd's HTTP workflow
// API or its gRPC one (the SDK's client), run by the workflow host in the load tester.
type workflowPaths struct{}

func (workflowPaths) schemes() map[string]endpointKind {
	return map[string]endpointKind{"dapr-workflow+http": viaDaprWorkflowHTTP, "dapr-workflow+grpc": viaDaprWorkflowGRPC}
}

// host creates the workflow host (its SDK worker starts with readiness): an instance
// started at a repetition's first slot may end as late as its drain.
func (workflowPaths) host(app *appServer, ep endpoint, wait, repetition time.Duration) {
	app.drain = DeliveryDrain + time.Duration(ep.workflow.activities)*ep.workflow.delay
	app.workflows = newWorkflowHost(ep, app.book, app.log, max(wait, 60*time.Second)+repetition+app.drain)
}

// ready starts instances until one completes: the worker connected, daprd's workflow actors
// placed, its state store and scheduler answering (at least 60 s).
func (workflowPaths) ready(ctx context.Context, p path, bound time.Duration, _ int) error {
	bound = max(bound, 60*time.Second)
	if p.app == nil || p.app.workflows == nil {
		return fmt.Errorf("%s path %s: a workflow path needs the run's workflow host", p.target.Variant, p.target.URL)
	}
	if last, err := waitForWorkflows(ctx, p.ep, p.app.workflows, bound); err != nil {
		return fmt.Errorf("%s path %s: no workflow completed within %v (last: %s); if daprd's log repeats "+
			"DaprBuiltInActorNotFoundRetries, Dapr's placement never placed the load tester's workflow actors "+
			"(seen on Dapr 1.16.0 until dapr-placement-server was restarted)", p.target.Variant, p.target.URL, bound, last)
	}
	return nil
}

func (workflowPaths) run(opts *periodic.RunnerOptions, p path, timeout time.Duration, phase string) (outcome, any, error) {
	if p.app == nil || p.app.workflows == nil {
		return outcome{}, nil, errors.New("a workflow path needs the run's workflow host")
	}
	out, err := runWorkflows(opts, p.ep, p.body, timeout, p.app.workflows, phase)
	return out, out, err
}

func (workflowPaths) parse(raw string, u *url.URL) (endpoint, error) {
	q := u.Query()
	ep := endpoint{kind: viaDaprWorkflowGRPC, addr: u.Host, method: strings.Trim(u.Path, "/"), workflow: &workflowEndpoint{grpcAddr: u.Host}}
	if u.Scheme == "dapr-workflow+http" {
		ep.kind, ep.workflow.grpcAddr = viaDaprWorkflowHTTP, q.Get("grpc")
	}
	n, err := strconv.Atoi(q.Get("activities"))
	switch {
	case u.Port() == "":
		return endpoint{}, fmt.Errorf("%q: the address needs a port", raw)
	case ep.method != workflowChain && ep.method != workflowFanOut:
		return endpoint{}, fmt.Errorf("%q: the pattern must be %s or %s", raw, workflowChain, workflowFanOut)
	case err != nil || n < 1 || n > 100:
		return endpoint{}, fmt.Errorf("%q: activities must be a number from 1 to 100", raw)
	case ep.workflow.grpcAddr == "":
		return endpoint{}, fmt.Errorf("%q: an HTTP start needs grpc=HOST:PORT, daprd's gRPC API, for the worker", raw)
	}
	ep.workflow.activities = n
	if d := q.Get("delay"); d != "" {
		if ep.workflow.delay, err = time.ParseDuration(d); err != nil || ep.workflow.delay < 0 || ep.workflow.delay > 10*time.Second {
			return endpoint{}, fmt.Errorf("%q: delay must be a duration from 0 to 10s", raw)
		}
	}
	return ep, nil
}

// workflowName is the name a pattern's workflow is registered under (workflowFuncs).
func workflowName(pattern string) string {
	if pattern == workflowFanOut {
		return "DaprbenchFanOut"
	}
	return "DaprbenchChain"
}

// starter is one connection's way to start a workflow instance.
type starter interface {
	start(ctx context.Context, name, id string, input []byte) error
	close()
}

// httpStarter starts through daprd's HTTP workflow API on one keep-alive connection.
type httpStarter struct {
	base   string
	client *http.Client
}

func (h *httpStarter) start(ctx context.Context, name, id string, input []byte) error {
	u := fmt.Sprintf("%s/%s/start?instanceID=%s", h.base, url.PathEscape(name), url.QueryEscape(id))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(input))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	body, code, err := readAnswer(h.client, req)
	switch {
	case err != nil:
		return err
	case code != http.StatusAccepted && code != http.StatusOK:
		return statusError{code, string(body)}
	}
	return nil
}

func (h *httpStarter) close() { h.client.CloseIdleConnections() }

func dialStarter(ep endpoint) (starter, error) {
	if ep.kind == viaDaprWorkflowHTTP {
		return &httpStarter{base: fmt.Sprintf("http://%s/v1.0/workflows/dapr", ep.addr),
			client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}}}, nil
	}
	return dialSDKStarter(ep.addr)
}

// wfConn is a fortio thread's connection: each call starts the next instance of its phase
// and leaves its completion to the host's waiter.
type wfConn struct {
	start starter
	host  *workflowHost
	phase string
	input []byte
}

func (c *wfConn) call(ctx context.Context) error {
	phase, due := phaseAndSlot(ctx, c.phase)
	book := c.host.book
	m := message{Nonce: book.nonce, Phase: phase, Seq: book.next(phase), Due: book.offset(due)}
	id := c.host.instanceID(phase)
	if err := c.start.start(ctx, c.host.name, id, c.input); err != nil {
		return err
	}
	book.published(m.Phase, m.Seq, m.Due)
	c.host.await(id, m)
	return nil
}

func (c *wfConn) close() { c.start.close() }

// runWorkflows makes one fortio run of a workflow path, its instances tagged with phase.
func runWorkflows(opts *periodic.RunnerOptions, ep endpoint, body []byte, timeout time.Duration, host *workflowHost, phase string) (outcome, error) {
	input := workflowInputOf(ep, body)
	return runThreads(opts, timeout, stateStatusOf, func() (threadConn, error) {
		s, err := dialStarter(ep)
		if err != nil {
			return nil, err
		}
		return &wfConn{start: s, host: host, phase: phase, input: input}, nil
	})
}

// instanceID is a fresh instance ID: the process's nonce, the phase and the host's count of
// every instance it started, warm-ups and probes included (never reused within a run).
func (h *workflowHost) instanceID(phase string) string {
	return fmt.Sprintf("%s-%s-%d", h.book.nonce[:8], phase, h.started.Add(1))
}

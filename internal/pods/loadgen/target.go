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
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
)

// daprAPITokenHeader carries a daprd's API token (Dapr's security.APITokenHeader).
const daprAPITokenHeader = "dapr-api-token"

// endpointKind is how a target is called.
type endpointKind int

const (
	viaHTTP             endpointKind = iota // fortio's HTTP runner, the URL as given
	viaDaprGRPC                             // daprd's gRPC API: Dapr.InvokeService
	viaAppGRPC                              // the app's gRPC callback service: AppCallback.OnInvoke
	viaDaprStateHTTP                        // daprd's HTTP state API (a State run)
	viaDaprStateGRPC                        // daprd's gRPC state API
	viaRedis                                // the store itself, with its Go client (a State run's baseline)
	viaDaprPublishHTTP                      // daprd's HTTP publish API (a PubSub run)
	viaDaprPublishGRPC                      // daprd's gRPC publish API
	viaRedisStream                          // the broker itself: a Redis stream (a PubSub run's baseline)
	viaDaprWorkflowHTTP                     // daprd's HTTP workflow API starts an instance (a Workflow run)
	viaDaprWorkflowGRPC                     // daprd's gRPC workflow API, through the SDK's client
	viaDaprJobs                             // daprd's Jobs API schedules a one-shot job (a Scheduler run)
	viaDaprReminders                        // daprd's actor reminders API registers a one-shot reminder
	viaDaprTimers                           // daprd's actor timers API registers a one-shot timer
)

// endpoint is a parsed target URL.
type endpoint struct {
	kind   endpointKind
	addr   string // host:port of a gRPC target
	appID  string // the app daprd invokes (viaDaprGRPC)
	method string // the invoked method (gRPC); a State path's store name
	op     string // a State path's operation: Get, Save, SaveThenGet, BulkGet, BulkSave or Transaction
	keys   int    // a State path's number of keys
	bulk   int    // a State path's keys per bulk request (BulkGet, BulkSave, Transaction)
	topic  string // a PubSub path's topic (the baseline's stream)
	raw    bool   // a PubSub path publishes raw payloads, no CloudEvent
	// declared: a Subscription object subscribes the load tester (the subscriber declares none).
	declared bool
	maxLen   int64 // a PubSub baseline's stream length, approximately (0: untrimmed)
	// bulkPublish: a PubSub path's messages a request, in one bulk call (0: the single API).
	bulkPublish int64
	// batch, awaitMs: a PubSub path's bulk subscription (0: one message a delivery).
	batch, awaitMs int64
	// hold: a PubSub Dapr path's deliveries are held this long before their receipt (the
	// instrument's known answer; 0: none).
	hold time.Duration
	// activities, delay: a Workflow path's activities an instance and each one's stated work.
	activities int
	delay      time.Duration
	// grpcAddr is daprd's gRPC API, where a Workflow path's worker and waits go.
	grpcAddr string
	// due is how long after its registration a Scheduler path's job or reminder is due.
	due time.Duration
	// password is presented to a Redis the path calls directly (Target.StorePassword).
	password string
}

// parseEndpoint reads a target URL: http(s)://… is called over HTTP;
// dapr-grpc://HOST:PORT/APPID/METHOD invokes APPID's METHOD through daprd's gRPC API;
// grpc://HOST:PORT/METHOD calls the app's gRPC callback service directly.
func parseEndpoint(raw string) (endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return endpoint{}, err
	}
	path := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch {
	case u.Scheme == "http" || u.Scheme == "https":
		return endpoint{kind: viaHTTP}, nil
	case u.Scheme == "dapr-grpc" && u.Port() != "" && len(path) == 2 && path[0] != "" && path[1] != "":
		return endpoint{kind: viaDaprGRPC, addr: u.Host, appID: path[0], method: path[1]}, nil
	case u.Scheme == "dapr-state+http" || u.Scheme == "dapr-state+grpc" || u.Scheme == "redis":
		return parseStateEndpoint(raw, u)
	case u.Scheme == "dapr-pubsub+http" || u.Scheme == "dapr-pubsub+grpc" || u.Scheme == "redis-stream":
		return parsePubSubEndpoint(raw, u)
	case u.Scheme == "dapr-workflow+http" || u.Scheme == "dapr-workflow+grpc":
		return parseWorkflowEndpoint(raw, u)
	case u.Scheme == "dapr-jobs+http" || u.Scheme == "dapr-reminders+http" || u.Scheme == "dapr-timers+http":
		return parseSchedulerEndpoint(raw, u)
	case u.Scheme == "grpc" && u.Port() != "" && len(path) == 1 && path[0] != "":
		return endpoint{kind: viaAppGRPC, addr: u.Host, method: path[0]}, nil
	}
	return endpoint{}, fmt.Errorf("%q: want http(s)://…, dapr-grpc://HOST:PORT/APPID/METHOD, grpc://HOST:PORT/METHOD, "+
		"dapr-state+http|grpc://HOST:PORT/STORE?op=…&keys=…, redis://HOST:PORT/?op=…&keys=…, "+
		"dapr-pubsub+http|grpc://HOST:PORT/PUBSUB/TOPIC, redis-stream://HOST:PORT/STREAM "+
		"dapr-workflow+http|grpc://HOST:PORT/PATTERN?activities=…, dapr-jobs+http://HOST:PORT/?due=… "+
		"or dapr-reminders|timers+http://HOST:PORT/ACTORTYPE?due=…&actors=…", raw)
}

// waitForTarget sends the run's own request (its method and body; a fresh id for {uuid})
// until the target answers 2xx, for at most bound, so that no measured or warm-up request
// meets a route that is not programmed yet.
func waitForTarget(ctx context.Context, t Target, body []byte, bound time.Duration, conns int, sub *subscriber) error {
	ep, err := t.endpoint()
	if err != nil {
		return err
	}
	if ep.isState() {
		// A state path writes its keys before any load, whatever the bound.
		bound = max(bound, 10*time.Second)
		if last, err := waitForState(ctx, ep, body, conns, bound); err != nil {
			return fmt.Errorf("%s path %s: not ready within %v (last: %s)", t.Variant, t.URL, bound, last)
		}
		return nil
	}
	if ep.isScheduler() {
		// A Scheduler path is ready when a job or reminder it registers is triggered: daprd's
		// scheduler connection up (and, for reminders, the actor type placed).
		bound = max(bound, 60*time.Second)
		if last, err := waitForTrigger(ctx, ep, sub, bound); err != nil {
			return fmt.Errorf("%s path %s: nothing triggered within %v (last: %s)", t.Variant, t.URL, bound, last)
		}
		return nil
	}
	if ep.isPubSub() {
		// A pub/sub path is ready when a message it publishes is delivered: the broker
		// reachable, daprd's Component loaded and its subscription made.
		bound = max(bound, 30*time.Second)
		if last, err := waitForDelivery(ctx, ep, sub, bound); err != nil {
			return fmt.Errorf("%s path %s: no message delivered within %v (last: %s)", t.Variant, t.URL, bound, last)
		}
		return nil
	}
	if ep.isWorkflow() {
		// A workflow path is ready when an instance it starts completes: the worker
		// connected, daprd's workflow actors placed, its state store and scheduler answering.
		bound = max(bound, 60*time.Second)
		if sub == nil || sub.workflows == nil {
			return fmt.Errorf("%s path %s: a workflow path needs the run's workflow host", t.Variant, t.URL)
		}
		if last, err := waitForWorkflows(ctx, ep, sub.workflows, bound); err != nil {
			return fmt.Errorf("%s path %s: no workflow completed within %v (last: %s); if daprd's log repeats "+
				"DaprBuiltInActorNotFoundRetries, Dapr's placement never placed the load tester's workflow actors "+
				"(seen on Dapr 1.16.0 until dapr-placement-server was restarted)", t.Variant, t.URL, bound, last)
		}
		return nil
	}
	if bound <= 0 {
		return nil
	}
	if ep.kind != viaHTTP {
		if last, err := waitForGRPC(ctx, ep, body, bound); err != nil {
			return fmt.Errorf("%s target %s did not answer OK within %v (last: %s)", t.Variant, t.URL, bound, last)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	method := http.MethodGet
	if len(body) > 0 {
		method = http.MethodPost
	}
	last, err := poll2xx(ctx, &http.Client{Timeout: 5 * time.Second}, func(ctx context.Context) (*http.Request, error) {
		url := strings.ReplaceAll(t.URL, "{uuid}", uuid.NewString())
		req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
		if err == nil && t.DaprAPIToken != "" {
			req.Header.Set(daprAPITokenHeader, t.DaprAPIToken)
		}
		return req, err
	})
	if err != nil {
		return fmt.Errorf("%s target %s did not answer 2xx within %v (last: %s)", t.Variant, t.URL, bound, last)
	}
	return nil
}

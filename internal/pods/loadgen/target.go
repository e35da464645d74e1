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

import "time"

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
	viaDaprConfigHTTP                       // daprd's HTTP configuration API reads an item (a Configuration run)
	viaDaprConfigGRPC                       // daprd's gRPC configuration API
	viaRedisConfig                          // the configuration store itself, with its Go client (the baseline)

	endpointKinds // how many kinds there are (not a kind)
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

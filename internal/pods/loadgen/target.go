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

// endpoint is a target URL read: what every kind of path has, and its kind's own settings
// in the one member its family sets (nil in every other), as a Kubernetes VolumeSource holds
// one source.
type endpoint struct {
	kind endpointKind
	addr string // host:port of the target: the app, daprd or the store
	// method is what the path calls: the gRPC method; the State, PubSub or Configuration
	// Component's name; the Workflow's pattern; the actor type of reminders and timers.
	method   string
	appID    string // the app daprd invokes (viaDaprGRPC)
	password string // presented to a Redis the path calls directly (Target.StorePassword)

	state         *stateEndpoint
	pubsub        *pubsubEndpoint
	workflow      *workflowEndpoint
	scheduler     *schedulerEndpoint
	configuration *configurationEndpoint
}

// stateEndpoint is a State path's own: its operation and keys.
type stateEndpoint struct {
	op   string // Get, Save, SaveThenGet, BulkGet, BulkSave or Transaction
	keys int
	bulk int // keys per bulk request (BulkGet, BulkSave, Transaction)
}

// pubsubEndpoint is a PubSub path's own: its topic and how messages travel.
type pubsubEndpoint struct {
	topic string // the topic (the baseline's stream)
	raw   bool   // raw payloads, no CloudEvent
	// declared: a Subscription object subscribes the load tester (the app server declares none).
	declared bool
	maxLen   int64 // the baseline's stream length, approximately (0: untrimmed)
	// bulkPublish: messages a request, in one bulk call (0: the single API).
	bulkPublish int64
	// batch, awaitMs: a bulk subscription (0: one message a delivery).
	batch, awaitMs int64
	// hold: the Dapr path's deliveries are held this long before their receipt (the
	// instrument's known answer; 0: none).
	hold time.Duration
}

// workflowEndpoint is a Workflow path's own: each instance's activities and where its worker
// connects.
type workflowEndpoint struct {
	activities int
	delay      time.Duration // each activity's stated work
	grpcAddr   string        // daprd's gRPC API, where the worker and the waits go
}

// schedulerEndpoint is a Scheduler path's own: when a registration is due, and over how many
// actors reminders and timers spread.
type schedulerEndpoint struct {
	due    time.Duration
	actors int
}

// configurationEndpoint is a Configuration path's own: how many items it reads among.
type configurationEndpoint struct{ keys int }

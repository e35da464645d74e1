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

// Package loadsettings names the load tester's settings: the flags of cmd/loadtester, which
// the operator sets on the load-tester Job as DAPRBENCH_* variables (internal/operator/workload). Both
// sides take the names from here, and the load tester refuses a DAPRBENCH_* variable that
// names none of them: a misspelt setting fails the run instead of measuring the default.
package loadsettings

import "github.com/daprbench/daprbench/internal/contract/cliflags"

// The settings, by flag name.
const (
	QPS            = "qps"
	Connections    = "connections"
	Duration       = "duration"
	Warmup         = "warmup"
	Repetitions    = "repetitions"
	Uniform        = "uniform"
	Payload        = "payload"
	PayloadBytes   = "payload-bytes"
	Resolution     = "resolution"
	RequestTimeout = "request-timeout"
	TargetWait     = "target-wait"
	// SubscriberListen is where a PubSub run's subscriber listens (default SubscriberPort).
	SubscriberListen = "subscriber-listen"
	TerminationLog   = "termination-log"
	// Calibrate makes the load tester score its node on the calibration workload for the
	// given duration (each half) and write the score as its termination message, instead of
	// driving a load: the calibration init container of a run's pods.
	Calibrate = "calibrate"

	DaprURL     = "dapr-url"
	BaselineURL = "baseline-url"
	DirectURL   = "direct-url"
	VariantURLs = "variant-urls"
	// ClientOnlyURL and ServerOnlyURL are the two one-sidecar paths of a run that splits
	// what Dapr adds between the sidecars (spec.paths FourPaths).
	ClientOnlyURL = "client-only-url"
	ServerOnlyURL = "server-only-url"
	SidecarURL    = "sidecar-url"
	SidecarWait   = "sidecar-wait"

	// ProfileSeconds asks for a CPU profile of both daprd sidecars over a window of this many
	// seconds, centred in a measured phase of the Dapr path (spec.profiling); 0: none.
	ProfileSeconds = "profile-seconds"
	// ProfileServerURL and ProfileClientURL are where the target's daprd profile is taken (its
	// app's capture route, which asks for ProfileToken) and the load tester's own sidecar's
	// profiling server (dapr.io/enable-profiling, on localhost).
	ProfileServerURL = "profile-server-url"
	ProfileClientURL = "profile-client-url"
	// DaprdMetricsClientURL and DaprdMetricsServerURL are the daprds' metrics pages, whose
	// CPU counter the load tester reads at every measured run's edges.
	DaprdMetricsClientURL = "daprd-metrics-client-url"
	DaprdMetricsServerURL = "daprd-metrics-server-url"

	GroupSize   = "group-size"
	GroupIndex  = "group-index"
	GroupLeader = "group-leader"
	GroupListen = "group-listen"
	GroupWait   = "group-wait"
	// GroupToken authenticates the group's pods to the leader: from a Secret the operator
	// creates per run, set only on the run's Job.
	GroupToken = "group-token"
	// DaprAPIToken is the target daprd's API token (dapr.io/api-token-secret), sent on the
	// server-only path as dapr-api-token; ProfileToken is what the target app asks of whoever
	// wants its daprd's profile (the app reads it too). Both from the run's token Secret.
	DaprAPIToken = "dapr-api-token"
	ProfileToken = "profile-token"
	// StorePassword is the password of the Redis a run deploys (its store or broker), which
	// the baseline's client presents: the run's token, from its Secret.
	StorePassword = "store-password"
)

// ProfileCaptureRoot is the target app's route under which it serves its own daprd's
// profiling endpoint (/debug/pprof/profile) to the run's load tester: the operator points
// ProfileServerURL there, perfapp serves it.
const ProfileCaptureRoot = "/daprd"

// SubscriberPort is where a PubSub run's load tester receives its messages: the app port
// the operator gives the load tester's daprd, which delivers to it.
const SubscriberPort = 3001

// Env is the environment variable that sets a setting: payload-bytes <-> DAPRBENCH_PAYLOAD_BYTES.
func Env(setting string) string { return cliflags.EnvName(setting) }

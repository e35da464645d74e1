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

package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Protocol is an invocation protocol.
// +kubebuilder:validation:Enum=HTTP;GRPC
type Protocol string

const (
	ProtocolHTTP Protocol = "HTTP"
	ProtocolGRPC Protocol = "GRPC"
)

// ProtocolSpec says how a ServiceInvocation run's requests travel. Between the two sidecars
// Dapr always speaks gRPC; these are the two ends.
type ProtocolSpec struct {
	// caller is how the load tester calls its sidecar: HTTP (POST /v1.0/invoke/…) or GRPC
	// (daprd's InvokeService). The baseline calls the app directly over the same protocol.
	// +kubebuilder:default=HTTP
	// +optional
	Caller Protocol `json:"caller,omitempty"`

	// app is how the target's sidecar calls the app (dapr.io/app-protocol): HTTP, or GRPC
	// (Dapr's app-callback service, OnInvoke).
	// +kubebuilder:default=HTTP
	// +optional
	App Protocol `json:"app,omitempty"`
}

// SidecarVariant is one sidecar setup of the target, compared with the others in one run.
// Unset fields take the run's own setting (spec.dapr, spec.protocol.app).
// +kubebuilder:validation:XValidation:rule="!has(self.configuration) || !has(self.tracingSamplingRate)",message="a variant names a Configuration or sets a tracingSamplingRate, not both: the rate is the named Configuration's own"
// +kubebuilder:validation:XValidation:rule="!has(self.mtls)",message="mtls cannot vary between variants: mTLS is cluster-wide in Dapr (the control plane's daprsystem Configuration); compare it with two PerfRuns, one per cluster setting"
// +kubebuilder:validation:XValidation:rule="!has(self.annotations) || self.annotations.all(k, k.startsWith('dapr.io/'))",message="annotations must be dapr.io/ annotations: a variant varies the sidecar only"
// +kubebuilder:validation:XValidation:rule="!has(self.annotations) || self.annotations.all(k, !(k in ['dapr.io/enabled', 'dapr.io/app-id', 'dapr.io/app-port', 'dapr.io/app-protocol', 'dapr.io/config', 'dapr.io/sidecar-image', 'dapr.io/log-level', 'dapr.io/sidecar-cpu-limit', 'dapr.io/sidecar-cpu-request', 'dapr.io/sidecar-memory-limit', 'dapr.io/sidecar-memory-request']))",message="annotations must not set dapr.io/enabled, app-id, app-port or config (the operator owns them) nor app-protocol, sidecar-image, log-level or sidecar-* resources (use the variant's own fields)"
// +kubebuilder:validation:XValidation:rule="!has(self.annotations) || self.annotations.all(k, !k.contains('mtls'))",message="mTLS cannot vary between variants: it is cluster-wide in Dapr (the control plane's daprsystem Configuration)"
// +kubebuilder:validation:XValidation:rule="!has(self.annotations) || self.annotations.all(k, !k.startsWith('dapr.io/') || k in ['dapr.io/enabled', 'dapr.io/app-id', 'dapr.io/app-port', 'dapr.io/app-protocol', 'dapr.io/config', 'dapr.io/sidecar-image', 'dapr.io/log-level', 'dapr.io/sidecar-cpu-limit', 'dapr.io/sidecar-cpu-request', 'dapr.io/sidecar-memory-limit', 'dapr.io/sidecar-memory-request'] || k.contains('mtls') || k in ['dapr.io/max-body-size', 'dapr.io/http-max-request-size', 'dapr.io/read-buffer-size', 'dapr.io/http-read-buffer-size', 'dapr.io/app-max-concurrency', 'dapr.io/enable-api-logging', 'dapr.io/log-as-json', 'dapr.io/enable-metrics', 'dapr.io/enable-profiling', 'dapr.io/graceful-shutdown-seconds', 'dapr.io/block-shutdown-duration', 'dapr.io/sidecar-liveness-probe-delay-seconds', 'dapr.io/sidecar-liveness-probe-timeout-seconds', 'dapr.io/sidecar-liveness-probe-period-seconds', 'dapr.io/sidecar-liveness-probe-threshold', 'dapr.io/sidecar-readiness-probe-delay-seconds', 'dapr.io/sidecar-readiness-probe-timeout-seconds', 'dapr.io/sidecar-readiness-probe-period-seconds', 'dapr.io/sidecar-readiness-probe-threshold', 'dapr.io/enable-app-health-check', 'dapr.io/app-health-check-path', 'dapr.io/app-health-probe-interval', 'dapr.io/app-health-probe-timeout', 'dapr.io/app-health-threshold'])",message="annotations may only be sidecar settings a benchmark varies (the README lists them): an annotation that reads Secrets (env-from-secret, api-token-secret), sets daprd's environment (env: HTTPS_PROXY would route its calls through a proxy), redirects traffic (app-channel-address, placement-host-address, sidecar-listen-addresses) or mounts volumes (volume-mounts) is never admitted"
type SidecarVariant struct {
	// name identifies the variant in the result and in its workloads' names.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=12
	// +kubebuilder:validation:Pattern=`^[a-z]([-a-z0-9]*[a-z0-9])?$`
	// +required
	Name string `json:"name"`

	// sidecarImage is the daprd image (dapr.io/sidecar-image); empty: the injector's. It must
	// lie under a prefix the operator allows (--allowed-image-prefixes). Only the characters
	// of an image reference, as spec.target.image (ImageReferencePattern).
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,127})?(?:@(?:sha256:[a-f0-9]{64}|sha384:[a-f0-9]{96}|sha512:[a-f0-9]{128}))?$`
	// +optional
	SidecarImage string `json:"sidecarImage,omitempty"`

	// sidecar, when set, replaces spec.dapr.sidecar for this variant (its unset fields take
	// their own defaults, not the run's).
	// +optional
	Sidecar *SidecarSpec `json:"sidecar,omitempty"`

	// logLevel is daprd's log level for this variant.
	// +optional
	LogLevel LogLevel `json:"logLevel,omitempty"`

	// tracingSamplingRate is this variant's tracing sampling rate (its own Configuration).
	// +kubebuilder:validation:Pattern=`^(0(\.[0-9]{1,6})?|1(\.0{1,6})?)$`
	// +kubebuilder:validation:MaxLength=8
	// +optional
	TracingSamplingRate string `json:"tracingSamplingRate,omitempty"`

	// configuration names an existing Dapr Configuration in the run's namespace for this
	// variant's sidecar (as spec.dapr.configuration does for the run): two variants naming
	// two Configurations measure what one costs against the other, e.g. a middleware.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	// +optional
	Configuration string `json:"configuration,omitempty"`

	// appProtocol is how this variant's sidecar calls the app.
	// +optional
	AppProtocol Protocol `json:"appProtocol,omitempty"`

	// annotations are further dapr.io/ annotations of this variant's target pod, from an
	// allowlist of sidecar settings a benchmark varies, e.g. dapr.io/max-body-size,
	// dapr.io/app-max-concurrency or dapr.io/enable-api-logging. A value is at most 256
	// characters: every allowed annotation takes a number, a duration, a flag or a path.
	// +kubebuilder:validation:MaxProperties=16
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(self[k]) <= 256)",message="annotations: a value must be at most 256 characters"
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`

	// mtls is never accepted: it is here so that a variant asking for it is refused with
	// the reason (mTLS is cluster-wide in Dapr) rather than dropped as an unknown field.
	// +optional
	MTLS *MTLSMode `json:"mtls,omitempty"`

	// thresholds gate this variant's difference from the first variant (its latency minus
	// the first's, the result document's result.variants[].difference), judged with that difference's 95%
	// interval and reported with spec.thresholds in the ThresholdsMet condition
	// (spec.thresholds.failRun applies to them too). Not on the first variant: it is the
	// reference the others are compared with.
	// +optional
	Thresholds *VariantThresholds `json:"thresholds,omitempty"`
}

// VariantThresholds are the most a variant may be slower than the first variant, in time
// or in percent of the first's latency. Each limit is judged against the difference's 95%
// interval between repetitions: met when its high end is at or below the limit, violated
// when its low end is above it, Inconclusive when the limit lies inside it, and
// Inconclusive with one repetition (an interval within one run cannot see what changed
// between the variants' runs), which admission refuses.
// +kubebuilder:validation:XValidation:rule="has(self.maxSlowdownP50) || has(self.maxSlowdownP90) || has(self.maxSlowdownP99) || has(self.maxSlowdownPercent)",message="thresholds set no limit: set at least one of maxSlowdownP50, maxSlowdownP90, maxSlowdownP99 and maxSlowdownPercent"
type VariantThresholds struct {
	// maxSlowdownP50 is the most the variant's p50 may exceed the first variant's.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxSlowdownP50 must be above 0s and at most 1h"
	// +optional
	MaxSlowdownP50 *metav1.Duration `json:"maxSlowdownP50,omitempty"`
	// maxSlowdownP90 is the most the variant's p90 may exceed the first variant's.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxSlowdownP90 must be above 0s and at most 1h"
	// +optional
	MaxSlowdownP90 *metav1.Duration `json:"maxSlowdownP90,omitempty"`
	// maxSlowdownP99 is the most the variant's p99 may exceed the first variant's.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxSlowdownP99 must be above 0s and at most 1h"
	// +optional
	MaxSlowdownP99 *metav1.Duration `json:"maxSlowdownP99,omitempty"`
	// maxSlowdownPercent is the most the variant may be slower than the first variant at p90
	// and at p99, in percent of the first variant's latency at that percentile (10: a p90 of
	// 2ms allows 200µs more). Two limits, judged as the ones above.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	// +optional
	MaxSlowdownPercent *int32 `json:"maxSlowdownPercent,omitempty"`
}

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

// SweepSetting is one Dapr setting a feature sweep measures, applied on top of the
// template; unset fields keep the template's. Per-app settings (tracing through the run's
// own Configuration, the app protocol, the sidecar image) are switched per point. mTLS is
// the control plane's: a point asking for the value the cluster does not have fails
// MTLSMismatch and is named in the sweep's condition as not measured.
type SweepSetting struct {
	// name labels the setting's points in status, tables and charts, e.g. "trace-0.1".
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=12
	// +kubebuilder:validation:Pattern=`^[a-z]([-.a-z0-9]*[a-z0-9])?$`
	// +required
	Name string `json:"name"`

	// mtls is what the point expects of the cluster (spec.dapr.mtls).
	// +optional
	MTLS MTLSMode `json:"mtls,omitempty"`

	// tracingSamplingRate is the point's spec.dapr.tracingSamplingRate. Set "0" to measure
	// without tracing: Dapr samples 1e-4 of requests when a Configuration leaves it unset.
	// +kubebuilder:validation:Pattern=`^(0(\.[0-9]{1,6})?|1(\.0{1,6})?)$`
	// +kubebuilder:validation:MaxLength=8
	// +optional
	TracingSamplingRate string `json:"tracingSamplingRate,omitempty"`

	// appProtocol is the point's spec.protocol.app: how the target's sidecar calls the app.
	// +optional
	AppProtocol Protocol `json:"appProtocol,omitempty"`

	// sidecarImage is the target's daprd image (dapr.io/sidecar-image), measured as the
	// run's one sidecar variant, named after the setting. It must lie under a prefix the
	// operator allows (--allowed-image-prefixes). Only the characters of an image reference.
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,127})?(?:@(?:sha256:[a-f0-9]{64}|sha384:[a-f0-9]{96}|sha512:[a-f0-9]{128}))?$`
	// +optional
	SidecarImage string `json:"sidecarImage,omitempty"`

	// component is the point's store or broker: spec.state.component of a State template,
	// spec.pubsub.component of a PubSub one (a Component in the sweep's namespace), so two
	// stores or brokers compare in one sweep. A setting without it keeps the template's:
	// with none there, the store or broker the run deploys.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	Component string `json:"component,omitempty"`

	// bulkSize is the point's keys a request (spec.state.bulkSize of a State template with a
	// bulk operation) or messages a request (spec.pubsub.bulkPublish of a PubSub one).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	BulkSize int32 `json:"bulkSize,omitempty"`

	// workflowPattern is the point's spec.workflow.pattern (a Workflow template).
	// +optional
	WorkflowPattern WorkflowPattern `json:"workflowPattern,omitempty"`

	// activities is the point's spec.workflow.activities (a Workflow template).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	Activities int32 `json:"activities,omitempty"`

	// actorHost is the point's spec.actors.host (an ActorActivation template): the method
	// becomes the host's default, so Minimal and GoSDK points compare in one sweep.
	// +optional
	ActorHost ActorHost `json:"actorHost,omitempty"`

	// faults replace the template's spec.faults for the point: the same kind (and role) as
	// the template's fault, with its own at, duration, errorPercent, delay or hold, so a sweep
	// measures the fault at each size (errorPercent 5, 20 and 50; a scheduler held down 5s,
	// 20s and 60s), each point's run reporting what it cost (its result.faults; compare two
	// points' runs). Each must end 3s or more before the template's load.duration. A setting
	// without it keeps the template's fault.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=1
	// +optional
	Faults []Fault `json:"faults,omitempty"`
}

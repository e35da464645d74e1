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

// ResultSchema names the version of the result document. It changes only with an
// incompatible change (a field removed or its meaning changed), never for an added field
// (docs/result-schema.md; the JSON Schema: docs/result-schema.v1.json).
const ResultSchema = "perf.daprbench.io/result/v1"

// ResultDocument is one run's whole result, self-describing: the run, what it was asked to
// measure, the environment it found, every figure and repetition, each path's histograms,
// and the conditions it was judged with. The operator writes it once per generation into
// a ConfigMap the run owns; every reader (the plugin's report, compare and export, the
// exporter's metrics, sweeps and schedules) reads it, and `kubectl daprbench export`
// prints it unchanged.
type ResultDocument struct {
	// schema is ResultSchema.
	Schema string `json:"schema"`
	// run identifies the run.
	Run DocumentRun `json:"run"`
	// scenario is spec.scenario.
	Scenario Scenario `json:"scenario"`
	// load is the load as it ran, defaults resolved.
	Load DocumentLoad `json:"load"`
	// dapr is the Dapr side as it ran.
	Dapr DocumentDapr `json:"dapr"`
	// spec is the run's whole spec, as measured (thresholds as judged).
	// +optional
	Spec *PerfRunSpec `json:"spec,omitempty"`
	// environment is what the run found on the cluster.
	// +optional
	Environment *Environment `json:"environment,omitempty"`
	// result is every figure the run measured.
	Result *Result `json:"result"`
	// histograms are each path's full latency histograms (HDR V2 compressed, base64):
	// every repetition and load-tester pod merged.
	// +optional
	Histograms []PathHistograms `json:"histograms,omitempty"`
	// profiles are the daprd CPU profiles (spec.profiling) and the ConfigMap that holds them.
	// +optional
	Profiles *ProfilesStatus `json:"profiles,omitempty"`
	// disturbances are what happened to the run's pods and Dapr's control plane while the
	// load ran, each placed in the load's timeline.
	// +optional
	Disturbances []Disturbance `json:"disturbances,omitempty"`
	// conditions are the run's conditions when the document was written.
	// +optional
	Conditions []DocumentCondition `json:"conditions,omitempty"`
}

// DocumentRun identifies a run.
type DocumentRun struct {
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	UID        string `json:"uid"`
	Generation int64  `json:"generation"`
	// schedule and sweep are the PerfSchedule or PerfSweep that made the run, if any.
	// +optional
	Schedule string `json:"schedule,omitempty"`
	// +optional
	Sweep string `json:"sweep,omitempty"`
	// phase is Succeeded or Failed.
	Phase string `json:"phase"`
	// startTime and endTime are when the run began provisioning and when it finished.
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty"`
	// +optional
	EndTime *metav1.Time `json:"endTime,omitempty"`
}

// DocumentLoad is the load as it ran, defaults resolved.
type DocumentLoad struct {
	QPS          int32   `json:"qps"`
	Connections  int32   `json:"connections"`
	DurationSec  float64 `json:"durationSeconds"`
	WarmupSec    float64 `json:"warmupSeconds"`
	Repetitions  int32   `json:"repetitions"`
	PayloadBytes int     `json:"payloadBytes"`
	Baseline     bool    `json:"baseline"`
	Arrival      string  `json:"arrival"`
	Replicas     int32   `json:"loadTesterReplicas"`
}

// DocumentDapr is the Dapr side as it ran.
type DocumentDapr struct {
	Enabled bool `json:"enabled"`
	// +optional
	MTLS string `json:"mtls,omitempty"`
	// +optional
	TracingSamplingRate string `json:"tracingSamplingRate,omitempty"`
	// +optional
	SidecarCPULimit string `json:"sidecarCPULimit,omitempty"`
}

// DocumentCondition is a condition without its bookkeeping.
type DocumentCondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// PathHistograms are one path's latency, from each request's scheduled send, and service
// time, from its actual send, each encoded as HDR's V2 compressed encoding in base64 (what
// HdrHistogram's tools read).
type PathHistograms struct {
	// path is the path's name (baseline, dapr, ...); variant its code (b, d, d1, x, c, s),
	// which `export --format fortio` names its files by.
	Path    string `json:"path"`
	Variant string `json:"variant"`
	Latency string `json:"latency"`
	Service string `json:"service"`
}

// NewResultDocument is the document of a finished run whose figures are res: the run as it
// is now (its conditions judged), with its histograms and profiles.
func NewResultDocument(run *PerfRun, res *Result, histograms []PathHistograms, profiles *ProfilesStatus) ResultDocument {
	s := &run.Spec
	random, literal := s.Body()
	payload := random
	if literal != nil {
		payload = len(*literal)
	}
	d := ResultDocument{Schema: ResultSchema, Scenario: s.Scenario, Spec: s.DeepCopy(), Environment: run.Status.Environment.DeepCopy(),
		Result: res, Histograms: histograms, Profiles: profiles, Disturbances: run.Status.Disturbances,
		Run: DocumentRun{Namespace: run.Namespace, Name: run.Name, UID: string(run.UID), Generation: run.Generation,
			Schedule: run.Labels[LabelSchedule], Sweep: run.Labels[LabelSweep], Phase: string(run.Status.Phase)},
		Load: DocumentLoad{QPS: s.Load.QPS, Connections: s.Load.EffectiveConnections(), DurationSec: s.Load.EffectiveDuration().Seconds(),
			WarmupSec: s.Load.EffectiveWarmup().Seconds(), Repetitions: s.Load.EffectiveRepetitions(), PayloadBytes: payload, Baseline: s.BaselineEnabled(),
			Arrival: string(s.Load.EffectiveArrival()), Replicas: s.LoadTester.EffectiveReplicas()},
		Dapr: DocumentDapr{Enabled: s.DaprEnabled()},
	}
	if s.DaprEnabled() {
		d.Dapr.MTLS, d.Dapr.TracingSamplingRate = string(s.Dapr.MTLS), s.Dapr.TracingSamplingRate
		if q := s.Dapr.Sidecar.CPULimit; q != nil {
			d.Dapr.SidecarCPULimit = q.String()
		}
	}
	d.Run.StartTime, d.Run.EndTime = run.Status.StartTime.DeepCopy(), run.Status.CompletionTime.DeepCopy()
	for _, c := range run.Status.Conditions {
		d.Conditions = append(d.Conditions, DocumentCondition{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message})
	}
	return d
}

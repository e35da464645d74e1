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

// Package assess judges a finished load: from the evidence the controller gathered once
// (the load tester's summary, the metrics windows and CPU counters recorded while it ran,
// the disturbances seen, the schedule's history), Evaluate makes the result, every judging
// condition and the verdict. It reads and writes nothing: the controller gathers, assess
// judges, the controller writes.
package assess

import (
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/regression"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// Evidence is everything a finished load is judged on, gathered once by the controller.
type Evidence struct {
	// Load is what the load-tester Job left.
	Load Load
	// Restarts counts the run's container restarts; TesterNodes is the node of each
	// load-tester pod, by completion index.
	Restarts    *perfv1alpha1.Restarts
	TesterNodes map[int32]string
	// Live is what was recorded while the load ran: metrics windows and CPU counters.
	Live *perfv1alpha1.LiveUsage
	// Sampled is true when the metrics API was sampled; MetricsFailed when sampling found it
	// failing (its error is already the ResourceUsageAvailable condition's message).
	Sampled, MetricsFailed bool
	// CountersSource names where the CPU counters came from; empty when none were read.
	CountersSource string
	// CountersOff says why no counters were read at all (the operator's setting); empty
	// when a source was configured.
	CountersOff string
	// Disturbances are the pods disturbed since the load began (status.disturbances).
	Disturbances []perfv1alpha1.Disturbance
	// History is a scheduled run's history; nil for a run no schedule made (or whose
	// schedule is gone).
	History *History
	// VariantResiliencies name, by sidecar variant, the Resiliencies its invocations ran
	// under (nil: a run without spec.variants).
	VariantResiliencies map[string][]string
}

// Load is what a finished load-tester Job left, read once.
type Load struct {
	JobFailed    *batchv1.JobCondition // the Job's Failed condition, nil when it completed
	FirstFailure string                // in a group, the error of the pod that failed first
	Terminated   *corev1.ContainerStateTerminated
	// DaprdEndedBadly says how the leader's own daprd ended when it exited non-zero no
	// earlier than the load tester did (told to stop, it hung on a request a fault left);
	// empty otherwise, a daprd that died during the load included.
	DaprdEndedBadly string
	Message         string // the leader's termination message: the pointer to its report
	Summary         *result.Summary
	Faults          report.Faults           // the report's timelines and applied faults (spec.faults)
	DaprdGauges     []result.DaprdGauges    // the daprds' goroutines and open files through a soak
	LatencyWindows  []result.LatencyWindows // each measured run's latency in windows, through a soak
	DecodeErr       error                   // the termination message could not be read
	ReportLost      error                   // the report it points to could not be had (*result.FrameTooLarge: too large)
	PodsDescribed   string                  // the load tester's pods, in the kubelet's words
	Waited          time.Duration           // how long the controller waited for a terminated state
}

// History is what a scheduled run is judged against for regression.
type History struct {
	// Schedule is the schedule's name; AcceptedBaseline the run its accepted-baseline
	// annotation names ("" for none).
	Schedule, AcceptedBaseline string
	// Earlier is the history, oldest first; Reference how many of it are reference runs
	// and Need how many are needed to judge.
	Earlier         []regression.Earlier
	Reference, Need int
	// TolerancePercent is the schedule's regression tolerance.
	TolerancePercent int32
	// CalibrationScores are the reference runs' node calibrations of the same workload.
	CalibrationScores []float64
}

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

import (
	"fmt"
	"time"
)

// AnnotationKnownAnswerDelay asks the target app to hold every invocation that reaches it
// through both sidecars for this long (a Go duration, e.g. "500us", above 0 and at most 1s):
// a known answer for the instrument, whose added latency must rise by it (make
// bench-known-answer). The app knows such a request by the caller and callee app-id headers
// Dapr's remote invocation sets; the baseline calls the app directly and is not held. Only a
// ServiceInvocation run of the standard paths with an HTTP app takes it (a four-path run's
// one-sidecar paths and a gRPC app carry no such headers), or a PubSub run: there the load
// tester's subscriber holds every delivery daprd makes this long before it takes its receipt
// (the baseline's consumer is not held), so the added delivery latency must rise by it where
// deliveries do not queue behind held ones (a hold keeps one of daprd's workers busy). A
// test knob, never a benchmark's: nothing else in the run's status marks a held run, so keep
// it out of a schedule's history.
const AnnotationKnownAnswerDelay = "perf.daprbench.io/known-answer-dapr-delay"

// maxKnownAnswerDelay bounds the knob: a delay near a request timeout would measure that.
const maxKnownAnswerDelay = time.Second

// KnownAnswerDelay is the delay AnnotationKnownAnswerDelay asks for: 0 without it, an error
// saying what is wrong with a value that is not a duration in (0, 1s].
func (r *PerfRun) KnownAnswerDelay() (time.Duration, error) {
	v, ok := r.Annotations[AnnotationKnownAnswerDelay]
	if !ok {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 || d > maxKnownAnswerDelay {
		return 0, fmt.Errorf("annotation %s=%q: want a Go duration above 0 and at most %v, e.g. 500us or 2ms", AnnotationKnownAnswerDelay, v, maxKnownAnswerDelay)
	}
	if holds := CapabilityOf(r.Spec.Scenario).HoldsKnownAnswer; holds == nil || !holds(&r.Spec) {
		return 0, fmt.Errorf("annotation %s: only a ServiceInvocation run of the standard paths with an HTTP app, or a PubSub run, can hold "+
			"what comes through Dapr (this run: scenario %s, serviceInvocation.paths %q, app protocol %q)", AnnotationKnownAnswerDelay,
			r.Spec.Scenario, r.Spec.InvocationSettings().Paths, r.Spec.Protocol.App)
	}
	return d, nil
}

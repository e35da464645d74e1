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

package v1alpha1_test

import (
	"encoding/json"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Each kind reads its own field of a result and no other's, with its counts in the order it
// names them.
func TestEachOutcomeKindReadsItsOwnResult(t *testing.T) {
	summary := func(ms int) *perfv1alpha1.LatencySummary {
		return &perfv1alpha1.LatencySummary{P99: &metav1.Duration{Duration: time.Duration(ms) * time.Millisecond}}
	}
	interval := func(ms int) *perfv1alpha1.LatencyInterval {
		return &perfv1alpha1.LatencyInterval{Low: *summary(ms), High: *summary(ms + 1)}
	}
	// Every figure its own value: a kind that read one field for another fails below.
	lat, in, added, addedIn, beside := summary(9), interval(9), summary(4), interval(4), summary(2)
	for _, tc := range []struct {
		res                    perfv1alpha1.Result
		figure                 perfv1alpha1.OutcomeFigure
		added, beside          *perfv1alpha1.LatencySummary
		addedIn                *perfv1alpha1.LatencyInterval
		sent, done             int64
		missing, refused       int64
		breakdown, missingName string
		counts                 []int64
	}{
		{res: perfv1alpha1.Result{Delivery: &perfv1alpha1.DeliveryResult{Latency: lat, LatencyInterval: in, Added: added, AddedInterval: addedIn, Baseline: beside,
			Messages: &perfv1alpha1.MessageCounts{Published: 100, Delivered: 97, Lost: 3, Duplicated: 5}}},
			figure: perfv1alpha1.OutcomeDelivery, added: added, addedIn: addedIn, sent: 100, done: 97, missing: 3, refused: 3, missingName: "lost", counts: []int64{3}},
		{res: perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{Latency: lat, LatencyInterval: in, ActivityDispatch: beside,
			Workflows: &perfv1alpha1.WorkflowCounts{Started: 100, Completed: 96, Failed: 1, Unfinished: 3}}},
			figure: perfv1alpha1.OutcomeCompletion, beside: beside, sent: 100, done: 96, missing: 4, refused: 4, breakdown: "1 failed, 3 unfinished",
			missingName: "failed or unfinished", counts: []int64{1, 3}},
		{res: perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{Lateness: lat, LatenessInterval: in,
			Counts: &perfv1alpha1.TriggerCounts{Registered: 100, Triggered: 98, Missed: 2, Doubled: 4}}},
			figure: perfv1alpha1.OutcomeTriggerLateness, sent: 100, done: 98, missing: 2, refused: 6, breakdown: "2 missed, 4 doubled",
			missingName: "missed", counts: []int64{2, 4}},
	} {
		o := tc.res.Outcome()
		if o == nil || o.Kind.Figure != tc.figure {
			t.Fatalf("%s: read as %+v", tc.figure, o)
		}
		for _, k := range perfv1alpha1.OutcomeKinds {
			if other := k.Of(&tc.res); (k.Figure == tc.figure) != (other != nil) {
				t.Errorf("%s: kind %s reads %+v", tc.figure, k.Figure, other)
			}
		}
		if o.Latency != lat || o.LatencyInterval != in || o.Added != tc.added || o.AddedInterval != tc.addedIn || o.Beside != tc.beside {
			t.Errorf("%s: a figure not the result's own: %+v", tc.figure, o)
		}
		if o.Counts == nil || o.Counts.Sent != tc.sent || o.Counts.Done != tc.done {
			t.Fatalf("%s: counts not the result's: %+v", tc.figure, o.Counts)
		}
		if len(o.Counts.Faults) != len(o.Kind.FaultNames) || len(o.Counts.Faults) != len(tc.counts) {
			t.Fatalf("%s: faults %v against names %v", tc.figure, o.Counts.Faults, o.Kind.FaultNames)
		}
		for i, n := range tc.counts {
			if o.Counts.Faults[i] != n {
				t.Errorf("%s: fault %s is %d, want %d", tc.figure, o.Kind.FaultNames[i].Name, o.Counts.Faults[i], n)
			}
		}
		if o.Missing() != tc.missing || o.Refused() != tc.refused || o.Breakdown() != tc.breakdown || o.Kind.MissingName() != tc.missingName {
			t.Errorf("%s: missing %d (%s), refused %d (%q); want %d (%s), %d (%q)", tc.figure, o.Missing(), o.Kind.MissingName(), o.Refused(), o.Breakdown(),
				tc.missing, tc.missingName, tc.refused, tc.breakdown)
		}
	}
	if o := (&perfv1alpha1.Result{}).Outcome(); o != nil {
		t.Errorf("a result without an outcome read %+v", o)
	}
	uncounted := perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{Latency: summary(9)}}
	if o := uncounted.Outcome(); o == nil || o.Counts != nil || o.Missing() != 0 || o.Breakdown() != "" {
		t.Errorf("an uncounted completion read %+v", o)
	}
}

// A kind's two threshold names (the ones admission's generated rule names) are the fields
// its Limits reads, and every scenario with an outcome points at one kind of OutcomeKinds.
func TestOutcomeThresholdsAreTheFieldsTheGatesRead(t *testing.T) {
	for _, k := range perfv1alpha1.OutcomeKinds {
		var th perfv1alpha1.Thresholds
		if err := json.Unmarshal([]byte(`{"`+k.ThresholdFields[0]+`":"1s","`+k.ThresholdFields[1]+`":2}`), &th); err != nil {
			t.Fatalf("%s: %v", k.Figure, err)
		}
		p99, refused := k.Limits(&th)
		if p99 == nil || p99.Duration != time.Second || refused == nil || *refused != 2 {
			t.Errorf("%s: %v read as %v and %v", k.Figure, k.ThresholdFields, p99, refused)
		}
		for _, other := range perfv1alpha1.OutcomeKinds {
			if other == k {
				continue
			}
			if a, b := other.Limits(&th); a != nil || b != nil {
				t.Errorf("%s's thresholds %v set %s's", k.Figure, k.ThresholdFields, other.Figure)
			}
		}
	}
	owners := map[*perfv1alpha1.OutcomeKind]int{}
	for _, c := range perfv1alpha1.ScenarioCapabilities {
		if c.Outcome != nil {
			owners[c.Outcome]++
		}
	}
	for _, k := range perfv1alpha1.OutcomeKinds {
		if owners[k] != 1 {
			t.Errorf("%s is the outcome of %d scenarios, want 1", k.Figure, owners[k])
		}
	}
	if len(owners) != len(perfv1alpha1.OutcomeKinds) {
		t.Errorf("a scenario's outcome is not in OutcomeKinds: %v", owners)
	}
}

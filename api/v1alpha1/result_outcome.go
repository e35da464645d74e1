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
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Outcome is an asynchronous scenario's own outcome read one way, whichever of the result's
// fields holds it: PubSub's delivery, Workflow's completion, Scheduler's trigger lateness.
// The gates, compare, the headline, the sweep and the regression history read it, not the
// three fields. It is a view: the result document keeps its three fields (result.delivery,
// result.completion, result.triggers).
// +kubebuilder:object:generate=false
type Outcome struct {
	// Kind is what the outcome is: its figure, its words, its thresholds.
	Kind *OutcomeKind
	// Latency through Dapr over every repetition, with its 95% interval between them.
	Latency         *LatencySummary
	LatencyInterval *LatencyInterval
	// Added is Dapr's added latency against the scenario's own baseline (PubSub's broker
	// client), with its interval; nil without a baseline.
	Added         *LatencySummary
	AddedInterval *LatencyInterval
	// Beside is a figure shown ungated beside the latency, named by the kind's BesideName
	// (a Workflow run's activity dispatch, which says where a completion's change went).
	Beside *LatencySummary
	// Counts of the Dapr path; nil when not counted.
	Counts *OutcomeCounts
}

// OutcomeCounts accounts for what an outcome's calls started: the messages, the instances,
// the registrations.
// +kubebuilder:object:generate=false
type OutcomeCounts struct {
	// Sent is the calls that succeeded (published, started, registered); Done, the outcomes
	// that arrived in time (delivered, completed, triggered).
	Sent, Done int64
	// Faults are what the count gate refuses, one per the kind's FaultNames and in their
	// order (len(Faults) == len(Kind.FaultNames)): each either missing (never arrived) or
	// not (a trigger doubled).
	Faults []int64
}

// Missing is what never arrived: messages lost, instances failed or unfinished, triggers
// missed. The headline's and the regression history's count. Missing, Refused and
// Breakdown read an outcome made by its kind's Of.
func (o *Outcome) Missing() int64 {
	if o.Counts == nil {
		return 0
	}
	var n int64
	for i, f := range o.Counts.Faults {
		if o.Kind.FaultNames[i].Missing {
			n += f
		}
	}
	return n
}

// Refused is every fault, what the count gate judges: Missing and, for triggers, the doubled.
func (o *Outcome) Refused() int64 {
	if o.Counts == nil {
		return 0
	}
	var n int64
	for _, f := range o.Counts.Faults {
		n += f
	}
	return n
}

// Breakdown names Refused's parts ("3 failed, 1 unfinished"); empty with one fault.
func (o *Outcome) Breakdown() string {
	if o.Counts == nil || len(o.Kind.FaultNames) < 2 {
		return ""
	}
	parts := make([]string, len(o.Kind.FaultNames))
	for i, f := range o.Kind.FaultNames {
		parts[i] = fmt.Sprintf("%d %s", o.Counts.Faults[i], f.Name)
	}
	return strings.Join(parts, ", ")
}

// OutcomeKind is what one kind of outcome is: its figure, its words and its pair of
// thresholds. A new kind is one more entry of OutcomeKinds.
// +kubebuilder:object:generate=false
type OutcomeKind struct {
	Figure OutcomeFigure
	// Name is the figure's word in compare's and the gates' rows: "delivery".
	Name string
	// Items names what was counted ("messages"); DoneWord what Counts.Done counts
	// ("delivered").
	Items, DoneWord string
	// FaultNames are the counts the count gate refuses, in their order in Counts.Faults.
	FaultNames []OutcomeFault
	// HasBaseline: the kind can be measured without Dapr, so an outcome may have Added.
	HasBaseline bool
	// BesideName names Outcome.Beside; empty when the kind has none.
	BesideName string
	// Column heads the outcome's latency in a table ("DELIVERY").
	Column string
	// ThresholdFields are spec.thresholds' pair that judge the kind (its latency's p99, its
	// refused count), set only on its scenario's runs; ThresholdsJudge says what they judge
	// in admission's refusal; Limits reads them.
	ThresholdFields [2]string
	ThresholdsJudge string
	Limits          func(*Thresholds) (maxP99 *metav1.Duration, maxRefused *int64)
	// CountGate names the count gate ("lost messages"), which refuses every one of
	// FaultNames (a Workflow run's "failed workflows" also counts the unfinished).
	CountGate string
	// of reads the kind's figures from a result (Of names the kind); nil when it holds none.
	of func(*Result) *Outcome
}

// MissingName names Missing's parts: "failed or unfinished".
func (k *OutcomeKind) MissingName() string {
	var names []string
	for _, f := range k.FaultNames {
		if f.Missing {
			names = append(names, f.Name)
		}
	}
	return strings.Join(names, " or ")
}

// OutcomeFault is one count the count gate refuses.
// +kubebuilder:object:generate=false
type OutcomeFault struct {
	Name string
	// Missing: the outcome never arrived (a doubled trigger did, twice).
	Missing bool
}

// OutcomeKinds are every kind of outcome, in the order readers list them.
var OutcomeKinds = []*OutcomeKind{deliveryOutcome, completionOutcome, triggerOutcome}

// Of is the kind's outcome in r; nil when r holds none.
func (k *OutcomeKind) Of(r *Result) *Outcome {
	if r == nil {
		return nil
	}
	o := k.of(r)
	if o != nil {
		o.Kind = k
	}
	return o
}

// Outcome is r's own outcome; nil for a scenario without one.
func (r *Result) Outcome() *Outcome {
	for _, k := range OutcomeKinds {
		if o := k.Of(r); o != nil {
			return o
		}
	}
	return nil
}

var deliveryOutcome = &OutcomeKind{Figure: OutcomeDelivery, Name: "delivery", HasBaseline: true,
	Items: "messages", DoneWord: "delivered", FaultNames: []OutcomeFault{{"lost", true}},
	Column:          "DELIVERY",
	ThresholdFields: [2]string{"maxDeliveryP99", "maxLostMessages"}, ThresholdsJudge: "message delivery",
	Limits:    func(t *Thresholds) (*metav1.Duration, *int64) { return t.MaxDeliveryP99, t.MaxLostMessages },
	CountGate: "lost messages",
	of: func(r *Result) *Outcome {
		d := r.Delivery
		if d == nil {
			return nil
		}
		o := &Outcome{Latency: d.Latency, LatencyInterval: d.LatencyInterval, Added: d.Added, AddedInterval: d.AddedInterval}
		if n := d.Messages; n != nil {
			o.Counts = &OutcomeCounts{Sent: n.Published, Done: n.Delivered, Faults: []int64{n.Lost}}
		}
		return o
	}}

var completionOutcome = &OutcomeKind{Figure: OutcomeCompletion, Name: "completion",
	Items: "workflows", DoneWord: "completed", FaultNames: []OutcomeFault{{"failed", true}, {"unfinished", true}},
	BesideName:      "activity dispatch",
	Column:          "COMPLETION",
	ThresholdFields: [2]string{"maxCompletionP99", "maxFailedWorkflows"}, ThresholdsJudge: "workflow instances",
	Limits:    func(t *Thresholds) (*metav1.Duration, *int64) { return t.MaxCompletionP99, t.MaxFailedWorkflows },
	CountGate: "failed workflows",
	of: func(r *Result) *Outcome {
		c := r.Completion
		if c == nil {
			return nil
		}
		o := &Outcome{Latency: c.Latency, LatencyInterval: c.LatencyInterval, Beside: c.ActivityDispatch}
		if n := c.Workflows; n != nil {
			o.Counts = &OutcomeCounts{Sent: n.Started, Done: n.Completed, Faults: []int64{n.Failed, n.Unfinished}}
		}
		return o
	}}

var triggerOutcome = &OutcomeKind{Figure: OutcomeTriggerLateness, Name: "trigger lateness",
	Items: "triggers", DoneWord: "triggered", FaultNames: []OutcomeFault{{"missed", true}, {"doubled", false}},
	Column:          "LATENESS",
	ThresholdFields: [2]string{"maxTriggerLatenessP99", "maxMissedTriggers"}, ThresholdsJudge: "jobs' and reminders' triggers",
	Limits:    func(t *Thresholds) (*metav1.Duration, *int64) { return t.MaxTriggerLatenessP99, t.MaxMissedTriggers },
	CountGate: "missed triggers",
	of: func(r *Result) *Outcome {
		tr := r.Triggers
		if tr == nil {
			return nil
		}
		o := &Outcome{Latency: tr.Lateness, LatencyInterval: tr.LatenessInterval}
		if n := tr.Counts; n != nil {
			o.Counts = &OutcomeCounts{Sent: n.Registered, Done: n.Triggered, Faults: []int64{n.Missed, n.Doubled}}
		}
		return o
	}}

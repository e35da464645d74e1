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
// The gates, compare, the headline, the sweep, the regression history and the text and
// HTML reports read it, not the three fields. It is a view: the result document keeps its three fields (result.delivery,
// result.completion, result.triggers).
// +kubebuilder:object:generate=false
type Outcome struct {
	// Kind is what the outcome is: its figure, its words, its thresholds.
	Kind *OutcomeKind
	// Latency through Dapr over every repetition, with its 95% interval between them.
	Latency         *LatencySummary
	LatencyInterval *LatencyInterval
	// Baseline is the path without Dapr (PubSub's broker client); Added is Dapr's added
	// latency against it, with its interval. Both nil for a kind without a baseline.
	Baseline      *LatencySummary
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
	// Items names what was counted ("messages"); SentWord and DoneWord what Counts.Sent and
	// Counts.Done count ("published", "delivered").
	Items, SentWord, DoneWord string
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
	// Report is how the text and HTML reports show the kind.
	Report OutcomeReport
	// FaultInstances: a fault's counts are instances (FaultOutcome.instances: started,
	// completed, failed, stuck), not messages.
	FaultInstances bool
	// of reads the kind's figures from a result (Of names the kind); nil when it holds none.
	of func(*Result) *Outcome
}

// OutcomeReport is an outcome kind's words in the text and HTML reports.
// +kubebuilder:object:generate=false
type OutcomeReport struct {
	// Section is the HTML section's id, Title its heading.
	Section, Title string
	// Times says what the latency times, above the text table.
	Times string
	// Note says it at more length, first in the HTML section.
	Note string
	// Whose is the owner the interval's note names: "the completion's".
	Whose string
	// BaselineName names the baseline path in the HTML table; empty without one.
	BaselineName string
	// CountsCaption captions the HTML table of counts.
	CountsCaption string
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
	Items: "messages", SentWord: "published", DoneWord: "delivered", FaultNames: []OutcomeFault{{"lost", true}},
	Column:          "DELIVERY",
	ThresholdFields: [2]string{"maxDeliveryP99", "maxLostMessages"}, ThresholdsJudge: "message delivery",
	Limits:    func(t *Thresholds) (*metav1.Duration, *int64) { return t.MaxDeliveryP99, t.MaxLostMessages },
	CountGate: "lost messages",
	Report: OutcomeReport{Section: "delivery", Title: "Delivery",
		Times: "delivery: from each message's scheduled publish to the subscriber's handler, on the load tester's one clock",
		Note: "Each message timed from the slot its publish was due in to the subscriber's handler, on the load tester's one clock " +
			"(publisher and subscriber are one process). The latency table above is the publish call's own.",
		Whose: "each delivery", BaselineName: "the broker's own client", CountsCaption: "Messages over the measured phases"},
	of: func(r *Result) *Outcome {
		d := r.Delivery
		if d == nil {
			return nil
		}
		o := &Outcome{Latency: d.Latency, LatencyInterval: d.LatencyInterval, Baseline: d.Baseline, Added: d.Added, AddedInterval: d.AddedInterval}
		if n := d.Messages; n != nil {
			o.Counts = &OutcomeCounts{Sent: n.Published, Done: n.Delivered, Faults: []int64{n.Lost}}
		}
		return o
	}}

var completionOutcome = &OutcomeKind{Figure: OutcomeCompletion, Name: "completion",
	Items: "workflows", SentWord: "started", DoneWord: "completed", FaultNames: []OutcomeFault{{"failed", true}, {"unfinished", true}},
	BesideName:      "activity dispatch",
	Column:          "COMPLETION",
	ThresholdFields: [2]string{"maxCompletionP99", "maxFailedWorkflows"}, ThresholdsJudge: "workflow instances",
	Limits:         func(t *Thresholds) (*metav1.Duration, *int64) { return t.MaxCompletionP99, t.MaxFailedWorkflows },
	CountGate:      "failed workflows",
	FaultInstances: true,
	Report: OutcomeReport{Section: "completion", Title: "Completion",
		Times: "completion: from each instance's scheduled start to daprd reporting it complete, on the load tester's one clock (no baseline: a workflow needs Dapr)",
		Note: "Each instance timed from the slot its start was due in to daprd reporting it ended, on the load tester's one clock; " +
			"one not ended in time is in at the least it waited. The latency table above is the start call's own. " +
			"Activity dispatch: each activity of the completed instances, from its workflow scheduling it to the worker running it. " +
			"No baseline: a workflow needs Dapr; compare two runs for a change's cost.",
		Whose: "the completion's", CountsCaption: "Instances started in the measured phases"},
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
	Items: "triggers", SentWord: "registered", DoneWord: "triggered", FaultNames: []OutcomeFault{{"missed", true}, {"doubled", false}},
	Column:          "LATENESS",
	ThresholdFields: [2]string{"maxTriggerLatenessP99", "maxMissedTriggers"}, ThresholdsJudge: "jobs' and reminders' triggers",
	Limits:    func(t *Thresholds) (*metav1.Duration, *int64) { return t.MaxTriggerLatenessP99, t.MaxMissedTriggers },
	CountGate: "missed triggers",
	Report: OutcomeReport{Section: "triggers", Title: "Triggers",
		Times: "trigger lateness: each trigger's receipt minus its registration's slot plus its due time, on the load tester's one clock",
		Note: "Each trigger's lateness: its receipt by the load tester minus its registration's slot plus its due time, on the load tester's one clock " +
			"(daprd counts the due time from its own receipt, so the registration call's time is in it); a registration not triggered in time is in at the least it waited. " +
			"The latency table above is the registration call's own. No baseline: jobs, reminders and timers only exist behind a sidecar.",
		Whose: "the lateness's", CountsCaption: "Registrations of the measured phases"},
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

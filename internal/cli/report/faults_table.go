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

package report

import (
	"fmt"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

// faultsTable renders what each of spec.faults cost each path: its windows' errors and
// latency, then its recovery and the requests the app saw per request sent.
func faultsTable(res *perfv1alpha1.Result) string {
	if len(res.Faults) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nfaults (each window summed over the phases the fault was applied in; latency of the successes from each request's scheduled send, failures counted)\n")
	for _, o := range res.Faults {
		t := &textfmt.Table{}
		t.Add("WINDOW", "SECONDS", "REQUESTS", "ERRORS", "ERROR%", "95% INTERVAL", "P50", "P99")
		for _, w := range []struct {
			name string
			w    perfv1alpha1.FaultWindow
		}{{"before", o.Before}, {"during", o.During}, {"after", o.After}} {
			interval := "-"
			if w.w.ErrorPercentLow != "" {
				interval = w.w.ErrorPercentLow + ".." + w.w.ErrorPercentHigh
			}
			t.Add(w.name, fmt.Sprint(w.w.Seconds), fmt.Sprint(w.w.Requests), fmt.Sprint(w.w.Errors), textfmt.OrDash(w.w.ErrorPercent), interval,
				textfmt.Dur(w.w.P50), textfmt.Dur(w.w.P99))
		}
		fmt.Fprintf(&b, "fault %d (%s) on the %s path, applied in %d phases\n%s", o.Fault, o.Kind, o.Path, o.Applied, t.String())
		fmt.Fprintf(&b, "recovery: %s\n", recoveryWords(o))
		if o.Amplification != "" {
			amp := o.Amplification
			if o.AmplificationLow != "" {
				amp += fmt.Sprintf(" (95%% interval %s..%s)", o.AmplificationLow, o.AmplificationHigh)
			}
			fmt.Fprintf(&b, "invocations the app saw per request sent: %s\n", amp)
		}
		if m := o.Messages; m != nil {
			fmt.Fprintf(&b, "messages: %s\n", messageWords(m))
		}
		for _, c := range o.DaprdCPU {
			fmt.Fprintf(&b, "daprd CPU, %s: %s\n", c.Sidecar, daprdCPUWords(c))
		}
		if in := o.Instances; in != nil {
			fmt.Fprintf(&b, "workflow instances: %s\n", instanceWords(in))
		}
		for _, k := range o.Kills {
			fmt.Fprintf(&b, "repetition %d: deleted %s; %s\n", k.Repetition, podsWord(k.Deleted), replacementWords(k))
			if k.MeasuredQPS != "" {
				fmt.Fprintf(&b, "repetition %d: measured the other load-tester pods' %s qps: the killed pod's requests in it are not in the result\n", k.Repetition, k.MeasuredQPS)
			}
		}
		for _, why := range o.NotApplied {
			fmt.Fprintf(&b, "NOT APPLIED: %s\n", textfmt.ForTerminal(why))
		}
	}
	return b.String()
}

// messageWords says what a PubSub run's messages did in the phases the fault was applied in.
func messageWords(m *perfv1alpha1.FaultMessages) string {
	lost := fmt.Sprintf("%d lost (%s a phase", m.Lost, m.LostPerPhase)
	if m.LostPerPhaseLow != "" {
		lost += fmt.Sprintf(", 95%% interval %s..%s over this run's repetitions", m.LostPerPhaseLow, m.LostPerPhaseHigh)
	}
	return fmt.Sprintf("%d published, %s), %d delivered more than once", m.Published, lost, m.Duplicated)
}

// daprdCPUWords says what a daprd used before and during the fault.
func daprdCPUWords(c perfv1alpha1.FaultDaprdCPU) string {
	during := c.During.String() + " during it"
	if c.DuringLow != nil && c.DuringHigh != nil {
		during += fmt.Sprintf(" (95%% interval %s..%s over this run's repetitions)", c.DuringLow, c.DuringHigh)
	}
	return fmt.Sprintf("%s before the fault, %s", c.Before.String(), during)
}

// instanceWords says what a Workflow run's instances did in the phases the fault was
// applied in: the stuck are those an outage left hanging past the drain.
func instanceWords(in *perfv1alpha1.FaultInstances) string {
	stuck := fmt.Sprintf("%d stuck, not ended by the drain after their phase (%s a phase", in.Stuck, in.StuckPerPhase)
	if in.StuckPerPhaseLow != "" {
		stuck += fmt.Sprintf(", 95%% interval %s..%s over this run's repetitions", in.StuckPerPhaseLow, in.StuckPerPhaseHigh)
	}
	return fmt.Sprintf("%d started, %d completed, %d failed, %s)", in.Started, in.Completed, in.Failed, stuck)
}

// podsWord names the pods a kill deleted: a control-plane kill lists every pod of the service.
func podsWord(list string) string {
	if strings.Contains(list, ", ") {
		return "pods " + textfmt.ForTerminal(list)
	}
	return "pod " + textfmt.ForTerminal(list)
}

// replacementWords says what replaced a killed pod, and how soon it was ready.
func replacementWords(k perfv1alpha1.PodKillRecord) string {
	if k.Replacement == "" {
		return "no pod made in its place within the fault's duration"
	}
	if k.ReadyAfter == nil {
		return fmt.Sprintf("replaced by %s, not ready within the fault's duration", textfmt.ForTerminal(k.Replacement))
	}
	return fmt.Sprintf("replaced by %s, ready %s after the order", textfmt.ForTerminal(k.Replacement), textfmt.Dur(k.ReadyAfter))
}

// recoveryWords says how the phases recovered: the mean with its interval over those that
// did, and how many did not or could not be judged.
func recoveryWords(o perfv1alpha1.FaultOutcome) string {
	var parts []string
	if o.Recovery != nil {
		s := fmt.Sprintf("%s after the fault's end", textfmt.Dur(o.Recovery))
		if in := o.RecoveryInterval; in != nil {
			s += fmt.Sprintf(" (95%% interval %s..%s over this run's repetitions)", textfmt.Dur(&in.Low), textfmt.Dur(&in.High))
		}
		parts = append(parts, s+fmt.Sprintf(", %d of %d phases back within their pre-fault band", o.Recovered, o.Applied))
	}
	if o.NotRecovered > 0 {
		parts = append(parts, fmt.Sprintf("%d phases not back within their band by their end", o.NotRecovered))
	}
	if o.Unjudged > 0 {
		parts = append(parts, fmt.Sprintf("%d phases with too few seconds before the fault to judge", o.Unjudged))
	}
	return textfmt.OrDash(strings.Join(parts, "; "))
}

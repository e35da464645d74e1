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
	"cmp"
	"fmt"
	"strings"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	assessed "github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/contract/roles"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// latencyTable is a table with a column per latency figure, and row, which adds a path's
// figures (none for a path without them).
func latencyTable() (*textfmt.Table, func(name string, l *perfv1alpha1.LatencySummary)) {
	t := &textfmt.Table{}
	header := []string{"PATH"}
	for _, f := range perfv1alpha1.LatencyFigures {
		header = append(header, strings.ToUpper(f.Name))
	}
	t.Add(header...)
	return t, func(name string, l *perfv1alpha1.LatencySummary) {
		if l != nil {
			cells := []string{name}
			for _, f := range perfv1alpha1.LatencyFigures {
				cells = append(cells, textfmt.Dur(f.Of(l)))
			}
			t.Add(cells...)
		}
	}
}

// intervalRows puts an interval's low and high ends, indented, under the row they bound; a
// low end below zero as perfv1alpha1.UnresolvedLow (intervalNote says what it means).
func intervalRows(t *textfmt.Table, in *perfv1alpha1.LatencyInterval) {
	if in == nil {
		return
	}
	low := []string{fmt.Sprintf("  %d%% low", in.ConfidencePercent)}
	high := []string{fmt.Sprintf("  %d%% high", in.ConfidencePercent)}
	for _, f := range perfv1alpha1.LatencyFigures {
		low = append(low, perfv1alpha1.LowEnd(f.Of(&in.Low), textfmt.Dur))
		high = append(high, textfmt.Dur(f.Of(&in.High)))
	}
	t.Add(low...)
	t.Add(high...)
}

// intervalNote says what the interval of a figure (whose: "the added latency's") holds and
// which of its ends are approximate; empty without an interval.
func intervalNote(whose string, in *perfv1alpha1.LatencyInterval) string {
	if in == nil {
		return ""
	}
	var b strings.Builder
	if in.Basis == perfv1alpha1.IntervalWithinRunOnly {
		fmt.Fprintf(&b, "%s interval is within-run only (one repetition): a rerun may differ by more\n", whose)
	} else {
		fmt.Fprintf(&b, "%s interval holds across the %d repetitions' spread: this run's, not a rerun's (reruns drift further: docs/measurement.md)\n", whose, in.Repetitions)
	}
	if len(in.Approximate) > 0 {
		fmt.Fprintf(&b, "%s intervals are approximate: %d repetitions, an episodic tail needs %d for its interval to hold at %d%%\n",
			strings.Join(in.Approximate, ", "), in.Repetitions, result.MinRepetitionsForTail, in.ConfidencePercent)
	}
	if u := in.Unresolved(); len(u) > 0 {
		fmt.Fprintf(&b, "%s: the interval reaches below zero (%s), so this run does not resolve whether anything is added there; more repetitions or a longer run narrow it\n",
			strings.Join(u, ", "), perfv1alpha1.UnresolvedLow)
	}
	return b.String()
}

// runTables renders a run's result: latency per path, usage per role.
func runTables(run document.Run) string {
	var b strings.Builder
	res := run.Result()
	fmt.Fprintf(&b, "PerfRun %s/%s: %s, %s\n", run.Namespace, run.Name, textfmt.OrDash(string(run.Status.Phase)), run.Spec.Scenario)
	if env := run.Status.Environment; env != nil && env.Store != "" {
		fmt.Fprintf(&b, "%s: %s\n", storeLabel(run.PerfRun), textfmt.ForTerminal(env.Store))
	}
	if res == nil {
		fmt.Fprintf(&b, "no result yet\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%d requests at %s of %d qps requested, %d errors; latencies to %d significant digits\n\n",
		res.Requests, textfmt.OrDash(res.ActualQPS), res.RequestedQPS, res.Errors, res.LatencySignificantDigits)
	lat, row := latencyTable()
	row("measured", res.Latency)
	row("  service", res.ServiceTime)
	row("  send lag", res.SendLag)
	row("  tester lag", res.TesterLag)
	row("baseline", res.Baseline)
	row("  service", res.BaselineServiceTime)
	row("  send lag", res.BaselineSendLag)
	if res.AddedLimitBound {
		row("added (limit-bound)", res.Added)
	} else {
		row("added", res.Added)
	}
	intervalRows(lat, res.AddedInterval)
	b.WriteString(lat.String())
	b.WriteString("latency is timed from each request's scheduled send to its completion, nothing taken off; service from its actual send\n")
	if res.AddedLimitBound {
		b.WriteString("the added latency is that of a sidecar held at its CPU limit at the requested rate (the Dapr path could not carry it): a queue's, not Dapr's work alone\n")
	}
	b.WriteString(intervalNote("the added latency's", res.AddedInterval))
	b.WriteString(outcomeTable(res))
	b.WriteString(faultsTable(res))
	b.WriteString(trendLines(res))
	b.WriteString(pathsTable(res))
	for _, s := range res.Saturated {
		who := "the path could not carry the rate"
		if assessed.TesterLate(s) {
			who = "the load tester fell behind its schedule"
		}
		claim := "no added latency is claimed"
		if res.AddedLimitBound {
			claim = "the added latency claimed is the CPU limit's (limit-bound)"
		}
		fmt.Fprintf(&b, "SATURATED: the %s path (repetition %d) achieved %s qps, the load tester's own lag p99 %s against a bound of %s: %s; %s\n",
			s.Path, s.Repetition, s.ActualQPS, textfmt.Dur(s.TesterLagP99), textfmt.Dur(s.TesterLagBound), who, claim)
	}
	if e := assessed.ErrorMessage(res); e != "" {
		fmt.Fprintf(&b, "ERRORS: %s\n", e)
	}
	if res.AddedNotClaimed != "" {
		fmt.Fprintf(&b, "NO ADDED LATENCY: %s\n", res.AddedNotClaimed)
	}
	b.WriteString(attributionTable(res))
	b.WriteString(variantsTable(res))
	b.WriteString(loadTestersTable(res))
	b.WriteString(cpuTable(res))
	b.WriteString(disturbancesTable(run.Status.Disturbances))
	for _, part := range []struct {
		title string
		u     *perfv1alpha1.ResourceUsage
	}{{"during the measured runs", res.Resources}, {"during the baseline runs", res.BaselineResources}} {
		if part.u == nil {
			continue
		}
		fmt.Fprintf(&b, "\nresources %s\n", part.title)
		t := &textfmt.Table{}
		t.Add("ROLE", "CPU-AVG", "CPU-MAX", "MEM-AVG", "MEM-MAX", "SAMPLES")
		accounting.EachRole(part.u, func(role roles.Role, ru *perfv1alpha1.RoleUsage) {
			if ru != nil {
				t.Add(string(role), textfmt.Qty(ru.CPUAvg), textfmt.Qty(ru.CPUMax), textfmt.Qty(ru.MemoryAvg), textfmt.Qty(ru.MemoryMax), fmt.Sprint(ru.Samples))
			}
		})
		for _, c := range part.u.ControlPlane {
			t.Add(c.Component, textfmt.Qty(c.Usage.CPUAvg), textfmt.Qty(c.Usage.CPUMax), textfmt.Qty(c.Usage.MemoryAvg), textfmt.Qty(c.Usage.MemoryMax), fmt.Sprint(c.Usage.Samples))
		}
		b.WriteString(t.String())
		if p := part.u.SidecarPer1kQPS; p != nil {
			fmt.Fprintf(&b, "server sidecar per 1000 rps: CPU %s, memory %s\n", textfmt.Qty(p.CPU), textfmt.Qty(p.Memory))
		}
	}
	return b.String()
}

// cpuTable renders each container's CPU and CFS throttling from the kubelet's counters.
func cpuTable(res *perfv1alpha1.Result) string {
	if res.CPU == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nCPU and throttling (%s)\n", res.CPU.Source)
	t := &textfmt.Table{}
	t.Add("PHASES", "ROLE", "CPU", "THROTTLED", "OF PERIODS", "STALLED", "NODE BUSY", "SECONDS")
	for _, row := range cpuRows(res.CPU) {
		t.Add(row...)
	}
	b.WriteString(t.String())
	return b.String()
}

// disturbancesTable lists what happened to the run's and the control plane's pods while
// the load ran, and where in the load.
func disturbancesTable(ds []perfv1alpha1.Disturbance) string {
	if len(ds) == 0 {
		return ""
	}
	t := &textfmt.Table{}
	t.Add("TIME", "WHAT", "ROLE", "POD", "CONTAINER", "PHASE", "DETAIL")
	for _, d := range ds {
		t.Add(d.Time.UTC().Format(time.TimeOnly), string(d.Kind), d.Role, d.Pod, textfmt.OrDash(d.Container), textfmt.OrDash(d.Phase), textfmt.OrDash(d.Detail))
	}
	return "\npods disturbed while the load ran (those in a measured run are named in the verdict)\n" + t.String()
}

// loadTestersTable renders each load-tester pod's share and achieved rate when the load
// was split over several pods.
func loadTestersTable(res *perfv1alpha1.Result) string {
	if len(res.LoadTesters) == 0 {
		return ""
	}
	t := &textfmt.Table{}
	t.Add("POD", "NODE", "QPS-SHARE", "QPS-ACHIEVED")
	for _, p := range res.LoadTesters {
		t.Add(fmt.Sprint(p.Index), textfmt.OrDash(p.Node), p.RequestedQPS, p.ActualQPS)
	}
	return "\nload-tester pods (the latencies above are every pod's requests together)\n" + t.String()
}

// variantsTable renders the sidecar variants of a run that compared them: each one's
// latency, added latency and sidecar CPU, and its difference from the first.
func variantsTable(res *perfv1alpha1.Result) string {
	if len(res.Variants) == 0 {
		return ""
	}
	t := &textfmt.Table{}
	header := []string{"VARIANT", "QPS", "ERRORS", "P50", "P90", "P99", "ADDED-P90", "SIDECAR-CPU/1K", "DIFF-P50", "DIFF-P90", "DIFF-P99", "BEYOND-NOISE"}
	policies := underResiliency(res.Variants)
	if policies {
		header = append(header, "RESILIENCY")
	}
	t.Add(header...)
	for _, v := range res.Variants {
		l, a, d := pickOrEmpty(v.Latency), pickOrEmpty(v.Added), pickOrEmpty(v.Difference)
		cpu := "-"
		if v.Resources != nil && v.Resources.SidecarPer1kQPS != nil {
			cpu = textfmt.Qty(v.Resources.SidecarPer1kQPS.CPU)
		}
		beyond := strings.Join(v.BeyondNoise, ",")
		if v.Difference != nil && beyond == "" {
			beyond = "none"
		}
		row := []string{v.Name, textfmt.OrDash(v.ActualQPS), fmt.Sprint(v.Errors), textfmt.Dur(l.P50), textfmt.Dur(l.P90), textfmt.Dur(l.P99), textfmt.Dur(a.P90), cpu,
			textfmt.Dur(d.P50), textfmt.Dur(d.P90), textfmt.Dur(d.P99), textfmt.OrDash(beyond)}
		if policies {
			row = append(row, resiliencyOf(v))
		}
		t.Add(row...)
	}
	return "\nsidecar variants (DIFF: this variant minus the first, beyond noise where its 95% interval excludes zero)\n" + t.String()
}

func pickOrEmpty(l *perfv1alpha1.LatencySummary) perfv1alpha1.LatencySummary {
	if l == nil {
		return perfv1alpha1.LatencySummary{}
	}
	return *l
}

// sweepTable renders a sweep's points in the order of the curve.
func sweepTable(sw sweep.Measured) string {
	var b strings.Builder
	fmt.Fprintf(&b, "PerfSweep %s/%s: %s, %d of %d points measured\n", sw.Namespace, sw.Name, textfmt.OrDash(string(sw.Status.Phase)), sw.Status.Measured, len(sw.Status.Points))
	if sw.Spec.Search != nil && sw.Status.MaxSustainableQPS != nil {
		fmt.Fprintf(&b, "highest rate meeting the objective: %d qps", *sw.Status.MaxSustainableQPS)
		if f := sw.Status.FirstFailingQPS; f != nil {
			fmt.Fprintf(&b, " (first failing: %d qps)", *f)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	t := &textfmt.Table{}
	// An asynchronous scenario's points carry what their calls started (its delivery,
	// completion or lateness) beside the calls' own latency.
	outcome := perfv1alpha1.CapabilityOf(sw.Spec.Template.Spec.Scenario).Outcome
	header := []string{"STEP", "SETTING", "CONNECTIONS", "QPS", "PHASE", "ACTUAL", "ERRORS", "P50", "P90", "P99"}
	if outcome != nil {
		header = append(header, outcome.Column+" P50", outcome.Column+" P99")
	}
	t.Add(append(header, "BASELINE P90", "ADDED P90", "ADDED P90 95%", "SIDECAR CPU/1K", "OBJECTIVE")...)
	for _, p := range sw.Points {
		l, base, added := pick(p.Latency), pick(p.Baseline), pick(p.Added)
		interval := "-"
		if p.AddedLow != nil && p.AddedHigh != nil {
			interval = textfmt.Dur(p.AddedLow.P90) + ".." + textfmt.Dur(p.AddedHigh.P90)
		}
		objective := "-"
		if p.Passed != nil {
			objective = map[bool]string{true: "met", false: "missed: " + p.Message}[*p.Passed]
		}
		row := []string{fmt.Sprint(p.Step), textfmt.OrDash(p.Setting), textfmt.OrDash(intOrEmpty(p.Connections)), fmt.Sprint(p.QPS), textfmt.OrDash(string(p.Phase)), textfmt.OrDash(p.ActualQPS),
			fmt.Sprint(p.Errors), textfmt.Dur(l.P50), textfmt.Dur(l.P90), textfmt.Dur(l.P99)}
		if outcome != nil {
			o := pick(p.Outcome)
			row = append(row, textfmt.Dur(o.P50), textfmt.Dur(o.P99))
		}
		t.Add(append(row, textfmt.Dur(base.P90), textfmt.Dur(added.P90), interval, textfmt.Qty(p.SidecarCPUPer1kQPS), objective)...)
	}
	b.WriteString(t.String())
	b.WriteString(settingsTable(sw))
	return b.String()
}

func pick(l *perfv1alpha1.PointLatency) perfv1alpha1.PointLatency {
	if l == nil {
		return perfv1alpha1.PointLatency{}
	}
	return *l
}

func intOrEmpty(v int32) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprint(v)
}

// pathsTable accounts for every scheduled request of each path, and the load tester's own
// lag; empty for a result without the accounting.
func pathsTable(res *perfv1alpha1.Result) string {
	if len(res.Paths) == 0 {
		return ""
	}
	t := &textfmt.Table{}
	t.Add("PATH", "SCHEDULED", "SENT", "COMPLETED", "FAILED", "NEVER SENT", "TESTER LAG P99")
	for _, p := range res.Paths {
		t.Add(p.Path, fmt.Sprint(p.Scheduled), fmt.Sprint(p.Sent), fmt.Sprint(p.Completed), fmt.Sprint(p.Failed), fmt.Sprint(p.Unsent), textfmt.Dur(p.TesterLagP99))
	}
	return "\n" + t.String()
}

// cpuRows are the CPU accounting's rows, for the terminal's table and the HTML report's:
// phases, role (and pod), CPU, throttled share, periods, time stalled, node busy, seconds.
func cpuRows(acct *perfv1alpha1.CPUAccounting) [][]string {
	type part struct {
		name string
		cpu  []perfv1alpha1.ContainerCPU
	}
	parts := []part{{"measured", acct.Measured}, {"measured, per pod", acct.MeasuredPods}}
	for _, v := range acct.Variants {
		parts = append(parts, part{"variant " + v.Name, v.Measured})
	}
	parts = append(parts, part{"baseline", acct.Baseline})
	var rows [][]string
	for _, part := range parts {
		for _, c := range part.cpu {
			role := c.Role
			if c.Pod != "" {
				role += " (" + c.Pod + ")"
			}
			throttled, stalled, busy := "-", "-", "-"
			if c.ThrottledPeriodsPercent != "" {
				throttled = c.ThrottledPeriodsPercent + "%"
			}
			if c.Throttled != nil {
				stalled = c.Throttled.Duration.String()
			}
			if c.CapacityPercent != "" {
				busy = c.CapacityPercent + "%"
			}
			rows = append(rows, []string{part.name, role, c.CPU.String(), throttled, fmt.Sprint(c.Periods), stalled, busy, fmt.Sprint(c.Seconds)})
		}
	}
	return rows
}

// storeLabel names what a run without a target app loads: its state store or its broker.
func storeLabel(run *perfv1alpha1.PerfRun) string {
	c := perfv1alpha1.CapabilityOf(run.Spec.Scenario)
	return cmp.Or(c.StoreTitle, c.Store, "store")
}

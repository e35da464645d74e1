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

// Package report turns the load tester's summary into status.result and the one-line
// headline of a finished run.
package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	"github.com/daprbench/daprbench/internal/assess/repetitions"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// Inputs are what a result is made of, each read or computed once by the controller.
type Inputs struct {
	// Summary is the load tester's, decoded from its leader's termination message.
	Summary *result.Summary
	// Restarts counts the run's container restarts.
	Restarts *perfv1alpha1.Restarts
	// TesterNodes is the node of each load-tester pod, by completion index.
	TesterNodes map[int32]string
	// Usage is the metrics API's windows attributed to each variant's measured runs (nil:
	// none could be).
	Usage map[string]*perfv1alpha1.ResourceUsage
	// CPU is the kubelet's counters differenced at the measured runs' edges (nil: none).
	CPU *perfv1alpha1.CPUAccounting
	// Faults are the load tester's timelines and applied faults (spec.faults; empty: none).
	Faults Faults
	// MemoryTrends are the sidecars' working-set slopes over a long measured load (nil:
	// none fitted).
	MemoryTrends []perfv1alpha1.MemoryTrend
	// DaprdTrends are the daprds' goroutines and open files over a long measured load (nil:
	// none fitted).
	DaprdTrends []perfv1alpha1.DaprdTrend
	// LatencyDrift is the measured path's p90 over a long measured load (nil: none fitted).
	LatencyDrift *perfv1alpha1.LatencyDrift
	// VariantResiliencies name, by variant name, the Resiliencies its invocations ran under.
	VariantResiliencies map[string][]string
}

// Build makes status.result, whole, from its inputs: each path's latency over every
// request (merged histograms), the added latency with its interval, the spread of
// repetitions when there is more than one, and the usage the load cost.
func Build(run *perfv1alpha1.PerfRun, in Inputs) *perfv1alpha1.Result {
	res := latencyResult(run, in.Summary)
	res.Restarts = in.Restarts
	res.Faults, _ = faultOutcomes(run, in.Faults) // its one error, ReadFrame refuses
	for i := range res.Variants {
		res.Variants[i].Resiliencies = in.VariantResiliencies[res.Variants[i].Name]
	}
	for i := range res.LoadTesters {
		res.LoadTesters[i].Node = in.TesterNodes[res.LoadTesters[i].Index]
	}
	res.CPU = in.CPU
	res.ForeignCPU = foreignCPU(run.Status.Environment, in.CPU)
	m, _ := repetitions.Of(in.Summary, MeasuredVariant(run))
	addUsage(run, res, in.Usage, m.ActualQPS)
	res.MemoryTrends = in.MemoryTrends
	res.DaprdTrends = in.DaprdTrends
	res.LatencyDrift = in.LatencyDrift
	res.SidecarCost = sidecarCosts(run, in.CPU, in.Summary, completedRate(in.Summary, MeasuredVariant(run), m))
	if in.CPU != nil {
		// The measured path's: with sidecar variants the first's, whose latency added holds.
		res.LimitBound = len(ThrottledContainers(in.CPU.Measured).Bound) > 0
	}
	if res.Added == nil && addedIsTheLimits(run, res, in.Summary) {
		res.Added, res.AddedInterval = addedOf(in.Summary.Added)
		res.AddedLimitBound = true
	}
	return res
}

// completedRate is the measured path's rate of completed requests over its runs together:
// their successes over their seconds, so repetitions that carried different rates (one
// throttled, one not) weigh as the CPU counters over the same runs do. Without the runs'
// durations (an older load tester's summary): the median rate times the success share.
func completedRate(sum *result.Summary, v result.Variant, m repetitions.Spread) float64 {
	var completed int64
	var seconds float64
	for _, r := range sum.Runs {
		if r.Variant == v {
			completed += r.Requests - r.Errors
			seconds += r.Seconds
		}
	}
	if seconds > 0 {
		return float64(completed) / seconds
	}
	if m.Requests == 0 {
		return m.ActualQPS
	}
	return m.ActualQPS * float64(m.Requests-m.Errors) / float64(m.Requests)
}

// addedIsTheLimits reports whether a saturated run's added latency can still be claimed as
// that of a sidecar held at its CPU limit: only the Dapr path fell behind, its load tester
// was on time (the path, not the tester, could not carry the rate), the baseline carried
// the rate, no path failed beyond its share, and a sidecar was throttled by its limit. The
// latency is then timed from each scheduled send at the requested rate: a queue's, which
// is what a user of that limit at that rate would see.
func addedIsTheLimits(run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result, sum *result.Summary) bool {
	if sum.Added == nil || len(res.Saturated) == 0 || len(sum.ErroringPaths()) > 0 || MeasuredVariant(run) != result.Dapr ||
		len(run.Spec.Variants) > 0 || len(laggingPods(res)) > 0 || res.CPU == nil {
		return false
	}
	if _, late := sum.LateTester(); len(late) > 0 {
		return false // the tester's lateness is in every figure: too late, nothing is claimed
	}
	for _, s := range res.Saturated {
		// The tester's own lag must be known (an older load tester's summary lacks it).
		if s.Path != PathName(run, result.Dapr) || s.TesterLagP99 == nil || s.TesterLagP99.Duration <= 0 || TesterLate(s) {
			return false
		}
	}
	// The sidecar's limit, and nothing else found: no app throttled, no node near full.
	return onlySidecarsBound(res.CPU.Measured) && len(busyNodes(res.CPU.Measured)) == 0
}

// addUsage puts each variant's usage beside its latency, with the sidecar's CPU per 1000
// rps of the rate that variant actually carried (measuredQPS for the measured path, unrounded).
func addUsage(run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result, byVariant map[string]*perfv1alpha1.ResourceUsage, measuredQPS float64) {
	measured := byVariant[string(MeasuredVariant(run))]
	if measured == nil {
		return // no figure without the measured path's
	}
	sidecar := measured.ServerSidecar
	if sidecar == nil {
		sidecar = measured.ClientSidecar // a run without a target (State): its one sidecar is the load tester's
	}
	measured.SidecarPer1kQPS = accounting.Per1kQPS(sidecar, measuredQPS)
	res.Resources = measured
	for i := range res.Variants {
		v := &res.Variants[i]
		if u := byVariant[string(result.DaprVariant(i))]; u != nil {
			q, _ := v.ActualRate()
			v.Resources = &perfv1alpha1.ResourceUsage{ServerApp: u.ServerApp, ServerSidecar: u.ServerSidecar,
				SidecarPer1kQPS: accounting.Per1kQPS(u.ServerSidecar, q)}
		}
	}
	res.BaselineResources = byVariant[string(result.Baseline)]
}

// latencyResult maps the summary's figures.
func latencyResult(run *perfv1alpha1.PerfRun, sum *result.Summary) *perfv1alpha1.Result {
	res := &perfv1alpha1.Result{Generation: run.Generation, RequestedQPS: run.Spec.Load.QPS,
		LatencySignificantDigits: int32(sum.Digits)}
	measured := MeasuredVariant(run)
	var spread perfv1alpha1.Spread
	reps := 0
	if m, ok := repetitions.Of(sum, measured); ok {
		reps = m.Reps
		res.ActualQPS = formatQPS(m.ActualQPS)
		if q := measuredRequested(sum, measured); q < float64(res.RequestedQPS) {
			res.MeasuredRequestedQPS = formatQPS(q)
		}
		res.Requests, res.Errors = m.Requests, m.Errors
		res.ReturnCodes = sum.CodesOf(measured)
		spread.Latency = rangeOf(m.Latency)
	}
	if m, ok := sum.MergedOf(measured); ok {
		res.Latency, res.ServiceTime, res.SendLag, res.TesterLag = summarize(m), spectrum(m.Service), spectrum(m.Lag), spectrum(m.TesterLag)
	}
	if b, ok := repetitions.Of(sum, result.Baseline); ok {
		res.BaselineActualQPS = formatQPS(b.ActualQPS)
		spread.Baseline = rangeOf(b.Latency)
	}
	if m, ok := sum.MergedOf(result.Baseline); ok {
		res.Baseline, res.BaselineServiceTime, res.BaselineSendLag = summarize(m), spectrum(m.Service), spectrum(m.Lag)
	}
	res.Saturated = saturatedOf(run, sum)
	res.Paths = pathsOf(run, sum)
	erroring := len(sum.ErroringPaths()) > 0
	limit, late := sum.LateTester()
	if limit > 0 {
		res.TesterLatenessLimit = duration(limit)
	}
	res.TesterLagDifference = testerLagDifference(sum, measured)
	res.BaselineMethod = baselineMethod(run)
	if d, err := run.KnownAnswerDelay(); err == nil && d > 0 {
		res.KnownAnswerDelay = duration(d)
	}
	if a := sum.Added; a != nil && len(res.Saturated) == 0 && !erroring {
		if len(late) > 0 {
			res.AddedNotClaimed = latenessMessage(run, limit, late)
		} else {
			res.Added, res.AddedInterval = addedOf(a)
		}
	}
	res.Triggers = triggersOf(run, sum)
	if host := perfv1alpha1.CapabilityOf(run.Spec.Scenario).ActorHost; host != nil {
		res.ActorHost = host(&run.Spec)
	}
	if res.Completion = completionOf(run, sum); res.Completion == nil && res.Triggers == nil {
		res.Delivery = deliveryOf(sum, len(res.Saturated) == 0 && !erroring && res.AddedNotClaimed == "")
	}
	if reps > 1 {
		res.Spread = &spread
	}
	res.FirstRepetitions = firstRepetitions(run, sum)
	res.Repetitions = repetitionsOf(run, sum)
	res.Variants = variantsOf(run, sum)
	if len(res.Saturated) == 0 && !erroring && res.AddedNotClaimed == "" {
		res.Attribution = attributionOf(sum)
	}
	if len(res.Saturated) > 0 || erroring || res.AddedNotClaimed != "" {
		// A rate that was not carried, a path whose successes are not its requests, or a
		// tester too late for its figures has no added latency to claim, for any variant.
		for i := range res.Variants {
			v := &res.Variants[i]
			v.Added, v.AddedInterval, v.Difference, v.DifferenceInterval, v.BeyondNoise = nil, nil, nil, nil, nil
		}
	}
	for _, p := range sum.Pods {
		res.LoadTesters = append(res.LoadTesters, perfv1alpha1.LoadTesterPod{
			Index: int32(p.Pod), RequestedQPS: formatQPS(p.RequestedQPS), ActualQPS: formatQPS(p.ActualQPS)})
	}
	return res
}

// laggingShare is how far below its share a load-tester pod's rate may fall before the
// headline names it.
const laggingShare = 0.95

// laggingPods names the load-tester pods that sent less than laggingShare of their share.
func laggingPods(res *perfv1alpha1.Result) []string {
	var out []string
	for _, p := range res.LoadTesters {
		want, ok1 := perfv1alpha1.Rate(p.RequestedQPS)
		got, ok2 := perfv1alpha1.Rate(p.ActualQPS)
		if ok1 && ok2 && got < laggingShare*want {
			out = append(out, fmt.Sprintf("load-tester pod %d sent %s of its %s qps", p.Index, p.ActualQPS, p.RequestedQPS))
		}
	}
	return out
}

// addedOf maps the added latency and its interval; there is no added max.
func addedOf(a *result.Added) (*perfv1alpha1.LatencySummary, *perfv1alpha1.LatencyInterval) {
	pick := func(us func(result.Interval) int64) *perfv1alpha1.LatencySummary {
		at := func(p float64) *metav1.Duration {
			if v, ok := a.At(p); ok {
				return micros(us(v))
			}
			return nil
		}
		return perfv1alpha1.SummaryAt(at, micros(us(a.Avg)), nil)
	}
	point := pick(func(i result.Interval) int64 { return i.Us })
	basis := perfv1alpha1.IntervalBetweenRepetitions
	if a.Reps < 2 {
		basis = perfv1alpha1.IntervalWithinRunOnly
	}
	var approximate []string
	if a.Reps < result.MinRepetitionsForTail {
		for _, ap := range a.Percentiles {
			if result.TailPercentile(ap.P) {
				for _, f := range perfv1alpha1.LatencyPercentiles {
					if result.SamePercentile(f.Percentile, ap.P) {
						approximate = append(approximate, f.Name)
					}
				}
			}
		}
	}
	return point, &perfv1alpha1.LatencyInterval{
		ConfidencePercent: int32(math.Round(a.Confidence * 100)),
		Basis:             basis,
		Repetitions:       int32(a.Reps),
		Approximate:       approximate,
		Low:               *pick(func(i result.Interval) int64 { return i.LowUs }),
		High:              *pick(func(i result.Interval) int64 { return i.HighUs }),
	}
}

// MeasuredVariant is the path status.result.latency reports: through Dapr, or direct.
func MeasuredVariant(run *perfv1alpha1.PerfRun) result.Variant {
	if run.Spec.DaprEnabled() {
		return result.Dapr
	}
	return result.Direct
}

// summarize maps a variant's merged latency.
func summarize(m result.Merged) *perfv1alpha1.LatencySummary {
	at := func(p float64) *metav1.Duration {
		if v, ok := m.Latency(p); ok {
			return duration(v)
		}
		return nil
	}
	return perfv1alpha1.SummaryAt(at, micros(m.AvgUs), micros(m.MaxUs))
}

// spectrum maps a service-time or send-lag distribution; nil when it was not recorded.
func spectrum(s result.Spectrum) *perfv1alpha1.LatencySummary {
	if len(s.Percentiles) == 0 {
		return nil
	}
	return summarize(result.Merged{Percentiles: s.Percentiles, AvgUs: s.AvgUs, MaxUs: s.MaxUs})
}

// saturatedOf names the paths whose load tester fell behind its schedule.
func saturatedOf(run *perfv1alpha1.PerfRun, sum *result.Summary) []perfv1alpha1.SaturatedPath {
	var out []perfv1alpha1.SaturatedPath
	for _, s := range sum.Saturated() {
		out = append(out, perfv1alpha1.SaturatedPath{Path: PathName(run, s.Variant), Repetition: int32(s.Rep + 1),
			ActualQPS: formatQPS(s.ActualQPS), SendLagP99: duration(s.LagP99), Gap: duration(s.Gap),
			TesterLagP99: duration(s.TesterLagP99), TesterLagBound: duration(s.Bound)})
	}
	return out
}

// pathsOf accounts for every scheduled request of each path, in the order the runs list
// them; nil for a summary without schedules (an older load tester's).
func pathsOf(run *perfv1alpha1.PerfRun, sum *result.Summary) []perfv1alpha1.PathAccounting {
	var out []perfv1alpha1.PathAccounting
	index := map[result.Variant]int{}
	for _, r := range sum.Runs {
		if r.Scheduled == 0 {
			return nil
		}
		i, ok := index[r.Variant]
		if !ok {
			i = len(out)
			index[r.Variant] = i
			out = append(out, perfv1alpha1.PathAccounting{Path: PathName(run, r.Variant)})
		}
		p := &out[i]
		p.Scheduled += r.Scheduled
		p.Sent += r.Requests
		p.Failed += r.Errors
		p.Completed += r.Requests - r.Errors
		p.Unsent += r.Unsent()
		lag := time.Duration(r.TesterLagP99Us) * time.Microsecond
		if p.TesterLagP99 == nil || lag > p.TesterLagP99.Duration {
			p.TesterLagP99 = duration(lag)
		}
	}
	return out
}

// PathName is a variant's name as a reader knows it: baseline, dapr, direct, or the name
// of a sidecar variant in spec.variants.
func PathName(run *perfv1alpha1.PerfRun, v result.Variant) string {
	for i, sv := range run.Spec.Variants {
		if result.DaprVariant(i) == v {
			return sv.Name
		}
	}
	return v.String()
}

// repetitionsOf is every run of the summary, as the document lists them.
func repetitionsOf(run *perfv1alpha1.PerfRun, sum *result.Summary) []perfv1alpha1.RepetitionResult {
	var out []perfv1alpha1.RepetitionResult
	at := func(unix int64) *metav1.Time {
		if unix <= 0 {
			return nil
		}
		return &metav1.Time{Time: time.Unix(unix, 0).UTC()}
	}
	cpu := func(ms *int64) *metav1.Duration {
		if ms == nil {
			return nil
		}
		return duration(time.Duration(*ms) * time.Millisecond)
	}
	for _, r := range sum.Runs {
		rr := perfv1alpha1.RepetitionResult{Path: PathName(run, r.Variant), Repetition: int32(r.Rep + 1), Start: at(r.StartUnix),
			SecondHalfStart: at(r.SecondHalfUnix), ActualQPS: formatQPS(r.ActualQPS), Requests: r.Requests, Errors: r.Errors,
			Scheduled: r.Scheduled, ReturnCodes: r.Codes}
		if r.LagP99Us > 0 { // the wire omits a zero: recorded on time, or not recorded
			rr.SendLagP99 = micros(r.LagP99Us)
		}
		if r.TesterLagP99Us > 0 {
			rr.TesterLagP99 = micros(r.TesterLagP99Us)
		}
		if r.Seconds > 0 {
			rr.Duration = duration(time.Duration(r.Seconds * float64(time.Second)))
		}
		if len(r.Percentiles) > 0 {
			rr.Latency = summarize(result.Merged{Percentiles: r.Percentiles, AvgUs: r.AvgUs, MaxUs: r.MaxUs})
		}
		if d := r.DaprdCPU; d != nil {
			rr.ServerSidecarCPU, rr.ClientSidecarCPU = cpu(d.ServerMs), cpu(d.ClientMs)
		}
		out = append(out, rr)
	}
	return out
}

// rangeOf is the lowest and highest value of each percentile over repetitions.
func rangeOf(l repetitions.Latencies) *perfv1alpha1.LatencyRange {
	pick := func(f func(repetitions.Stat) time.Duration) perfv1alpha1.LatencySummary {
		at := func(p float64) *metav1.Duration {
			if s, ok := l.Percentile(p); ok {
				return duration(f(s))
			}
			return nil
		}
		return *perfv1alpha1.SummaryAt(at, duration(f(l.Avg)), duration(f(l.Max)))
	}
	return &perfv1alpha1.LatencyRange{
		Min: pick(func(s repetitions.Stat) time.Duration { return s.Min }),
		Max: pick(func(s repetitions.Stat) time.Duration { return s.Max }),
	}
}

func micros(us int64) *metav1.Duration { return duration(time.Duration(us) * time.Microsecond) }

// duration rounds to the microsecond, the summary's precision.
func duration(d time.Duration) *metav1.Duration {
	return &metav1.Duration{Duration: d.Round(time.Microsecond)}
}

func formatQPS(q float64) string { return strconv.FormatFloat(q, 'f', 1, 64) }

// SaturationMessage says which paths could not keep the schedule, and by how much; empty
// when every path kept it.
func SaturationMessage(res *perfv1alpha1.Result) string {
	if res == nil || len(res.Saturated) == 0 {
		return ""
	}
	var parts []string
	for _, s := range res.Saturated {
		who := "the path could not carry the rate"
		if TesterLate(s) {
			who = "the load tester fell behind its schedule"
		}
		parts = append(parts, fmt.Sprintf("%s path (repetition %d) achieved %s of %d qps, the load tester's own lag p99 %s against a bound of %s: %s",
			s.Path, s.Repetition, s.ActualQPS, res.RequestedQPS, str(s.TesterLagP99), str(s.TesterLagBound), who))
	}
	if res.AddedLimitBound {
		return "saturated: " + strings.Join(parts, "; ") + " — the requested rate was not carried because a sidecar's CPU limit throttled it, " +
			"so the added latency claimed is the limit's: a sidecar held at its limit, queueing at the requested rate"
	}
	return "saturated: " + strings.Join(parts, "; ") + " — the requested rate was not carried, so no added latency is claimed"
}

// latenessMessage says why a run claims no added latency when its load tester was later
// than its limit.
func latenessMessage(run *perfv1alpha1.PerfRun, limit time.Duration, late []result.LatePath) string {
	var parts []string
	for _, l := range late {
		parts = append(parts, fmt.Sprintf("%s path p%d %v", PathName(run, l.Variant), result.LatenessPercentile, l.TesterLag.Round(time.Microsecond)))
	}
	return fmt.Sprintf("the load tester's own lateness passed its limit of %v at p%d (a tenth of the baseline's p50, at least %v): %s — "+
		"latency is timed from the scheduled send with nothing taken off, so no added latency is claimed; "+
		"give the load tester more CPU (spec.loadTester.resources) or a node of its own",
		limit.Round(time.Microsecond), result.LatenessPercentile, result.LatenessFloor, strings.Join(parts, ", "))
}

// TesterLate reports whether a saturated path's load tester itself was late beyond its
// bound (otherwise the path, on time, could not carry the rate).
func TesterLate(s perfv1alpha1.SaturatedPath) bool {
	return s.TesterLagP99 != nil && s.TesterLagBound != nil && s.TesterLagP99.Duration > s.TesterLagBound.Duration
}

// ErrorMessage names the paths that failed more than result.MaxErrorShare of their
// requests; empty when none did.
func ErrorMessage(res *perfv1alpha1.Result) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, p := range res.Paths {
		if p.Sent > 0 && float64(p.Failed) > result.MaxErrorShare*float64(p.Sent) {
			parts = append(parts, fmt.Sprintf("%s path failed %d of %d requests (%.1f%%)", p.Path, p.Failed, p.Sent, 100*float64(p.Failed)/float64(p.Sent)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%s — above %.0f%% failed, latency over the successes does not stand for the path, so no added latency is claimed",
		strings.Join(parts, "; "), 100*result.MaxErrorShare)
}

// ScheduleMessage is the Saturated condition's message when every path kept the schedule.
func ScheduleMessage(res *perfv1alpha1.Result) string {
	if res == nil || res.SendLag == nil {
		return "every path carried the requested rate"
	}
	msg := fmt.Sprintf("every path carried %d qps on schedule (measured path: %s qps, send-lag p99 %s",
		res.RequestedQPS, res.ActualQPS, str(res.SendLag.P99))
	if lost := lostShare(res); lost != "" {
		msg = fmt.Sprintf("every path carried the rate of the load-tester pods it measured on schedule (%s; measured path: %s qps, send-lag p99 %s",
			lost, res.ActualQPS, str(res.SendLag.P99))
	}
	if res.TesterLag != nil {
		msg += fmt.Sprintf(", the load tester's own lag p99 %s", str(res.TesterLag.P99))
	}
	return msg + ")"
}

// measuredRequested is the median over variant's runs of the rate each asked of the pods
// whose requests it holds (the whole rate, unless a kill lost a pod's).
func measuredRequested(sum *result.Summary, variant result.Variant) float64 {
	var qps []float64
	for _, r := range sum.Runs {
		if r.Variant == variant {
			qps = append(qps, r.Requested(sum.RequestedQPS))
		}
	}
	return repetitions.Median(qps)
}

// lostShare says that a LoadTester kill left its phases with the other pods' requests
// only (empty: no phase lost a pod's).
func lostShare(res *perfv1alpha1.Result) string {
	for _, o := range res.Faults {
		for _, k := range o.Kills {
			if k.MeasuredQPS != "" {
				return fmt.Sprintf("a killed load-tester pod's requests are not counted in the phases it was killed in, which measured the other pods' %s qps", k.MeasuredQPS)
			}
		}
	}
	return ""
}

// Headline is the Succeeded condition's message: the numbers a reader wants first.
func Headline(res *perfv1alpha1.Result) string {
	if res == nil || res.Latency == nil {
		return "finished"
	}
	msg := fmt.Sprintf("%d requests at %s/%d qps, %d errors; p50 %s, p90 %s, p99 %s from the scheduled send",
		res.Requests, res.ActualQPS, res.RequestedQPS, res.Errors, str(res.Latency.P50), str(res.Latency.P90), str(res.Latency.P99))
	if st := res.ServiceTime; st != nil {
		msg += fmt.Sprintf(" (service time p99 %s)", str(st.P99))
	}
	if lost := lostShare(res); lost != "" {
		msg += "; " + lost
	}
	if sat := SaturationMessage(res); sat != "" {
		msg += "; " + sat
	}
	if e := ErrorMessage(res); e != "" {
		msg += "; " + e
	}
	if res.AddedNotClaimed != "" {
		msg += "; " + res.AddedNotClaimed
	}
	if w := WarmupMessage(res); w != "" {
		msg += "; " + w
	}
	if res.Added != nil {
		label := "added by Dapr"
		if res.AddedLimitBound {
			label = "added by Dapr held at its CPU limit (limit-bound)"
		}
		msg += fmt.Sprintf("; %s p90 %s, p99 %s", label, withInterval(res, perfv1alpha1.FigureP90.Of), withInterval(res, perfv1alpha1.FigureP99.Of))
		if res.BaselineMethod != "" {
			msg += " (" + res.BaselineMethod + ": a difference of method beside Dapr's cost)"
		}
		if in := res.AddedInterval; in != nil && in.Basis == perfv1alpha1.IntervalWithinRunOnly {
			msg += " (within-run intervals)"
		}
		if in := res.AddedInterval; in != nil && len(in.Approximate) > 0 {
			msg += fmt.Sprintf(" (%s intervals approximate: %d repetitions, a tail's needs %d)",
				strings.Join(in.Approximate, ", "), in.Repetitions, result.MinRepetitionsForTail)
		}
		if noise := withinNoise(res); len(noise) > 0 {
			msg += "; " + strings.Join(noise, ", ") + " within noise: Dapr's cost there cannot be told from zero"
		}
	}
	if d := res.KnownAnswerDelay; d != nil {
		msg += fmt.Sprintf("; a known answer, not Dapr's cost: every call or delivery through Dapr was held %v on purpose (annotation %s)",
			d.Duration, perfv1alpha1.AnnotationKnownAnswerDelay)
	}
	if v := VariantsHeadline(res); v != "" {
		msg += "; variants: " + v
	}
	if a := AttributionHeadline(res); a != "" {
		msg += "; " + a
	}
	if lag := laggingPods(res); len(lag) > 0 {
		msg += "; " + strings.Join(lag, ", ")
	}
	if c := CostMessage(res); c != "" {
		msg += "; " + c
	}
	if b := BoundedBy(res); b != "" {
		msg += "; " + b
	}
	return msg
}

// withInterval formats an added figure with its interval, e.g. "1.2ms [0.9ms, 1.6ms]".
func withInterval(res *perfv1alpha1.Result, pick func(*perfv1alpha1.LatencySummary) *metav1.Duration) string {
	point := str(pick(res.Added))
	if in := res.AddedInterval; in != nil && pick(&in.Low) != nil && pick(&in.High) != nil {
		return fmt.Sprintf("%s [%s, %s]", point, perfv1alpha1.LowEnd(pick(&in.Low), str), str(pick(&in.High)))
	}
	return point
}

// withinNoise names the added figures whose interval reaches zero or below, with the interval.
func withinNoise(res *perfv1alpha1.Result) []string {
	in := res.AddedInterval
	if in == nil {
		return nil
	}
	var out []string
	for _, f := range perfv1alpha1.PercentilesAndMean {
		if low := f.Of(&in.Low); low != nil && low.Duration <= 0 {
			out = append(out, "added "+f.Name+" "+withInterval(res, f.Of))
		}
	}
	return out
}

func str(d *metav1.Duration) string {
	if d == nil {
		return "-"
	}
	return d.Duration.String()
}

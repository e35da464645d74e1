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
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/faults"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// Faults are what the load tester reported of spec.faults: each measured phase's seconds,
// and each fault as it was applied.
type Faults struct {
	Timelines []result.Timeline
	Applied   []result.AppliedFault
}

// faultOutcomes are status.result.faults: what each fault did to each path it was applied
// to. An error only for a report ReadFrame refuses (a fault applied in a phase without a
// timeline), so it cannot reach here from a load tester.
func faultOutcomes(run *perfv1alpha1.PerfRun, in Faults) ([]perfv1alpha1.FaultOutcome, error) {
	if len(in.Applied) == 0 {
		return nil, nil
	}
	judged, err := faults.Judge(in.Timelines, in.Applied)
	if err != nil {
		return nil, err
	}
	var out []perfv1alpha1.FaultOutcome
	for _, o := range judged {
		fo := perfv1alpha1.FaultOutcome{Fault: int32(o.Fault), Path: PathName(run, o.Variant), Applied: int32(o.Applied), NotApplied: o.NotApplied,
			Before: faultWindow(o.Before), During: faultWindow(o.During), After: faultWindow(o.After),
			Recovered: int32(len(o.Recoveries)), NotRecovered: int32(o.NotRecovered), Unjudged: int32(o.NoBand)}
		if o.Fault < len(run.Spec.Faults) {
			fo.Kind = run.Spec.Faults[o.Fault].Kind
		}
		if len(o.Recoveries) > 0 {
			fo.Recovery = duration(seconds(o.Recovery.Mean))
			fo.SlowestRecovery = duration(slices.Max(o.Recoveries))
		}
		if o.RecoveryOK {
			// A recovery takes no less than nothing: the t interval's low end stops at 0.
			fo.RecoveryInterval = &perfv1alpha1.DurationInterval{Low: *duration(seconds(max(o.Recovery.Low, 0))), High: *duration(seconds(o.Recovery.High))}
		}
		if o.Amplification.Repetitions > 0 {
			fo.Amplification = ratio(o.Amplification.Mean)
		}
		if o.AmplificationOK {
			fo.AmplificationLow, fo.AmplificationHigh = ratio(o.Amplification.Low), ratio(o.Amplification.High)
		}
		if kind := perfv1alpha1.CapabilityOf(run.Spec.Scenario).Outcome; kind != nil && kind.FaultInstances {
			fo.Instances = faultInstances(o)
		} else {
			fo.Messages = faultMessages(o)
		}
		fo.DaprdCPU = faultDaprdCPU(o)
		fo.Kills = kills(in.Applied, o.Fault, o.Variant)
		fo.Timeline = faultTimeline(o.Seconds)
		out = append(out, fo)
	}
	return out, nil
}

// faultMessages are a PubSub outcome's messages as the result keeps them; nil without any.
func faultMessages(o faults.Outcome) *perfv1alpha1.FaultMessages {
	m := o.Messages
	if m == nil {
		return nil
	}
	out := &perfv1alpha1.FaultMessages{Published: m.Published, Lost: m.Lost, Duplicated: m.Duplicated,
		LostPerPhase: strconv.FormatFloat(o.LostPerPhase.Mean, 'f', 1, 64)}
	if o.LostPerPhaseOK {
		// No phase loses fewer than none: the t interval's low end stops at 0.
		out.LostPerPhaseLow = strconv.FormatFloat(max(o.LostPerPhase.Low, 0), 'f', 1, 64)
		out.LostPerPhaseHigh = strconv.FormatFloat(o.LostPerPhase.High, 'f', 1, 64)
	}
	return out
}

// faultInstances are a Workflow outcome's instances as the result keeps them, from the
// counts its phases carry as messages (started as published, ended as delivered, unfinished
// as lost); nil without any.
func faultInstances(o faults.Outcome) *perfv1alpha1.FaultInstances {
	m := o.Messages
	if m == nil {
		return nil
	}
	out := &perfv1alpha1.FaultInstances{Started: m.Published, Completed: m.Delivered - m.Failed, Failed: m.Failed, Stuck: m.Lost,
		StuckPerPhase: strconv.FormatFloat(o.LostPerPhase.Mean, 'f', 1, 64)}
	if o.LostPerPhaseOK {
		// No phase leaves fewer than none stuck: the t interval's low end stops at 0.
		out.StuckPerPhaseLow = strconv.FormatFloat(max(o.LostPerPhase.Low, 0), 'f', 1, 64)
		out.StuckPerPhaseHigh = strconv.FormatFloat(o.LostPerPhase.High, 'f', 1, 64)
	}
	return out
}

// faultDaprdCPU is each daprd's CPU before and during the fault as the result keeps it.
func faultDaprdCPU(o faults.Outcome) []perfv1alpha1.FaultDaprdCPU {
	var out []perfv1alpha1.FaultDaprdCPU
	for _, d := range []struct {
		sidecar string
		cpu     *faults.CPU
	}{{"clientSidecar", o.ClientCPU}, {"serverSidecar", o.ServerCPU}} {
		if d.cpu == nil {
			continue
		}
		f := perfv1alpha1.FaultDaprdCPU{Sidecar: d.sidecar, Before: *cores(d.cpu.Before.Mean), During: *cores(d.cpu.During.Mean)}
		if d.cpu.DuringOK {
			f.DuringLow, f.DuringHigh = cores(d.cpu.During.Low), cores(d.cpu.During.High)
		}
		out = append(out, f)
	}
	return out
}

// cores is a CPU figure in millicores (no daprd uses less than none: a low end stops at 0).
func cores(c float64) *resource.Quantity {
	return resource.NewMilliQuantity(int64(math.Round(max(c, 0)*1000)), resource.DecimalSI)
}

// kills are the pods fault deleted on variant's path, one a phase, in the order applied.
func kills(applied []result.AppliedFault, fault int, variant result.Variant) []perfv1alpha1.PodKillRecord {
	var out []perfv1alpha1.PodKillRecord
	for _, a := range applied {
		if a.Fault != fault || a.Variant != variant || a.Pod == "" {
			continue
		}
		k := perfv1alpha1.PodKillRecord{Repetition: int32(a.Rep + 1), Deleted: a.Pod, Replacement: a.Replacement}
		if a.Ready {
			k.ReadyAfter = duration(time.Duration(a.EndUnixNano - a.StartUnixNano))
		}
		if a.MeasuredQPS > 0 {
			k.MeasuredQPS = formatQPS(a.MeasuredQPS)
		}
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b perfv1alpha1.PodKillRecord) int { return int(a.Repetition - b.Repetition) })
	return out
}

// FaultMade marks each disturbance a PodKill of spec made on purpose with the fault's
// index: while the kill held, the pod it deleted, the pod named in its place, and a pod of
// the deleted one's ReplicaSet (its name less the last part) created (a replacement named
// too late to answer with). A load tester's Job makes its replacement only once the
// evicted pod has ended, often after the kill's span: the first pod of the same Job index
// (the same name less the last part) created after the kill is its replacement; a later
// one (a drain's) is not. Such a disturbance does not make the run Disturbed. A restart is
// never the kill's: the kill deletes. A kill whose answer was lost names no pod, and its
// replacement stays a disturbance: the analysis cannot tell it was the kill's.
func FaultMade(ds []perfv1alpha1.Disturbance, applied []result.AppliedFault, spec []perfv1alpha1.Fault) {
	mark := func(d *perfv1alpha1.Disturbance, a result.AppliedFault) {
		f := int32(a.Fault)
		d.Fault = &f
	}
	for i := range ds {
		if ds[i].Kind == perfv1alpha1.DisturbanceRestarted {
			continue
		}
		for _, a := range applied {
			if a.Pod != "" && madeBy(ds[i], a) {
				mark(&ds[i], a)
				break
			}
		}
	}
	for _, a := range applied {
		if a.Pod == "" || a.Fault < 0 || a.Fault >= len(spec) || !spec[a.Fault].KillsLoadTester() {
			continue
		}
		if i := replacedLater(ds, a); i >= 0 {
			mark(&ds[i], a)
		}
	}
}

// replacedLater is the index in ds of the first pod of the killed pod's set created after
// the kill a began, unless one was marked the kill's already (-1: none).
func replacedLater(ds []perfv1alpha1.Disturbance, a result.AppliedFault) int {
	start, _ := a.Span()
	first := -1
	for i, d := range ds {
		if d.Kind != perfv1alpha1.DisturbanceCreated || !ofDeletedSet(d.Pod, a.Pod) || d.Time.Time.Before(start.Add(-time.Second)) {
			continue
		}
		if first < 0 || d.Time.Time.Before(ds[first].Time.Time) {
			first = i
		}
	}
	if first >= 0 && ds[first].Fault != nil {
		return -1
	}
	return first
}

// madeBy reports whether the kill a made the disturbance, which happened while it held. A
// control-plane kill names every pod of the service it deleted, and a StatefulSet's
// replacements take their names: a name alone does not tell its pod's later restarts from
// the kill's.
func madeBy(d perfv1alpha1.Disturbance, a result.AppliedFault) bool {
	start, end := a.Span()
	// A second either side: the disturbance is stamped to the second, by another clock.
	if d.Time.Time.Before(start.Add(-time.Second)) || d.Time.Time.After(end.Add(time.Second)) {
		return false
	}
	if slices.Contains(ls.PodNames(a.Pod), d.Pod) || slices.Contains(ls.PodNames(a.Replacement), d.Pod) {
		return true
	}
	return d.Kind == perfv1alpha1.DisturbanceCreated && ofDeletedSet(d.Pod, a.Pod)
}

// ofDeletedSet reports whether pod shares its ReplicaSet (or Job index) with a pod of the
// deleted list.
func ofDeletedSet(pod, deleted string) bool {
	return slices.ContainsFunc(ls.PodNames(deleted), func(name string) bool {
		set, cut := replicaSetOf(name)
		return cut && strings.HasPrefix(pod, set)
	})
}

// replicaSetOf is the name a Deployment's pod shares with its ReplicaSet's other pods (an
// Indexed Job's with the other pods of its index), up to its last '-'; false for a name
// without one.
func replicaSetOf(pod string) (string, bool) {
	i := strings.LastIndexByte(pod, '-')
	return pod[:i+1], i > 0
}

// faultWindow is a window as the result keeps it.
func faultWindow(w faults.Window) perfv1alpha1.FaultWindow {
	out := perfv1alpha1.FaultWindow{Seconds: int32(w.Seconds), Requests: w.Sent, Errors: w.Errors}
	if w.Sent > 0 {
		out.ErrorPercent, out.ErrorPercentLow, out.ErrorPercentHigh = percent(w.ErrorShare), percent(w.ErrorLow), percent(w.ErrorHigh)
	}
	if w.Latency != nil && w.Latency.TotalCount() > 0 {
		out.P50, out.P99 = duration(w.P(50)), duration(w.P(99))
	}
	return out
}

func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }

// percent is a share as a percentage with two decimals, e.g. "12.50".
func percent(share float64) string { return strconv.FormatFloat(100*share, 'f', 2, 64) }

// ratio is a ratio with three decimals, e.g. "1.020".
func ratio(x float64) string { return fmt.Sprintf("%.3f", x) }

// faultTimeline is the pooled seconds as the result keeps them, at most
// MaxFaultTimelineSeconds; nil without any.
func faultTimeline(seconds []faults.PooledSecond) *perfv1alpha1.FaultTimeline {
	if len(seconds) == 0 {
		return nil
	}
	seconds = seconds[:min(len(seconds), perfv1alpha1.MaxFaultTimelineSeconds)]
	t := &perfv1alpha1.FaultTimeline{}
	for _, s := range seconds {
		t.Requests, t.Errors = append(t.Requests, s.Sent), append(t.Errors, s.Errors)
		t.P50Micros, t.P99Micros = append(t.P50Micros, s.P50Us), append(t.P99Micros, s.P99Us)
	}
	return t
}

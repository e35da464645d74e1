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

package compare

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
)

// A run on a machine half as fast costs twice the CPU per request: compare says the
// machines differ, shows both raw costs, and offers no normalised one.
func TestCompareCostSaysWhenMachinesDiffer(t *testing.T) {
	fast := clitest.CostedRun("50000", 200*time.Microsecond)
	slow := clitest.CostedRun("25000", 400*time.Microsecond)
	rows := map[string]Difference{}
	for _, d := range Cost(fast, slow) {
		rows[d.Figure] = d
	}
	if d := rows["node calibration (units per CPU-second)"]; d.Change != "-25000 (-50.0%)" || d.Verdict != "machines differ: costs do not compare" {
		t.Errorf("calibration row %+v", d)
	}
	if d := rows["serverSidecar CPU per request"]; d.A != "200µs" || d.B != "400µs" || d.Verdict != "not like for like: machines differ" {
		t.Errorf("raw row %+v", d)
	}
	for figure := range rows {
		if strings.Contains(figure, "units") && figure != calibrationFigure {
			t.Errorf("a normalised cost is offered: %q", figure)
		}
	}
	if _, ok := rows["clientSidecar CPU per request"]; ok {
		t.Error("a role neither run measured is listed")
	}

	same := clitest.CostedRun("52000", 210*time.Microsecond)
	for _, d := range Cost(fast, same) {
		if d.Figure == "node calibration (units per CPU-second)" && d.Verdict != "same speed (within 10%)" {
			t.Errorf("4%% apart: %+v", d)
		}
		if d.Figure == "serverSidecar CPU per request" && d.Verdict != "-" {
			t.Errorf("raw row on one machine class: %+v", d)
		}
	}
	if got := Cost(&perfv1alpha1.ResultDocument{}, &perfv1alpha1.ResultDocument{}); len(got) != 0 {
		t.Errorf("runs without results or calibrations: %+v", got)
	}

	// Scores of another calibration workload (another daprbench version) compare nothing,
	// nor does a calibration taken mostly in a slow stretch.
	older := clitest.CostedRun("25000", 200*time.Microsecond)
	older.Environment.Calibration[0].Workload = "v1"
	slowRead := clitest.CostedRun("30000", 200*time.Microsecond)
	slowRead.Environment.Calibration[0].SlowWindowsPercent = 75
	for other, verdict := range map[*perfv1alpha1.ResultDocument]string{
		older:    "calibration workloads differ (daprbench versions): whether the machines differ is unknown",
		slowRead: "one run has no trusted calibration: whether the machines differ is unknown"} {
		for _, d := range Cost(fast, other) {
			if d.Figure == calibrationFigure && d.Verdict != verdict {
				t.Errorf("calibration row %+v, want %q", d, verdict)
			}
			if d.Figure == "serverSidecar CPU per request" && d.Verdict != "-" {
				t.Errorf("raw row %+v", d)
			}
		}
	}
}

// Costs measured at different rates, arrivals or throttled shares are not compared as if
// they were one figure: the verdict says why.
func TestCompareCostComparesOnlyLikeTags(t *testing.T) {
	tagged := func(qps, arrival, throttled string, cost time.Duration) *perfv1alpha1.ResultDocument {
		r := clitest.CostedRun("50000", cost)
		c := &r.Result.SidecarCost[0]
		c.AtQPS, c.Arrival, c.ThrottledPercent, c.Source = qps, arrival, throttled, perfv1alpha1.CostFromDaprd
		c.Daprd = &perfv1alpha1.DaprdCost{CPUPerRequest: metav1.Duration{Duration: cost - 5*time.Microsecond},
			Low: &metav1.Duration{Duration: cost - 15*time.Microsecond}, High: &metav1.Duration{Duration: cost + 5*time.Microsecond}}
		return r
	}
	base := tagged("1000.0", "Synchronized", "0.0", 200*time.Microsecond)
	// A run whose daprd counter was not read has the kubelet's as its headline: another method.
	fromKubelet := func(r *perfv1alpha1.ResultDocument) *perfv1alpha1.ResultDocument {
		r.Result.SidecarCost[0].Source = perfv1alpha1.CostFromKubelet
		return r
	}
	// A document from before source was kept, its kubelet's counters read (throttledPercent set).
	untagged := func(r *perfv1alpha1.ResultDocument) *perfv1alpha1.ResultDocument {
		r.Result.SidecarCost[0].Source = ""
		return r
	}
	for _, c := range []struct {
		name  string
		other *perfv1alpha1.ResultDocument
		why   string
	}{
		{"like", tagged("980.0", "Synchronized", "0.4", 210*time.Microsecond), ""},
		{"rate", tagged("500.0", "Synchronized", "0.0", 260*time.Microsecond), "1000.0 vs 500.0 rps"},
		{"arrival", tagged("1000.0", "Uniform", "0.0", 200*time.Microsecond), "Synchronized vs Uniform arrival"},
		{"throttled", tagged("1000.0", "Synchronized", "63.0", 230*time.Microsecond), "throttled in 0.0% vs 63.0% of periods"},
		{"counter", fromKubelet(tagged("1000.0", "Synchronized", "0.0", 200*time.Microsecond)), "daprd's counter vs kubelet's"},
		{"counter, untagged", untagged(tagged("1000.0", "Synchronized", "0.0", 200*time.Microsecond)), "daprd's counter vs kubelet's"},
	} {
		rows := map[string]Difference{}
		for _, d := range Cost(base, c.other) {
			rows[d.Figure] = d
		}
		raw := rows["serverSidecar CPU per request"]
		daprd := rows["serverSidecar CPU per request (daprd's counter)"]
		if c.why == "" {
			if raw.Verdict != "-" || daprd.A != "195µs [185µs, 205µs]" {
				t.Errorf("%s: raw %+v, daprd %+v: want compared", c.name, raw, daprd)
			}
			continue
		}
		if raw.Verdict != "not like for like: "+c.why || daprd.Verdict != c.why {
			t.Errorf("%s: raw %+v, daprd %+v: want not like for like (%s)", c.name, raw, daprd, c.why)
		}
	}
}

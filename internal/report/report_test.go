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
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/result"
)

func TestVariantsCarryTheirFiguresAndTheirDifference(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Variants: []perfv1alpha1.SidecarVariant{{Name: "release"}, {Name: "debug"}}}}
	at := func(us, lo, hi int64) result.Added {
		return result.Added{Confidence: 0.95, Resamples: 2000, Avg: result.Interval{Us: us, LowUs: lo, HighUs: hi},
			Percentiles: []result.AddedPercentile{{P: 50, Interval: result.Interval{Us: us, LowUs: lo, HighUs: hi}},
				{P: 90, Interval: result.Interval{Us: us, LowUs: -lo, HighUs: hi}}}}
	}
	first, slower := at(1400, 1300, 1500), at(300, 200, 400)
	sum := &result.Summary{Runs: []result.Run{
		{Variant: result.Baseline, ActualQPS: 1000, Requests: 1000}, {Variant: result.Dapr, ActualQPS: 999, Requests: 1000},
		{Variant: result.DaprVariant(1), ActualQPS: 998, Requests: 1000, Errors: 2}},
		Added:    &first,
		Compared: []result.Comparison{{Variant: result.DaprVariant(1), Against: result.Baseline, Added: at(1700, 1600, 1800)}, {Variant: result.DaprVariant(1), Against: result.Dapr, Added: slower}},
	}
	res := Build(run, sum)
	if len(res.Variants) != 2 {
		t.Fatalf("variants = %+v", res.Variants)
	}
	rel, dbg := res.Variants[0], res.Variants[1]
	if rel.Name != "release" || rel.Difference != nil || rel.Added.P50.Duration.Microseconds() != 1400 {
		t.Errorf("first variant = %+v", rel)
	}
	if dbg.ActualQPS != "998.0" || dbg.Errors != 2 || dbg.Added.P50.Duration.Microseconds() != 1700 ||
		dbg.Difference.P50.Duration.Microseconds() != 300 || dbg.DifferenceInterval.Low.P50.Duration.Microseconds() != 200 {
		t.Errorf("second variant = %+v", dbg)
	}
	// p50 and avg exclude zero; p90's interval [-200, 400] does not.
	if got := strings.Join(dbg.BeyondNoise, ","); got != "p50,avg" {
		t.Errorf("beyond noise = %q, want p50,avg", got)
	}
	res.Latency = &perfv1alpha1.LatencySummary{P50: &metav1.Duration{}}
	if h := Headline(res); !strings.Contains(h, "variants: debug − release p90 300µs (beyond noise at p50, avg)") {
		t.Errorf("headline = %q", h)
	}
	if h := Headline(res); !strings.Contains(h, "one repetition") {
		t.Errorf("a one-repetition comparison does not say so: %q", h)
	}
	res.Spread = &perfv1alpha1.Spread{}
	if h := Headline(res); strings.Contains(h, "one repetition") {
		t.Errorf("a repeated comparison is called a one-repetition one: %q", h)
	}
	if Build(&perfv1alpha1.PerfRun{}, sum).Variants != nil {
		t.Error("a run without spec.variants reports variants")
	}
}

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

package sweep

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

func TestExpandCrossesTheListsAndSpreadsTheSteps(t *testing.T) {
	points, steps := Expand(&perfv1alpha1.SweepPoints{Connections: []int32{1, 2, 4, 8, 16, 32, 64}})
	if len(points) != 7 || points[6].Connections != 64 || points[0].QPS != 0 || points[0].PayloadBytes != nil {
		t.Fatalf("points %+v", points)
	}
	// connections in the order measured
	order := make([]int32, 7)
	for i, s := range steps {
		order[s] = points[i].Connections
	}
	if want := []int32{1, 16, 4, 64, 2, 32, 8}; !slices.Equal(order, want) {
		t.Errorf("measured in the order %v, want %v (neighbours far apart in time)", order, want)
	}
	points, steps = Expand(&perfv1alpha1.SweepPoints{QPS: []int32{100, 200}, PayloadBytes: []int32{0, 1024, 4096}})
	if len(points) != 6 || points[1].QPS != 100 || *points[1].PayloadBytes != 1024 || *points[5].PayloadBytes != 4096 {
		t.Errorf("qps × payload = %+v", points)
	}
	if sorted := slices.Sorted(slices.Values(steps)); !slices.Equal(sorted, []int32{0, 1, 2, 3, 4, 5}) {
		t.Errorf("steps %v are not a permutation", steps)
	}
}

func TestStepsAreNeverMonotone(t *testing.T) {
	for n := 3; n <= 50; n++ {
		steps := Steps(n)
		if slices.IsSorted(steps) {
			t.Errorf("%d points measured in list order", n)
		}
		if sorted := slices.Sorted(slices.Values(steps)); sorted[0] != 0 || sorted[n-1] != int32(n-1) || len(slices.Compact(sorted)) != n {
			t.Errorf("%d points: steps %v are not a permutation", n, steps)
		}
	}
}

// knee simulates a service: latency flat until the knee, then rising fast; beyond the
// knee plus 10% it cannot keep up with the rate.
func knee(at int32) func(qps int32) *perfv1alpha1.Result {
	return func(qps int32) *perfv1alpha1.Result {
		p99 := 2 * time.Millisecond
		actual := float64(qps)
		if qps > at {
			p99 += time.Duration(qps-at) * 200 * time.Microsecond
			actual = min(actual, float64(at)*1.1)
		}
		return &perfv1alpha1.Result{RequestedQPS: qps, ActualQPS: strconv.FormatFloat(actual, 'f', 1, 64),
			Latency: &perfv1alpha1.LatencySummary{P99: &metav1.Duration{Duration: p99}}}
	}
}

func TestSearchFindsTheKneeWithinTheStepBound(t *testing.T) {
	for _, tc := range []struct {
		knee, start int32
	}{{1234, 100}, {1234, 5000}, {37, 1000}, {90000, 50000}} {
		t.Run(fmt.Sprintf("knee %d from %d", tc.knee, tc.start), func(t *testing.T) {
			s := &perfv1alpha1.RateSearch{StartQPS: tc.start, MaxQPS: 100000, MaxSteps: 12, PrecisionPercent: 5,
				Objective: perfv1alpha1.Thresholds{MaxP99: &metav1.Duration{Duration: 10 * time.Millisecond}, MinQPSPercent: ptr.To(int32(99))}}
			service := knee(tc.knee)
			var steps []Tried
			for {
				qps, done := NextRate(s, steps)
				if done {
					break
				}
				passed, _ := Judge(&s.Objective, service(qps))
				steps = append(steps, Tried{QPS: qps, Passed: passed})
			}
			pass, fail := Bounds(steps)
			// The objective holds up to knee + 40 qps (p99 = 2 ms + 40 × 0.2 ms = 10 ms), and
			// while 1.1 × knee is at least 99% of the rate.
			truth := min(tc.knee+40, int32(1.1*float64(tc.knee)/0.99))
			if len(steps) > 12 || pass > truth || (fail != 0 && fail <= truth) || float64(pass) < 0.95*float64(truth) {
				t.Errorf("after %d steps %v: passing %d, failing %d; the highest sustainable rate is %d", len(steps), steps, pass, fail, truth)
			}
		})
	}
}

func TestSearchEnds(t *testing.T) {
	s := &perfv1alpha1.RateSearch{StartQPS: 1000, MaxQPS: 4000, MaxSteps: 10}
	if _, done := NextRate(s, []Tried{{1000, true}, {2000, true}, {4000, true}}); !done {
		t.Error("maxQPS passed: nothing higher to try")
	}
	if _, done := NextRate(s, []Tried{{1000, false}, {500, false}, {250, false}, {125, false}, {62, false}, {31, false}, {15, false}, {7, false}, {3, false}, {1, false}}); !done {
		t.Error("1 qps failed")
	}
	if q, _ := NextRate(&perfv1alpha1.RateSearch{StartQPS: 1000, MaxSteps: 2}, []Tried{{1000, true}, {2000, false}}); q != 0 {
		t.Errorf("maxSteps reached, yet %d next", q)
	}
}

func TestJudgeNamesEveryMissedFigure(t *testing.T) {
	o := &perfv1alpha1.Thresholds{MaxP99: &metav1.Duration{Duration: 5 * time.Millisecond}}
	res := &perfv1alpha1.Result{RequestedQPS: 1000, ActualQPS: "950.0", Errors: 3, Latency: &perfv1alpha1.LatencySummary{P99: &metav1.Duration{Duration: 7 * time.Millisecond}}}
	ok, why := Judge(o, res)
	if ok || why != "p99 7ms (limit <= 5ms): VIOLATED; actual qps 950.0 (95.00%) (limit >= 99% of 1000): VIOLATED; errors 3 (limit <= 0): VIOLATED" {
		t.Errorf("judged %v: %q", ok, why)
	}
	if ok, why := Judge(o, &perfv1alpha1.Result{RequestedQPS: 1000, ActualQPS: "999.9", Latency: &perfv1alpha1.LatencySummary{P99: &metav1.Duration{Duration: time.Millisecond}}}); !ok {
		t.Errorf("a met objective failed: %s", why)
	} // A step whose load tester fell behind its schedule fails, whatever its latency says.
	saturated := &perfv1alpha1.Result{RequestedQPS: 1000, ActualQPS: "999.9", Latency: &perfv1alpha1.LatencySummary{P99: &metav1.Duration{Duration: time.Millisecond}},
		Saturated: []perfv1alpha1.SaturatedPath{{Path: "dapr", ActualQPS: "999.9", SendLagP99: &metav1.Duration{Duration: 30 * time.Millisecond}, Gap: &metav1.Duration{Duration: 16 * time.Millisecond}}}}
	if ok, why := Judge(o, saturated); ok || why != "dapr path saturated (999.9 qps, send-lag p99 30ms > 16ms gap)" {
		t.Errorf("a saturated step judged %v: %q", ok, why)
	}
	// The same rules as a PerfRun's thresholds: a limit inside the repetitions' spread is
	// not shown to be met, and such a step does not pass.
	straddling := &perfv1alpha1.Result{RequestedQPS: 1000, ActualQPS: "999.9", Latency: &perfv1alpha1.LatencySummary{P99: &metav1.Duration{Duration: 4 * time.Millisecond}},
		Spread: &perfv1alpha1.Spread{Latency: &perfv1alpha1.LatencyRange{Min: perfv1alpha1.LatencySummary{P99: &metav1.Duration{Duration: 3 * time.Millisecond}},
			Max: perfv1alpha1.LatencySummary{P99: &metav1.Duration{Duration: 6 * time.Millisecond}}}}}
	if ok, why := Judge(o, straddling); ok || why != "p99 4ms (repetitions 3ms..6ms) (limit <= 5ms): inconclusive" {
		t.Errorf("a step whose repetitions straddle the limit judged %v: %q", ok, why)
	}
}

// A template's faults make errors on purpose: a step is judged on the fault's own gate, not
// on the default "no errors", which no such step could meet.
func TestAStepWithFaultsIsNotHeldToTheDefaultNoErrors(t *testing.T) {
	faulted := &perfv1alpha1.Result{RequestedQPS: 100, ActualQPS: "100.0", Errors: 120,
		Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Path: "dapr", Applied: 2, Recovered: 2, During: perfv1alpha1.FaultWindow{Seconds: 8, Requests: 800, Errors: 120}}}}
	if ok, why := Judge(&perfv1alpha1.Thresholds{MaxFaultErrorPercent: ptr.To[int32](20)}, faulted); !ok {
		t.Errorf("a step within its fault gate failed: %s", why)
	}
	if ok, why := Judge(&perfv1alpha1.Thresholds{MaxFaultErrorPercent: ptr.To[int32](10)}, faulted); ok || !strings.Contains(why, "errors during 15.00%") {
		t.Errorf("a step past its fault gate judged %v: %q", ok, why)
	}
	if ok, why := Judge(&perfv1alpha1.Thresholds{MaxFaultErrorPercent: ptr.To[int32](20), MaxErrors: ptr.To[int64](0)}, faulted); ok || !strings.Contains(why, "errors 120 (limit <= 0): VIOLATED") {
		t.Errorf("an explicit maxErrors 0 was not kept: %v %q", ok, why)
	}
}

// The largest sweep the API allows must keep its PerfSweep far below etcd's 1.5 MiB.
func TestLargestSweepStatusStaysSmall(t *testing.T) {
	st := perfv1alpha1.PerfSweepStatus{Phase: perfv1alpha1.PhaseSucceeded, MaxSustainableQPS: ptr.To[int32](99999)}
	for i := range perfv1alpha1.MaxSweepPoints {
		st.Points = append(st.Points, perfv1alpha1.SweepPointStatus{Step: int32(i), Connections: 1024, QPS: 100000,
			PayloadBytes: ptr.To[int32](4194304), Run: "a-thirty-character-sweep-name-9999-49", Phase: perfv1alpha1.PhaseFailed,
			Passed: ptr.To(false), Message: strings.Repeat("x", 512), Document: "a-thirty-character-sweep-name-9999-49-result-abcde",
			Digest: "sha256:" + strings.Repeat("f", 64)})
	}
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("status of the largest sweep, every field at its longest: %d bytes", len(b))
	if len(b) > 64*1024 {
		t.Errorf("%d bytes: over 64 KiB", len(b))
	}
}

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

package repetitions

import (
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

func run(v result.Variant, rep int, baseUs int64) result.Run {
	r := result.Run{Variant: v, Rep: rep, ActualQPS: 999.87, Requests: 59_992, AvgUs: baseUs + 200, MaxUs: baseUs * 20}
	for i, p := range result.StandardPercentiles {
		r.Percentiles = append(r.Percentiles, result.Percentile{P: p, Us: baseUs + int64(i)*1000})
	}
	return r
}

func TestOfSpreadsRepetitions(t *testing.T) {
	// Three repetitions: the spread of Dapr's p50 is 1300..1600 µs.
	s := &result.Summary{Runs: []result.Run{
		run(result.Baseline, 0, 1000), run(result.Dapr, 0, 1300),
		run(result.Baseline, 1, 800), run(result.Dapr, 1, 1300),
		run(result.Baseline, 2, 700), run(result.Dapr, 2, 1600),
	}}
	s.Runs[3].ActualQPS = 990
	dapr, ok := Of(s, result.Dapr)
	if !ok || dapr.Reps != 3 || dapr.Requests != 3*59_992 {
		t.Fatalf("merge dapr = %+v", dapr)
	}
	if dapr.ActualQPS != 999.87 {
		t.Errorf("median qps = %v", dapr.ActualQPS)
	}
	p50, _ := dapr.Latency.Percentile(50)
	if p50 != (Stat{Median: 1300 * time.Microsecond, Min: 1300 * time.Microsecond, Max: 1600 * time.Microsecond}) {
		t.Errorf("dapr p50 = %+v", p50)
	}
	if _, ok := Of(s, result.Direct); ok {
		t.Error("Of an absent variant must report !ok")
	}
}

func TestMedianOfEvenCount(t *testing.T) {
	got := stat([]time.Duration{4, 1, 3, 2})
	if got != (Stat{Median: 2, Min: 1, Max: 4}) { // (2+3)/2 in integer nanoseconds
		t.Errorf("stat = %+v", got)
	}
}

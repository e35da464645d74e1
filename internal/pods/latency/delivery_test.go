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

package latency

import (
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// deliveries is a phase of n deliveries over 10 s, each taking took.
func deliveries(n int, took time.Duration) *Recorded {
	ds := make([]Delivery, n)
	for i := range ds {
		due := time.Duration(i) * 10 * time.Second / time.Duration(n)
		ds[i] = Delivery{Due: due, Received: due + took}
	}
	return RecordDeliveries(0, ds)
}

// A path's own delivery latency gets an interval over its repetitions: around the merged
// figure when they agree, BetweenRepetitions with three; never below zero when one
// repetition is far slower than the others (point − t·se would be).
func TestOwnDeliveryIntervalCoversARerunAndStaysAboveZero(t *testing.T) {
	runs := []result.Run{{Variant: result.Dapr, Rep: 0}, {Variant: result.Dapr, Rep: 1}, {Variant: result.Dapr, Rep: 2}}
	summarize := func(took ...time.Duration) result.DeliveryPath {
		recs := map[Key]*Recorded{}
		for rep, d := range took {
			recs[Key{result.Dapr, rep}] = deliveries(500, d)
		}
		p, _ := SummarizeDelivery(runs, recs, nil, nil, result.StandardPercentiles).PathOf(result.Dapr)
		if p.Interval == nil {
			t.Fatalf("no interval for %v", took)
		}
		return p
	}
	agree := summarize(10*time.Millisecond, 11*time.Millisecond, 12*time.Millisecond)
	p50, _ := agree.Interval.At(50)
	if agree.Interval.Reps != 3 || p50.LowUs > 10_000 || p50.HighUs < 12_000 || p50.LowUs < 0 {
		t.Errorf("repetitions of 10, 11 and 12 ms: p50 %+v over %d repetitions, want around 10 to 12 ms over 3", p50, agree.Interval.Reps)
	}
	apart := summarize(time.Millisecond, time.Millisecond, 500*time.Millisecond)
	for _, e := range append([]result.AddedPercentile{{P: 0, Interval: apart.Interval.Avg}}, apart.Interval.Percentiles...) {
		if e.Interval.LowUs < 0 || e.Interval.HighUs < e.Interval.Us {
			t.Errorf("p%v: %+v: want a low end of at least zero and a high end above the point", e.P, e.Interval)
		}
	}
	if a := apart.Interval.Avg; a.LowUs != 0 {
		t.Errorf("mean %+v: repetitions of 1, 1 and 500 ms put the low end at zero", a)
	}
}

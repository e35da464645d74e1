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

package result

import (
	"testing"
	"time"
)

func TestLatenessLimitIsATenthOfTheBaselineP50AtLeastTheFloor(t *testing.T) {
	for _, c := range []struct{ p50, want time.Duration }{
		{400 * time.Microsecond, LatenessFloor},
		{30 * time.Millisecond, 3 * time.Millisecond},
		{5 * time.Millisecond, LatenessFloor},
	} {
		if got := LatenessLimit(c.p50); got != c.want {
			t.Errorf("LatenessLimit(%v) = %v, want %v", c.p50, got, c.want)
		}
	}
}

func lateness(p90, p99 int64) Spectrum {
	return Spectrum{Percentiles: []Percentile{{P: 50, Us: p90 / 2}, {P: 90, Us: p90}, {P: 99, Us: p99}}}
}

// A path whose tester was late past the limit at p90 over all its requests is found; one
// late only at p99 (a busy second) is not; a run without a baseline has no limit to judge by.
func TestLateTesterNamesThePathsPastTheLimit(t *testing.T) {
	s := Summary{Merged: []Merged{
		{Variant: Baseline, Percentiles: []Percentile{{P: 50, Us: 400}}, TesterLag: lateness(300, 1700)},
		{Variant: Dapr, Percentiles: []Percentile{{P: 50, Us: 4000}}, TesterLag: lateness(2500, 6000)},
	}}
	limit, late := s.LateTester()
	if limit != LatenessFloor || len(late) != 1 || late[0].Variant != Dapr || late[0].TesterLag != 2500*time.Microsecond {
		t.Fatalf("limit %v, late %+v: want the floor and the dapr path at 2.5ms", limit, late)
	}
	s.Merged[1].TesterLag = lateness(2000, 9000)
	if _, late := s.LateTester(); len(late) != 0 {
		t.Errorf("late %+v: a p90 at the limit is within it, whatever the p99", late)
	}
	if limit, late := (&Summary{Merged: s.Merged[1:]}).LateTester(); limit != 0 || late != nil {
		t.Errorf("without a baseline: limit %v, late %+v", limit, late)
	}
}

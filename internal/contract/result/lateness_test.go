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
	"strings"
	"testing"
	"time"
)

func TestLatenessLimitIsATenthOfTheBaselineP50AtLeastTheFloor(t *testing.T) {
	for _, c := range []struct{ p50, want time.Duration }{
		{400 * time.Microsecond, LatenessFloor},
		{20 * time.Millisecond, 2 * time.Millisecond},
		{15 * time.Millisecond, LatenessFloor},
	} {
		if got := LatenessLimit(c.p50); got != c.want {
			t.Errorf("LatenessLimit(%v) = %v, want %v", c.p50, got, c.want)
		}
	}
}

// A tester late beyond the limit at p99 in one repetition of one path is found, by path,
// with its worst repetition; a run without a baseline has no limit to judge by.
func TestLateTesterNamesThePathsPastTheLimit(t *testing.T) {
	s := Summary{
		Merged: []Merged{{Variant: Baseline, Percentiles: []Percentile{{P: 50, Us: 400}}}},
		Runs: []Run{
			{Variant: Baseline, Rep: 0, TesterLagP99Us: 300}, {Variant: Dapr, Rep: 0, TesterLagP99Us: 900},
			{Variant: Baseline, Rep: 1, TesterLagP99Us: 350}, {Variant: Dapr, Rep: 1, TesterLagP99Us: 2500},
			{Variant: Dapr, Rep: 2, TesterLagP99Us: 1800},
		},
	}
	limit, late := s.LateTester()
	if limit != LatenessFloor || len(late) != 1 || late[0].Variant != Dapr || late[0].TesterLagP99 != 2500*time.Microsecond {
		t.Fatalf("limit %v, late %+v: want the floor and the dapr path at 2.5ms", limit, late)
	}
	msg := LatenessMessage(limit, late, Variant.String)
	for _, want := range []string{"dapr path p99 2.5ms", "limit of 1.5ms", "no added latency is claimed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	s.Runs[3].TesterLagP99Us, s.Runs[4].TesterLagP99Us = 1000, 999
	if _, late := s.LateTester(); len(late) != 0 {
		t.Errorf("late %+v: a p99 at the limit is within it", late)
	}
	if limit, late := (&Summary{Runs: s.Runs}).LateTester(); limit != 0 || late != nil {
		t.Errorf("without a baseline: limit %v, late %+v", limit, late)
	}
}

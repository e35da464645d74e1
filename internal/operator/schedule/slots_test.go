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

package schedule

import (
	"testing"
	"time"

	"github.com/robfig/cron/v3"
)

func parse(t *testing.T, spec string) cron.Schedule {
	t.Helper()
	s, err := cron.ParseStandard(spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestMostRecent(t *testing.T) {
	created := at("2026-11-02T08:30:00Z") // a Monday
	minutes := func(d time.Duration) *time.Duration { return &d }
	for _, tc := range []struct {
		name             string
		spec             string
		lastHandled, now time.Time
		deadline         *time.Duration
		want             time.Time
		missed           int64
		tooMany          bool
	}{
		{"nothing has come", "0 * * * *", time.Time{}, at("2026-11-02T08:59:59Z"), nil, time.Time{}, 0, false},
		{"one slot", "0 * * * *", time.Time{}, at("2026-11-02T09:00:30Z"), nil, at("2026-11-02T09:00:00Z"), 1, false},
		// A wedged controller back after 2000 minutes: the latest slot, not the 1000th.
		{"the latest of many missed", "* * * * *", created, created.Add(2000*time.Minute + 30*time.Second), nil,
			created.Add(2000 * time.Minute), 2000, true},
		{"a deadline narrows the search", "* * * * *", created, created.Add(2000*time.Minute + 30*time.Second), minutes(5 * time.Minute),
			created.Add(2000 * time.Minute), 5, false},
		{"@every counts from its own start", "@every 90m", created, created.Add(10 * time.Hour), nil,
			created.Add(9 * time.Hour), 6, false},
		// Working days at 9: the estimate overshoots across a weekend and must step back.
		{"irregular across a weekend", "0 9 * * 1-5", created, at("2026-11-09T08:00:00Z"), nil,
			at("2026-11-06T09:00:00Z"), 7, false},
		{"irregular, handled up to Wednesday", "30 6-16/4 * * 1-5", at("2026-11-04T14:30:00Z"), at("2026-11-07T12:00:00Z"), nil,
			at("2026-11-06T14:30:00Z"), 14, false}, // an estimate, as CronJob's
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MostRecent(parse(t, tc.spec), tc.lastHandled, created, tc.now, tc.deadline)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Time.Equal(tc.want) || got.Missed != tc.missed || got.TooMany() != tc.tooMany {
				t.Errorf("got %s, %d missed (too many %v); want %s, %d (%v)", got.Time, got.Missed, got.TooMany(), tc.want, tc.missed, tc.tooMany)
			}
		})
	}
}

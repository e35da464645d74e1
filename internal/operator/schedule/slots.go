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

// Package schedule finds the slot a PerfSchedule must handle now, with the semantics of
// Kubernetes' CronJob controller (mostRecentScheduleTime in pkg/controller/cronjob): the
// latest slot that has come, however many were missed, the search narrowed to the
// starting deadline, and too many missed slots reported rather than enumerated.
package schedule

import (
	"errors"
	"time"

	"github.com/robfig/cron/v3"
)

// TooManyMissed is the count of missed slots above which CronJob warns: more than a long
// weekend of hourly slots suggests a wedged controller or a skewed clock.
const TooManyMissed = 100

// Slot is the outcome of a search.
type Slot struct {
	// Time is the latest slot in (earliest, now]; zero when none has come.
	Time time.Time
	// Missed estimates how many slots came since earliest (the latest included), by the
	// distance between two consecutive slots, as CronJob does.
	Missed int64
}

// TooMany reports whether Missed calls for CronJob's warning.
func (s Slot) TooMany() bool { return s.Missed > TooManyMissed }

// MostRecent returns the latest slot of sched after lastHandled (or created, when nothing
// was handled yet) and not after now. With a starting deadline, slots older than
// now - deadline are not searched: they could not be started anyway.
func MostRecent(sched cron.Schedule, lastHandled, created, now time.Time, deadline *time.Duration) (Slot, error) {
	earliest := created
	if !lastHandled.IsZero() {
		earliest = lastHandled
	}
	if deadline != nil {
		if d := now.Add(-*deadline); d.After(earliest) {
			earliest = d
		}
	}
	t1 := sched.Next(earliest)
	t2 := sched.Next(t1)
	switch {
	case t1.IsZero() || now.Before(t1):
		return Slot{}, nil
	case t2.IsZero() || now.Before(t2):
		return Slot{Time: t1, Missed: 1}, nil
	}
	// A schedule such as "59 23 31 2 *" parses but its slots coincide: no distance.
	between := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if between < 1 {
		return Slot{}, errors.New("two consecutive slots are less than a second apart")
	}
	missed := int64(now.Sub(t1).Seconds())/between + 1
	// Enumerate from two intervals before the estimated latest slot: exact for regular
	// schedules and @every. An irregular schedule ("0 9 * * 1-5": a weekend is three
	// intervals) can make the estimate overshoot; then start further back, doubling.
	for back := int64(2); ; back *= 2 {
		from := t1.Add(time.Duration((missed-back)*between) * time.Second)
		if !from.After(t1) {
			from = t1.Add(-time.Second) // t1 itself is a slot
		}
		if latest := latestUpTo(sched, from, now); !latest.IsZero() || !from.After(t1) {
			return Slot{Time: latest, Missed: missed}, nil
		}
	}
}

// latestUpTo is the last slot in (from, now].
func latestUpTo(sched cron.Schedule, from, now time.Time) time.Time {
	var latest time.Time
	for t := sched.Next(from); !t.IsZero() && !t.After(now); t = sched.Next(t) {
		latest = t
	}
	return latest
}

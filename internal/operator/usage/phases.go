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

package usage

import (
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Metrics windows are recorded here as they come; the assessment attributes them to the
// measured phases once the load's timeline is known (internal/assess/accounting).

// MaxWindows bounds what a run keeps in status.liveUsage.
const MaxWindows = 400

// Record adds readings to live as windows, except a window already recorded for its role
// or sooner after its role's previous one than live.Spacing, and returns how many were new.
// Beyond MaxWindows every other window of each role is dropped and the spacing doubled, so
// the windows kept stay evenly spread over the run's time: without the spacing, each
// thinning would halve the old windows again while the new ones came at the full rate, and
// a long run would keep few of its first minutes (a memory trend is fitted over them all).
func Record(live *perfv1alpha1.LiveUsage, readings map[string]Reading) int {
	added := 0
	for role, r := range readings {
		if r.Timestamp.IsZero() || recorded(live, role, r.Timestamp) || tooSoon(live, role, r.Timestamp) {
			continue
		}
		live.Windows = append(live.Windows, perfv1alpha1.UsageWindow{
			Role: role, End: metav1.NewTime(r.Timestamp.Truncate(time.Second)), Seconds: int32(r.Window.Round(time.Second) / time.Second),
			CPU: r.CPUMilli, Memory: r.MemoryBytes,
		})
		added++
	}
	slices.SortStableFunc(live.Windows, func(a, b perfv1alpha1.UsageWindow) int {
		if c := a.End.Compare(b.End.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Role, b.Role)
	})
	for len(live.Windows) > MaxWindows {
		live.Windows = thin(live.Windows)
		live.Spacing = &metav1.Duration{Duration: doubled(live)}
	}
	return added
}

// tooSoon reports whether a window of role ending at end comes sooner after the role's
// previous window than the spacing allows (a tenth of it spared: the metrics API's stamps
// jitter).
func tooSoon(live *perfv1alpha1.LiveUsage, role string, end time.Time) bool {
	if live.Spacing == nil {
		return false
	}
	for i := len(live.Windows) - 1; i >= 0; i-- {
		if w := live.Windows[i]; w.Role == role {
			return end.Sub(w.End.Time) < live.Spacing.Duration*9/10
		}
	}
	return false
}

// doubled is the spacing after a thinning: twice the last one, or, at the first, twice the
// longest window (the metrics API's resolution, the least two of a role's windows are apart).
func doubled(live *perfv1alpha1.LiveUsage) time.Duration {
	if live.Spacing != nil {
		return 2 * live.Spacing.Duration
	}
	longest := time.Duration(0)
	for _, w := range live.Windows {
		longest = max(longest, time.Duration(w.Seconds)*time.Second)
	}
	return 2 * max(longest, time.Second)
}

func recorded(live *perfv1alpha1.LiveUsage, role string, end time.Time) bool {
	return slices.ContainsFunc(live.Windows, func(w perfv1alpha1.UsageWindow) bool {
		return w.Role == role && w.End.Truncate(time.Second).Equal(end.Truncate(time.Second))
	})
}

// thin keeps every other window of each role.
func thin(ws []perfv1alpha1.UsageWindow) []perfv1alpha1.UsageWindow {
	seen := map[string]int{}
	out := ws[:0]
	for _, w := range ws {
		if seen[w.Role]%2 == 0 {
			out = append(out, w)
		}
		seen[w.Role]++
	}
	return out
}

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

package podkill

import (
	"net/http"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// budget holds each run to as many kills as it has faulted phases (its repetitions of each
// path through Dapr), one at a time, however often its token is presented. Kept in memory, per manager replica: a
// restarted manager forgets it, and at worst serves a run's phases again. A run's entry is
// dropped a day after its last kill, so the map holds only the runs of the last day.
type budget struct {
	mu   sync.Mutex
	runs map[generation]*spent
}

// generation is one measurement of a run: a new spec measures again.
type generation struct {
	uid types.UID
	gen int64
}

// spent is what a run has used of its budget.
type spent struct {
	kills int32
	busy  bool
	last  time.Time
}

// keepFor is how long a run's entry outlives its last kill: longer than any fault run's load.
const keepFor = 24 * time.Hour

// take counts a kill against the run's budget, or refuses it: one already under way, or
// as many as its measured phases served. release ends the kill under way.
func (b *budget) take(run *perfv1alpha1.PerfRun, now time.Time) (release func(), err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.runs == nil {
		b.runs = map[generation]*spent{}
	}
	for g, s := range b.runs {
		if !s.busy && now.Sub(s.last) > keepFor {
			delete(b.runs, g)
		}
	}
	g := generation{run.UID, run.Generation}
	s := b.runs[g]
	if s == nil {
		s = &spent{}
		b.runs[g] = s
	}
	allowed := workload.FaultedPhases(run)
	switch {
	case s.busy:
		return nil, refuse(http.StatusTooManyRequests, "run %s/%s has a kill under way", run.Namespace, run.Name)
	case s.kills >= allowed:
		return nil, refuse(http.StatusTooManyRequests, "run %s/%s has had its %d kills, as many as its faulted phases", run.Namespace, run.Name, allowed)
	}
	s.kills++
	s.busy, s.last = true, now
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		s.busy = false
	}, nil
}

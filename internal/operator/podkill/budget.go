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

	"k8s.io/apimachinery/pkg/types"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// budget holds each run to the kills its phases take (one a measured Dapr phase: the
// repetitions), one at a time, however often its token is presented. Kept in memory: a
// restarted manager forgets it, and at worst serves a run's phases again.
type budget struct {
	mu     sync.Mutex
	served map[generation]int32
	busy   map[generation]bool
}

// generation is one measurement of a run: a new spec measures again.
type generation struct {
	uid types.UID
	gen int64
}

// take counts a kill against the run's budget, or refuses it: one already under way, or
// every phase's kill served. release ends the kill under way.
func (b *budget) take(run *perfv1alpha1.PerfRun) (release func(), err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.served == nil {
		b.served, b.busy = map[generation]int32{}, map[generation]bool{}
	}
	g := generation{run.UID, run.Generation}
	allowed := run.Spec.Load.EffectiveRepetitions()
	switch {
	case b.busy[g]:
		return nil, refuse(http.StatusTooManyRequests, "run %s/%s has a kill under way", run.Namespace, run.Name)
	case b.served[g] >= allowed:
		return nil, refuse(http.StatusTooManyRequests, "run %s/%s has had its %d kills, one a measured phase", run.Namespace, run.Name, allowed)
	}
	b.served[g]++
	b.busy[g] = true
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.busy, g)
	}, nil
}

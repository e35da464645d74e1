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

package perfrun

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// runMemory is all the reconciler keeps in memory per run between passes, by the run's
// name, with one Forget for every path that ends a run (finished, deleted, gone). Nothing in
// it is the only copy of anything: a restarted manager starts empty, and that costs at most
// an early metrics read, an extra apply, a second read of a report or a minute's queue
// caution.
type runMemory struct {
	mu   sync.Mutex
	runs map[types.NamespacedName]*runState
	// admitting lets one run through the queue's admission at a time, so two runs never
	// both see the other not yet measuring.
	admitting sync.Mutex
	// served is when each namespace last had a run admitted, for the queue's turns; one
	// entry per namespace that ever ran (a restart forgets it: first come, first served).
	served map[string]time.Time
}

// runState is one run's memory; a new run of the same name (another UID) starts afresh.
type runState struct {
	uid types.UID
	// lastSampled is when the metrics API was last read for the run: once per interval
	// however often the run is reconciled.
	lastSampled time.Time
	// reportTries counts the polls that could not read the load tester's report from its
	// log, the first of them at reportFirstMiss; report is the report once read, under its
	// digest.
	reportTries     int
	reportFirstMiss time.Time
	report          *result.Report
	reportDigest    string
	// applied is, per child, the desired state last applied and the resourceVersion the
	// API server answered with (see apply).
	applied map[string]appliedChild
	// admitted is the run as admitted through the queue, and when: the cache may not show
	// it Running yet (admissionMemory).
	admitted   *perfv1alpha1.PerfRun
	admittedAt time.Time
}

type appliedChild struct {
	digest, resourceVersion string
}

// state is run's memory, made on first use; the caller holds m.mu.
func (m *runMemory) state(run *perfv1alpha1.PerfRun) *runState {
	key := types.NamespacedName{Namespace: run.Namespace, Name: run.Name}
	if m.runs == nil {
		m.runs = map[types.NamespacedName]*runState{}
	}
	s := m.runs[key]
	if s == nil || s.uid != run.UID {
		s = &runState{uid: run.UID}
		m.runs[key] = s
	}
	return s
}

// Forget drops a run's memory: it finished, or is being deleted, or is gone.
func (m *runMemory) Forget(key types.NamespacedName) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.runs, key)
}

// remembers reports whether anything of the run named key is remembered.
func (m *runMemory) remembers(key types.NamespacedName) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runs[key] != nil
}

// sampleDue reports whether run's metrics are due for a read, and if so counts it as read.
func (m *runMemory) sampleDue(run *perfv1alpha1.PerfRun, now time.Time, interval time.Duration) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.state(run)
	if !s.lastSampled.IsZero() && now.Sub(s.lastSampled) < interval {
		return false
	}
	s.lastSampled = now
	return true
}

// samplingDone ends run's sampling: the next read, if any, is due at once.
func (m *runMemory) samplingDone(run *perfv1alpha1.PerfRun) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.state(run).lastSampled = time.Time{}
}

// reportMiss counts one more poll without the report, at now, and returns the count before
// it and when the first was.
func (m *runMemory) reportMiss(run *perfv1alpha1.PerfRun, now time.Time) (tries int, first time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.state(run)
	if s.reportTries == 0 {
		s.reportFirstMiss = now
	}
	s.reportTries++
	return s.reportTries - 1, s.reportFirstMiss
}

// keepReport remembers run's report, read from the frame of digest.
func (m *runMemory) keepReport(run *perfv1alpha1.PerfRun, digest string, rep *result.Report) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.state(run)
	s.report, s.reportDigest, s.reportTries, s.reportFirstMiss = rep, digest, 0, time.Time{}
}

// report is run's report read from the frame of digest, nil when none was kept.
func (m *runMemory) report(run *perfv1alpha1.PerfRun, digest string) *result.Report {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.state(run); s.reportDigest == digest {
		return s.report
	}
	return nil
}

// unchanged reports whether applying u as run's child would repeat the last apply of the
// same desired state onto a child still at the version it produced.
func (m *runMemory) unchanged(run *perfv1alpha1.PerfRun, u *unstructured.Unstructured, digest, currentVersion string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	last, ok := m.state(run).applied[childKey(u)]
	return ok && currentVersion != "" && last.digest == digest && last.resourceVersion == currentVersion
}

// appliedBefore reports whether u was applied before as run's child: it is the run's, no
// need to look who owns it.
func (m *runMemory) appliedBefore(run *perfv1alpha1.PerfRun, u *unstructured.Unstructured) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.state(run).applied[childKey(u)]
	return ok
}

// rememberApplied records what an apply of u as run's child left.
func (m *runMemory) rememberApplied(run *perfv1alpha1.PerfRun, u *unstructured.Unstructured, digest string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.state(run)
	if s.applied == nil {
		s.applied = map[string]appliedChild{}
	}
	s.applied[childKey(u)] = appliedChild{digest: digest, resourceVersion: u.GetResourceVersion()}
}

// admit records run as admitted through the queue at now.
func (m *runMemory) admit(run *perfv1alpha1.PerfRun, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.state(run)
	s.admitted, s.admittedAt = run.DeepCopy(), now
	if m.served == nil {
		m.served = map[string]time.Time{}
	}
	m.served[run.Namespace] = now
}

// lastServed is when namespace last had a run admitted (zero: never, or not since a restart).
func (m *runMemory) lastServed(namespace string) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.served[namespace]
}

// measuringSoon is the cached view of a run corrected by this manager's own admissions: a
// run holds its nodes once admitted, its workloads created or on their way.
func (m *runMemory) measuringSoon(other *perfv1alpha1.PerfRun, now time.Time) (*perfv1alpha1.PerfRun, bool) {
	if other.Finished() {
		return other, false
	}
	if other.Admitted() || other.Status.Phase == perfv1alpha1.PhaseRunning {
		return other, true // the cache has caught up, with where the run landed since
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.runs[types.NamespacedName{Namespace: other.Namespace, Name: other.Name}]
	if s == nil || s.uid != other.UID || s.admitted == nil || now.Sub(s.admittedAt) > admissionMemory {
		return other, false
	}
	return s.admitted, true
}

// Remembers reports whether the reconciler keeps anything in memory of the run named key
// (for tests and debugging: a run that ended must have left nothing behind).
func (r *Reconciler) Remembers(key types.NamespacedName) bool { return r.memory.remembers(key) }

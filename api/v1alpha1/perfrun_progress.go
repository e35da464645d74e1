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

package v1alpha1

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// PathNames are the paths one repetition measures, in the order the load tester is given
// them: the baseline first, a four-path run's one-sidecar paths (client, then server), then
// the sidecar variants in spec order (loadsettings.PhaseOrder counterbalances their order
// over the repetitions). As many as Paths counts.
func (s *PerfRunSpec) PathNames() []string {
	if !s.DaprEnabled() {
		return []string{"direct"}
	}
	var names []string
	if s.BaselineEnabled() {
		names = append(names, "baseline")
	}
	if s.FourPaths() {
		names = append(names, PathClientSidecarOnly, PathServerSidecarOnly)
	}
	for _, v := range s.EffectiveVariants() {
		if v.Name != "" {
			names = append(names, "dapr ("+v.Name+")")
		} else {
			names = append(names, "dapr")
		}
	}
	return names
}

// ProgressAt is where a load that started at start is at now, by the spec's timings.
func (s *PerfRunSpec) ProgressAt(start, now time.Time) RunProgress {
	reps := s.Load.EffectiveRepetitions()
	p := RunProgress{LoadStartTime: metav1.NewTime(start), ExpectedEndTime: metav1.NewTime(start.Add(s.LoadTime())),
		Repetitions: reps, Path: "warm-up"}
	elapsed := now.Sub(start) - s.Load.EffectiveWarmup()
	if elapsed < 0 {
		return p
	}
	paths := s.PathNames()
	order := loadsettings.PhaseOrder(len(paths), int(reps), s.Load.EffectiveDuration())
	ph := order[len(order)-1]
	for _, o := range order {
		d := time.Duration(float64(s.Load.EffectiveDuration()) * o.Fraction())
		if elapsed < d {
			ph = o
			break
		}
		elapsed -= d
	}
	p.Repetition, p.Path = int32(ph.Rep+1), paths[ph.Path]
	return p
}

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

package workload

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// MeasuredPaths are the paths one repetition of spec measures, in the load tester's order
// (result.MeasuredPaths, their one home).
func MeasuredPaths(s *perfv1alpha1.PerfRunSpec) []result.Variant {
	return result.MeasuredPaths(result.PathSet{Dapr: s.DaprEnabled(), Baseline: s.BaselineEnabled(), FourPaths: s.FourPaths(),
		Variants: len(s.Variants)})
}

// PathNames are MeasuredPaths as status.progress names them.
func PathNames(s *perfv1alpha1.PerfRunSpec) []string {
	variants := s.EffectiveVariants() // the Dapr paths, in this order
	var names []string
	for _, v := range MeasuredPaths(s) {
		switch v {
		case result.Baseline:
			names = append(names, "baseline")
		case result.ClientOnly:
			names = append(names, perfv1alpha1.PathClientSidecarOnly)
		case result.ServerOnly:
			names = append(names, perfv1alpha1.PathServerSidecarOnly)
		case result.Direct:
			names = append(names, "direct")
		default:
			if name := variants[0].Name; name != "" {
				names = append(names, "dapr ("+name+")")
			} else {
				names = append(names, "dapr")
			}
			variants = variants[1:]
		}
	}
	return names
}

// ProgressAt is where a load of spec that started at start is at now, by the spec's timings.
func ProgressAt(s *perfv1alpha1.PerfRunSpec, start, now time.Time) perfv1alpha1.RunProgress {
	reps := s.Load.EffectiveRepetitions()
	p := perfv1alpha1.RunProgress{LoadStartTime: metav1.NewTime(start), ExpectedEndTime: metav1.NewTime(start.Add(s.LoadTime())),
		Repetitions: reps, Path: "warm-up"}
	elapsed := now.Sub(start) - s.Load.EffectiveWarmup()
	if elapsed < 0 {
		return p
	}
	paths := PathNames(s)
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

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

package report

import (
	"fmt"
	"strings"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// Phase labels for disturbances outside the measured runs.
const (
	PhaseWarmUp      = "warm-up"
	PhaseBetweenRuns = "between runs"
	PhaseAfterLoad   = "after the load"
)

// PlaceDisturbances labels each disturbance with the part of the load it hit, from the load
// tester's timeline (phases in order). Without a timeline the labels stay empty.
func PlaceDisturbances(ds []perfv1alpha1.Disturbance, phases []accounting.Phase) {
	if len(phases) == 0 {
		return
	}
	for i := range ds {
		ds[i].Phase = phaseAt(ds[i].Time.Time, phases)
	}
}

func phaseAt(t time.Time, phases []accounting.Phase) string {
	if t.Before(phases[0].Start) {
		return PhaseWarmUp
	}
	for i, p := range phases {
		if t.Before(p.Start) {
			return PhaseBetweenRuns
		}
		if t.Before(p.End) {
			n, k := 0, 0
			for j, q := range phases {
				if q.Variant == p.Variant {
					n++
					if j <= i {
						k++
					}
				}
			}
			return fmt.Sprintf("%s run %d of %d, %v in", result.Variant(p.Variant), k, n, t.Sub(p.Start).Round(time.Second))
		}
	}
	return PhaseAfterLoad
}

// DuringMeasurement keeps the disturbances that hit a measured run or the gap between two
// (a recovery there runs on into the next): the warm-up and the time after the load are
// not measured, and a PodKill's own pods were disturbed on purpose. Without a timeline every
// other disturbance counts.
func DuringMeasurement(ds []perfv1alpha1.Disturbance) []perfv1alpha1.Disturbance {
	var out []perfv1alpha1.Disturbance
	for _, d := range ds {
		if d.Phase != PhaseWarmUp && d.Phase != PhaseAfterLoad && d.Fault == nil {
			out = append(out, d)
		}
	}
	return out
}

// maxNamed bounds how many disturbances a condition message names; status has them all.
const maxNamed = 3

// DisturbanceMessage names what happened during measurement, in time order: who, what,
// when and where in the load. Empty when nothing did.
func DisturbanceMessage(ds []perfv1alpha1.Disturbance) string {
	measured := DuringMeasurement(ds)
	if len(measured) == 0 {
		return ""
	}
	var parts []string
	for i, d := range measured {
		if i == maxNamed {
			parts = append(parts, fmt.Sprintf("and %d more (status.disturbances)", len(measured)-maxNamed))
			break
		}
		parts = append(parts, describeDisturbance(d))
	}
	return "disturbed while measured: " + strings.Join(parts, "; ")
}

func describeDisturbance(d perfv1alpha1.Disturbance) string {
	who := fmt.Sprintf("%s pod %s", d.Role, d.Pod)
	if component, ok := strings.CutPrefix(d.Role, roles.ControlPlanePrefix); ok {
		who = fmt.Sprintf("control-plane pod %s (%s)", d.Pod, component)
	}
	if d.Container != "" {
		who += " container " + d.Container
	}
	msg := fmt.Sprintf("%s %s at %s", who, strings.ToLower(string(d.Kind)), d.Time.UTC().Format(time.TimeOnly))
	var notes []string
	if d.Phase != "" {
		notes = append(notes, d.Phase)
	}
	if d.Detail != "" {
		notes = append(notes, d.Detail)
	}
	if len(notes) > 0 {
		msg += " (" + strings.Join(notes, "; ") + ")"
	}
	return msg
}

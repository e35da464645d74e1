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
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
)

func TestDisturbancesArePlacedInTheLoadAndNamed(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	// A B B A: baseline 10:00:10–40, dapr 10:00:41–01:11, dapr 10:01:12–42, baseline 10:01:43–02:13.
	var phases []accounting.Phase
	for i, v := range []string{"b", "d", "d", "b"} {
		start := t0.Add(10*time.Second + time.Duration(i)*31*time.Second)
		phases = append(phases, accounting.Phase{Variant: v, Start: start, End: start.Add(30 * time.Second)})
	}
	at := func(s int, pod string) perfv1alpha1.Disturbance {
		return perfv1alpha1.Disturbance{Time: metav1.NewTime(t0.Add(time.Duration(s) * time.Second)), Kind: perfv1alpha1.DisturbanceCreated,
			Role: "controlPlane/dapr-placement-server", Pod: pod, Detail: "ready after 3s"}
	}
	ds := []perfv1alpha1.Disturbance{at(5, "w"), at(87, "p"), at(102, "g"), at(200, "z")}
	PlaceDisturbances(ds, phases)
	for i, want := range []string{PhaseWarmUp, "dapr run 2 of 2, 15s in", PhaseBetweenRuns, PhaseAfterLoad} {
		if ds[i].Phase != want {
			t.Errorf("disturbance at %v placed in %q, want %q", ds[i].Time.Sub(t0), ds[i].Phase, want)
		}
	}

	msg := DisturbanceMessage(ds)
	want := "disturbed while measured: control-plane pod p (dapr-placement-server) created at 10:01:27 (dapr run 2 of 2, 15s in; ready after 3s); " +
		"control-plane pod g (dapr-placement-server) created at 10:01:42 (between runs; ready after 3s)"
	if msg != want {
		t.Errorf("message =\n%q\nwant\n%q", msg, want)
	}
	if DisturbanceMessage([]perfv1alpha1.Disturbance{ds[0], ds[3]}) != "" {
		t.Error("the warm-up and the time after the load are not measured: nothing to name")
	}

	many := []perfv1alpha1.Disturbance{at(87, "a"), at(88, "b"), at(89, "c"), at(90, "d"), at(91, "e")}
	if msg := DisturbanceMessage(many); !strings.HasSuffix(msg, "; and 2 more (status.disturbances)") {
		t.Errorf("five disturbances named as %q, want three and a count", msg)
	}
}

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

package cli

import (
	"strings"
	"testing"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A history whose runs ran on nodes of different speed says which, and the rows carry each
// run's calibration and the server sidecar's cost in its units.
func TestHistoryNamesRunsOnADifferentMachine(t *testing.T) {
	runs := []perfv1alpha1.PerfRun{*costedRun("50000", 200*time.Microsecond, "10.00"), *costedRun("51000", 196*time.Microsecond, "10.00"),
		*costedRun("30000", 330*time.Microsecond, "9.90")}
	for i, n := range []string{"mon", "tue", "wed"} {
		runs[i].Name = n
	}
	w := calibrationSpread(runs)
	if !strings.Contains(w, "wed (-40%)") || strings.Contains(w, "mon") || strings.Contains(w, "tue") {
		t.Errorf("warning %q, want wed alone, 40%% under the median of 50000", w)
	}
	rows := trend(runs)
	if rows[2].Calibration != "30000" || rows[2].ServerCostUnits != "9.90" {
		t.Errorf("row %+v", rows[2])
	}
	if w := calibrationSpread(runs[:2]); w != "" {
		t.Errorf("two runs 2%% apart: %q", w)
	}
	if w := calibrationSpread(append(runs[:1:1], perfv1alpha1.PerfRun{})); w != "" {
		t.Errorf("one calibrated run: %q", w)
	}
	// A run of an older calibration workload is not compared with the newer ones.
	runs[2].Status.Environment.Calibration[0].Workload = "v1"
	runs[0], runs[2] = runs[2], runs[0]
	if w := calibrationSpread(runs); w != "" {
		t.Errorf("the -40%% run is of another workload version, yet: %q", w)
	}
}

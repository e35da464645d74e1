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

package plots

import (
	"testing"
)

// Finding 9 of issue 34: `report perfsweep/X` panicked on a hand-edited point with
// connections: 0 (a log axis has no place for 0). Such points are left off that axis.
func TestSweepWithPointsALogAxisCannotPlaceDrawsWithoutPanic(t *testing.T) {
	for _, conns := range []int32{0, -4} {
		sw := fixture()
		sw.Points[0].Connections = conns
		charts := ForSweep(sw)
		if len(charts) == 0 {
			t.Fatal("no charts")
		}
		for _, c := range charts {
			if _, err := c.Render(t.TempDir()); err != nil {
				t.Errorf("connections %d, %s: %v", conns, c.Name, err)
			}
		}
	}
	// Every point at 0: nothing to draw on the log axis, still no panic.
	sw := fixture()
	for i := range sw.Points {
		sw.Points[i].Connections = int32(i % 2)
	}
	for _, c := range ForSweep(sw) {
		if _, err := c.Render(t.TempDir()); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}

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

package loadsettings

import (
	"strings"
	"testing"
	"time"
)

// Only a control-plane kill holds its service down, and it lets the service back within
// its wait; only a kill of the target names a variant: the operator checks an order as the
// API checks the fault.
func TestAKillOrdersHoldIsAControlPlanesAndEndsWithinItsWait(t *testing.T) {
	for _, c := range []struct {
		order KillOrder
		want  string // "" when taken
	}{
		{KillOrder{Role: RoleScheduler, Wait: 30 * time.Second, Hold: 20 * time.Second}, ""},
		{KillOrder{Role: RoleSentry, Wait: 30 * time.Second}, ""},
		{KillOrder{Role: RoleTarget, Wait: 30 * time.Second, Hold: time.Second}, "only a PodKill of Dapr's control plane holds"},
		{KillOrder{Role: RolePlacement, Wait: 30 * time.Second, Hold: 30 * time.Second}, "below its wait"},
		{KillOrder{Role: RolePlacement, Wait: 30 * time.Second, Hold: -time.Second}, "at least 0"},
		{KillOrder{Role: RoleTarget, Variant: "d1", Wait: 30 * time.Second}, ""},
		{KillOrder{Role: RoleStore, Variant: "d1", Wait: 30 * time.Second}, "only a PodKill of the Target names a variant"},
	} {
		err := c.order.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v refused: %v", c.order, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: %v, want a refusal saying %q", c.order, err, c.want)
		}
	}
	f := Fault{Kind: FaultPodKill, Role: RoleScheduler, At: 5 * time.Second, For: 30 * time.Second, Hold: 20 * time.Second}
	if o := f.KillOrder(); o.Hold != 20*time.Second || o.Wait != 30*time.Second {
		t.Errorf("order %+v: want the fault's hold and its duration as the wait", o)
	}
	if fs, err := DecodeFaults(EncodeFaults([]Fault{f})); err != nil || len(fs) != 1 || fs[0] != f {
		t.Errorf("decoded %+v, %v: want %+v back", fs, err, f)
	}
}

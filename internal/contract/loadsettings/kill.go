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
	"fmt"
	"slices"
	"strings"
	"time"
)

// KillPath is the operator's route a run's load tester orders a PodKill by, with the run's
// token: the operator deletes the pod only if it is the run's, of a role its spec.faults
// kill, while its load runs.
const KillPath = "/v1/kill"

// The roles a PodKill deletes the pods of: the target app's, the store (broker) the run
// deploys, or the load-tester group's last replica, one pod; or a Dapr control-plane
// service's, every pod of it.
const (
	RoleTarget     = "Target"
	RoleStore      = "Store"
	RoleLoadTester = "LoadTester"
	RoleScheduler  = "Scheduler"
	RolePlacement  = "Placement"
	RoleSentry     = "Sentry"
)

// KillRoles are the roles an order may name.
var KillRoles = []string{RoleTarget, RoleStore, RoleLoadTester, RoleScheduler, RolePlacement, RoleSentry}

// ControlPlaneRole reports whether role is a Dapr control-plane service's: every pod of it
// is killed, and it may be held down.
func ControlPlaneRole(role string) bool {
	return role == RoleScheduler || role == RolePlacement || role == RoleSentry
}

// MaxKillWait bounds how long the operator holds a kill's answer, waiting for the
// replacement: no fault outlasts a phase of a fault run (10 minutes).
const MaxKillWait = 10 * time.Minute

// KillOrder is what the load tester asks of the operator: delete the pod of Role of the run
// Namespace/Run, then answer when its replacement is ready, or after Wait. Variant, for a
// kill of the target of a run with sidecar variants, is the path code of the further
// variant whose target pod is deleted (d1, d2, …); empty for the first's.
// Hold, for a control-plane service, keeps it down: every pod of it that appears within Hold
// of the order is deleted too, and only then are its pods let back (within Wait).
type KillOrder struct {
	Namespace string        `json:"namespace"`
	Run       string        `json:"run"`
	Role      string        `json:"role"`
	Variant   string        `json:"variant,omitempty"`
	Wait      time.Duration `json:"wait"`
	Hold      time.Duration `json:"hold,omitempty"`
}

// KillOrder is what the operator is asked for to apply f (the run is the caller's to fill).
func (f Fault) KillOrder() KillOrder { return KillOrder{Role: f.Role, Wait: f.For, Hold: f.Hold} }

// Check says what is wrong with an order's role and wait; nil for one the operator takes.
func (o KillOrder) Check() error {
	switch {
	case !slices.Contains(KillRoles, o.Role):
		return fmt.Errorf("a PodKill's role must be one of %s, not %q", strings.Join(KillRoles, ", "), o.Role)
	case o.Wait <= 0 || o.Wait > MaxKillWait:
		return fmt.Errorf("a PodKill's wait for its replacement must be above 0 and at most %v, not %v", MaxKillWait, o.Wait)
	case o.Hold != 0 && !ControlPlaneRole(o.Role):
		return fmt.Errorf("only a PodKill of Dapr's control plane holds its service down, not one of %s", o.Role)
	case o.Variant != "" && o.Role != RoleTarget:
		return fmt.Errorf("only a PodKill of the Target names a variant (its target), not one of %s", o.Role)
	case o.Hold < 0 || o.Hold >= o.Wait:
		return fmt.Errorf("a PodKill's hold must be at least 0 and below its wait of %v, not %v: the service is let back within the wait", o.Wait, o.Hold)
	}
	return nil
}

// KillAnswer is what the operator did: the pod it deleted, and the pod made in its place
// (empty: none by the order's wait), Ready with its address when it was ready by then. A
// control-plane kill deletes every pod of the service: Deleted and Replacement list them,
// comma-separated (PodNames splits them), Ready when every one was replaced and ready, and
// ReplacementIP is empty.
type KillAnswer struct {
	Deleted       string `json:"deleted"`
	Replacement   string `json:"replacement,omitempty"`
	Ready         bool   `json:"ready,omitempty"`
	ReplacementIP string `json:"replacementIP,omitempty"`
}

// PodNames are the pods a KillAnswer's Deleted or Replacement names (none for "").
func PodNames(list string) []string {
	if list == "" {
		return nil
	}
	return strings.Split(list, ", ")
}

// JoinPodNames is pods as a KillAnswer names them.
func JoinPodNames(pods []string) string { return strings.Join(pods, ", ") }

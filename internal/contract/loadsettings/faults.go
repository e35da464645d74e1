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
	"encoding/json"
	"fmt"
	"time"
)

// The settings of a run with faults (spec.faults).
const (
	// Faults is the run's faults, as JSON (EncodeFaults).
	Faults = "faults"
	// FaultURL is the target app's fault route (FaultPath on its pod's address); FaultToken
	// is what the route asks for: the run's token, from its Secret, set on both sides.
	FaultURL   = "fault-url"
	FaultToken = "fault-token"
	// VariantFaultURLs are the further sidecar variants' target apps (paths d1, d2, …),
	// comma-separated, as FaultURL is the first's: each variant's faults go through its own.
	VariantFaultURLs = "variant-fault-urls"
	// KillURL is the operator's kill route (KillPath on its address), for a run with a
	// PodKill; the run's namespace and name (RunNamespace, RunName) say whose pods.
	KillURL      = "kill-url"
	RunNamespace = "run-namespace"
	RunName      = "run-name"
)

// FaultPath is the target app's route the load tester switches a fault on by.
const FaultPath = "/daprbench/fault"

// Fault kinds the load tester applies through the target app.
const (
	// FaultTargetErrors: the target answers ErrorPercent of the invocations it gets with 500.
	FaultTargetErrors = "TargetErrors"
	// FaultTargetDelay: the target holds every invocation it gets for Delay before answering.
	FaultTargetDelay = "TargetDelay"
	// FaultPodKill: the operator deletes the pod of Role (every pod of a control-plane
	// service, and for Hold every one that appears), and answers once its replacement is
	// ready (at most For later).
	FaultPodKill = "PodKill"
)

// Fault is one of spec.faults as the load tester applies it: in every measured phase but
// the baseline's, At after the phase's start, for For.
type Fault struct {
	Kind         string        `json:"kind"`
	At           time.Duration `json:"at"`
	For          time.Duration `json:"for"`
	ErrorPercent int           `json:"errorPercent,omitempty"`
	Delay        time.Duration `json:"delay,omitempty"`
	// Role is a PodKill's: whose pod (RoleTarget, RoleStore, or a control-plane service's).
	Role string `json:"role,omitempty"`
	// Hold is a control-plane PodKill's: how long the service is kept down (KillOrder.Hold).
	Hold time.Duration `json:"hold,omitempty"`
}

// Kills reports whether the fault deletes a pod (the operator orders it, not the app).
func (f Fault) Kills() bool { return f.Kind == FaultPodKill }

// NeedsApp reports whether the fault goes through the target app: all but a kill of the
// store or of the control plane are ordered from it, or move the load to its replacement.
func (f Fault) NeedsApp() bool { return !f.Kills() || f.Role == RoleTarget }

// FaultOrder is what the load tester asks of the target app: for For from now, answer
// ErrorPercent of the invocations with 500 and hold each one Delay.
type FaultOrder struct {
	ErrorPercent int           `json:"errorPercent,omitempty"`
	Delay        time.Duration `json:"delay,omitempty"`
	For          time.Duration `json:"for"`
}

// Order is what the app is asked for to apply f.
func (f Fault) Order() FaultOrder {
	return FaultOrder{ErrorPercent: f.ErrorPercent, Delay: f.Delay, For: f.For}
}

// MaxFaultDelay bounds a TargetDelay: the load tester gives a request 10s, and near that
// its timeout is what is measured.
const MaxFaultDelay = 5 * time.Second

// Check says what is wrong with an order; nil for one the app takes.
func (o FaultOrder) Check() error {
	switch {
	case o.For <= 0:
		return fmt.Errorf("a fault's duration must be above 0, not %v", o.For)
	case o.ErrorPercent < 0 || o.ErrorPercent > 100:
		return fmt.Errorf("a fault's error percent must be 0 to 100, not %d", o.ErrorPercent)
	case o.Delay < 0 || o.Delay > MaxFaultDelay:
		return fmt.Errorf("a fault's delay must be 0 to %v, not %v", MaxFaultDelay, o.Delay)
	case o.ErrorPercent == 0 && o.Delay == 0:
		return fmt.Errorf("a fault must fail a share of requests or delay them")
	}
	return nil
}

// EncodeFaults is the Faults setting's value.
func EncodeFaults(fs []Fault) string {
	b, _ := json.Marshal(fs) // plain fields: cannot fail
	return string(b)
}

// DecodeFaults reads the Faults setting, checking each fault's order; empty is none.
func DecodeFaults(s string) ([]Fault, error) {
	if s == "" {
		return nil, nil
	}
	var fs []Fault
	if err := json.Unmarshal([]byte(s), &fs); err != nil {
		return nil, fmt.Errorf("--%s: %w", Faults, err)
	}
	for i, f := range fs {
		if f.At < 0 {
			return nil, fmt.Errorf("--%s: fault %d starts at %v, before its phase", Faults, i, f.At)
		}
		var err error
		switch f.Kind {
		case FaultTargetErrors, FaultTargetDelay:
			err = f.Order().Check()
		case FaultPodKill:
			err = f.KillOrder().Check()
		default:
			err = fmt.Errorf("kind %q, want %s, %s or %s", f.Kind, FaultTargetErrors, FaultTargetDelay, FaultPodKill)
		}
		if err != nil {
			return nil, fmt.Errorf("--%s: fault %d: %w", Faults, i, err)
		}
	}
	return fs, nil
}

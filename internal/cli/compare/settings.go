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

package compare

import (
	"fmt"
	"reflect"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

// SettingsDiffer lists the settings in which two results' runs differ ("qps: 1000 → 500"):
// a comparison of runs that differ in more than the change under test is not that change's.
func SettingsDiffer(a, b perfv1alpha1.ResultDocument) []string {
	var out []string
	var walk func(prefix string, x, y reflect.Value)
	walk = func(prefix string, x, y reflect.Value) {
		for i := 0; i < x.NumField(); i++ {
			tag, _, _ := strings.Cut(x.Type().Field(i).Tag.Get("json"), ",")
			fx, fy := x.Field(i), y.Field(i)
			if fx.Kind() == reflect.Struct {
				walk(prefix+tag+".", fx, fy)
				continue
			}
			if !reflect.DeepEqual(fx.Interface(), fy.Interface()) {
				out = append(out, fmt.Sprintf("%s%s: %v → %v", prefix, tag, textfmt.OrDash(fmt.Sprint(fx.Interface())), textfmt.OrDash(fmt.Sprint(fy.Interface()))))
			}
		}
	}
	walk("", reflect.ValueOf(settingsOf(a)), reflect.ValueOf(settingsOf(b)))
	return out
}

// settings are what a run was asked to measure, as its exported document says.
type settings struct {
	Scenario perfv1alpha1.Scenario     `json:"scenario"`
	Load     perfv1alpha1.DocumentLoad `json:"load"`
	Dapr     perfv1alpha1.DocumentDapr `json:"dapr"`
	// ActorHost is an ActorActivation run's actor runtime: two runs that differ in it
	// measure the SDK's share of the latency, not the change under test.
	ActorHost perfv1alpha1.ActorHost `json:"actorHost"`
	// Configuration is the Dapr Configuration a run named, with its generation and the
	// settings that shape a figure; empty for one the run wrote (its settings are dapr's).
	Configuration string `json:"daprConfiguration"`
	// Resiliency is every Dapr Resiliency that applied to a run's sidecars (a timeout or
	// retry on its calls shapes a figure); "none" without one.
	Resiliency string `json:"daprResiliency"`
	// KnownAnswerDelay is the calibration hold on every call through Dapr ("none" without).
	KnownAnswerDelay string `json:"knownAnswerDelay"`
}

func settingsOf(e perfv1alpha1.ResultDocument) settings {
	s := settings{Scenario: e.Scenario, Load: e.Load, Dapr: e.Dapr}
	s.KnownAnswerDelay = "none"
	if e.Result != nil {
		s.ActorHost = e.Result.ActorHost
		if d := e.Result.KnownAnswerDelay; d != nil {
			s.KnownAnswerDelay = d.Duration.String()
		}
	}
	if named := e.Environment.NamedConfiguration(); named != nil {
		s.Configuration = named.Describe()
	}
	s.Resiliency = e.Environment.DescribeResiliencies(e.Run.Name)
	if s.ActorHost == "" && perfv1alpha1.CapabilityOf(e.Scenario).ActorHost != nil {
		s.ActorHost = perfv1alpha1.ActorHostMinimal // a result from before the result document's result.actorHost: the minimal host was the only one
	}
	return s
}

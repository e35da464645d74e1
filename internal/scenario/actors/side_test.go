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

package actors

import (
	"slices"
	"strings"
	"testing"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/operator/workload/workloadtest"
	"github.com/daprbench/daprbench/internal/pods/perfapp"
)

var testOptions = workload.Options{Image: workloadtest.Image, PullPolicy: workloadtest.PullPolicy}

// A GoSDK run's target hosts its actors through the Go SDK and its load tester calls the
// SDK actor's one method; a run left at the default host passes no host, so a target image
// built before the flag still starts.
func TestTheActorHostReachesTheTargetAndTheMethodTheLoadTester(t *testing.T) {
	cases := []struct {
		name     string
		actors   *perfv1alpha1.ActorsSpec
		hostArg  string // empty: none
		wantPath string
	}{
		{"GoSDK", &perfv1alpha1.ActorsSpec{ActorType: "Counter", Host: perfv1alpha1.ActorHostGoSDK}, "--actor-host=GoSDK", "/v1.0/actors/Counter/{uuid}/method/Activate"},
		{"Minimal, explicit", &perfv1alpha1.ActorsSpec{ActorType: "Counter", Host: perfv1alpha1.ActorHostMinimal}, "", "/v1.0/actors/Counter/{uuid}/method/activate"},
		{"the default", nil, "", "/method/activate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := workloadtest.NewRun(perfv1alpha1.ScenarioActorActivation, func(s *perfv1alpha1.PerfRunSpec) { s.Actors = tc.actors })
			args := workload.TargetDeployment(run, testOptions).Spec.Template.Spec.Containers[0].Args
			if !slices.Contains(args, "--actor-type="+run.ActorType()) {
				t.Errorf("target args %v name no actor type", args)
			}
			var hostArgs, want []string
			for _, a := range args {
				if strings.HasPrefix(a, "--actor-host") {
					hostArgs = append(hostArgs, a)
				}
			}
			if tc.hostArg != "" {
				want = []string{tc.hostArg}
			}
			if !slices.Equal(hostArgs, want) {
				t.Errorf("target's host args %v, want %v", hostArgs, want)
			}
			url := workloadtest.EnvMap(workload.LoadTesterEnv(run, ""))["DAPRBENCH_DAPR_URL"]
			if !strings.HasSuffix(url, tc.wantPath) {
				t.Errorf("load tester calls %q, want …%s", url, tc.wantPath)
			}
		})
	}
}

// The operator spells out the app's host names and its SDK actor's method, as it does the
// invocation method: it does not link the app.
func TestTheActorHostsAreTheAppsOwn(t *testing.T) {
	if string(perfv1alpha1.ActorHostMinimal) != string(perfapp.ActorHostMinimal) || string(perfv1alpha1.ActorHostGoSDK) != string(perfapp.ActorHostGoSDK) {
		t.Errorf("the API's hosts %s, %s; the app's %s, %s", perfv1alpha1.ActorHostMinimal, perfv1alpha1.ActorHostGoSDK, perfapp.ActorHostMinimal, perfapp.ActorHostGoSDK)
	}
	if perfv1alpha1.GoSDKActorMethod != perfapp.SDKActorMethod {
		t.Errorf("a GoSDK run calls %q, the app's SDK actor has %q", perfv1alpha1.GoSDKActorMethod, perfapp.SDKActorMethod)
	}
}

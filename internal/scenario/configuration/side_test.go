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

package configuration

import (
	"context"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/preflight"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/operator/workload/workloadtest"
)

// A Configuration run deploys Redis, its Service and a configuration.redis Component scoped to
// the load tester; no target app. The load tester's daprd reads the Component, the baseline
// the same Redis with the run's token as its password; cleanup knows the Component.
func TestAConfigurationRunDeploysRedisAndPointsBothPathsAtIt(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioConfiguration, func(s *perfv1alpha1.PerfRunSpec) {
		s.Configuration = &perfv1alpha1.ConfigurationSpec{Keys: 20}
	})
	run.Status.TokenSecret, run.Status.StorePassword = "bench-token-abcde", true
	objs := workload.ScenarioChildren(run, workload.Options{RedisImage: "registry.example/redis:7"})
	if len(objs) != 3 {
		t.Fatalf("children = %d, want the store's Service, Deployment and Component", len(objs))
	}
	c := objs[1].(*appsv1.Deployment).Spec.Template.Spec.Containers[0]
	if c.Image != "registry.example/redis:7" || !slices.Contains(c.Args, "--requirepass") {
		t.Errorf("store: image %q, args %q: want the operator's image, with the run's token as its password", c.Image, c.Args)
	}
	comp := objs[2].(*unstructured.Unstructured)
	kind, _, _ := unstructured.NestedString(comp.Object, "spec", "type")
	scopes, _, _ := unstructured.NestedStringSlice(comp.Object, "scopes")
	if comp.GetName() != "bench-configstore" || kind != "configuration.redis" || !slices.Equal(scopes, []string{"bench-loadtester"}) {
		t.Errorf("Component %s of type %s, scopes %v", comp.GetName(), kind, scopes)
	}
	if got := workload.WaitedDeployments(run); !slices.Equal(got, []string{"bench-store"}) {
		t.Errorf("waits for %v, want the store", got)
	}
	if !workload.DeploysStore(run) || !workload.NeedsRunToken(run) || workload.NeedsTargetIP(run) {
		t.Error("a Configuration run deploys its store, guarded by the run's token, and has no target")
	}
	env := workloadtest.EnvMap(workload.LoadTesterEnv(run, ""))
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-configuration+http://localhost:3500/bench-configstore?keys=20"; got != want {
		t.Errorf("dapr url = %q, want %q", got, want)
	}
	if got, want := env[ls.Env(ls.BaselineURL)], "redis-configuration://bench-store:6379/?keys=20"; got != want {
		t.Errorf("baseline url = %q, want %q", got, want)
	}
	password := false
	for _, e := range workload.LoadTesterEnv(run, "") {
		if e.Name == ls.Env(ls.StorePassword) && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name == "bench-token-abcde" {
			password = true
		}
	}
	if !password {
		t.Error("the baseline, which writes the items, is not given the store's password")
	}
	var cleaned []string
	for _, o := range workload.DaprChildren(run) {
		cleaned = append(cleaned, o.GetName())
	}
	if !slices.Contains(cleaned, "bench-configstore") {
		t.Errorf("cleanup deletes %v, not the configuration store's Component", cleaned)
	}
	demands := workload.PodDemands(run, workload.Options{})
	if len(demands) != 2 || demands[0].Pod != "store" {
		t.Errorf("pod demands = %+v, want the store and the load tester", demands)
	}
}

// Over gRPC the Dapr path is daprd's GetConfiguration, with the default 100 items.
func TestAConfigurationRunOverGRPCCallsGetConfiguration(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioConfiguration, func(s *perfv1alpha1.PerfRunSpec) {
		s.Protocol.Caller = perfv1alpha1.ProtocolGRPC
	})
	if got, want := workloadtest.EnvMap(workload.LoadTesterEnv(run, ""))[ls.Env(ls.DaprURL)], "dapr-configuration+grpc://localhost:50001/bench-configstore?keys=100"; got != want {
		t.Errorf("dapr url = %q, want %q", got, want)
	}
}

// Preflight records the store the run deploys, and refuses it where the operator makes no
// NetworkPolicy, naming the fix a Configuration run has (it cannot name a store of its own).
func TestConfigurationPreflightRecordsTheStoreOrRefusesItUnguarded(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioConfiguration)
	run.Status.Environment = &perfv1alpha1.Environment{}
	if reason, msg, err := (check{}).Refusal(context.Background(), preflight.Cluster{NetworkPolicies: true}, run); reason != "" || err != nil {
		t.Fatalf("refused: %s %s %v", reason, msg, err)
	}
	if got, want := run.Status.Environment.Store, "bench-configstore (configuration.redis, deployed by the run) at bench-store:6379"; got != want {
		t.Errorf("environment store %q, want %q", got, want)
	}
	reason, msg, _ := (check{}).Refusal(context.Background(), preflight.Cluster{}, run)
	if reason != perfv1alpha1.ReasonNetworkPoliciesOff || strings.Contains(msg, "Name a") || !strings.Contains(msg, "turn NetworkPolicies on") {
		t.Errorf("without NetworkPolicies: %s %q", reason, msg)
	}
}

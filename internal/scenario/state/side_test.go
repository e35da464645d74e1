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

package state

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/operator/workload/workloadtest"
)

// A State run on a store it deploys: Redis (the operator's image, no persistence), its
// Service and a state.redis Component scoped to the load tester; no target app. The load
// tester's daprd calls the Component, the baseline the same Redis.
func TestAStateRunDeploysRedisAndPointsBothPathsAtIt(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) {
		s.State = &perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateSave, Keys: 200}
	})
	run.Status.TokenSecret, run.Status.StorePassword = "bench-token-abcde", true
	objs := workload.ScenarioChildren(run, workload.Options{RedisImage: "registry.example/redis:7"})
	if len(objs) != 3 {
		t.Fatalf("children = %d, want the store's Service, Deployment and Component", len(objs))
	}
	d := objs[1].(*appsv1.Deployment)
	c := d.Spec.Template.Spec.Containers[0]
	if c.Image != "registry.example/redis:7" || d.Labels[workload.LabelComponent] != string(workload.RoleStore) || d.Spec.Template.Annotations[workload.AnnotationDaprEnabled] != "" {
		t.Errorf("store Deployment: image %q, role %q, annotations %v", c.Image, d.Labels[workload.LabelComponent], d.Spec.Template.Annotations)
	}
	if want := []string{"--port", "6379", "--save", "", "--appendonly", "no", "--maxmemory", "384mb", "--requirepass", "$(REDIS_PASSWORD)"}; !slices.Equal(c.Args, want) {
		t.Errorf("redis args = %q, want no persistence, a memory cap and a password (protected mode on): %q", c.Args, want)
	}
	// Its password is the run's token, from the run's Secret, as its clients' is.
	if len(c.Env) != 1 || c.Env[0].Name != "REDIS_PASSWORD" || c.Env[0].ValueFrom == nil || c.Env[0].ValueFrom.SecretKeyRef == nil ||
		c.Env[0].ValueFrom.SecretKeyRef.Name != "bench-token-abcde" || c.Env[0].ValueFrom.SecretKeyRef.Key != workload.RunTokenKey {
		t.Errorf("store env %+v, want REDIS_PASSWORD from the run's token Secret", c.Env)
	}
	if !workload.NeedsRunToken(run) || !workload.DeploysStore(run) {
		t.Error("a run that deploys its store needs the run's token, as the store's password")
	}
	if l := c.Resources.Limits.Memory(); l.String() != "512Mi" {
		t.Errorf("store memory limit %s, want 512Mi above Redis's own cap", l)
	}
	comp := objs[2].(*unstructured.Unstructured)
	kind, _, _ := unstructured.NestedString(comp.Object, "spec", "type")
	scopes, _, _ := unstructured.NestedStringSlice(comp.Object, "scopes")
	if comp.GetName() != "bench-statestore" || kind != "state.redis" || !slices.Equal(scopes, []string{"bench-loadtester"}) {
		t.Errorf("Component %s of type %s, scopes %v", comp.GetName(), kind, scopes)
	}
	metadata, _, _ := unstructured.NestedSlice(comp.Object, "spec", "metadata")
	var password map[string]any
	for _, m := range metadata {
		if m.(map[string]any)["name"] == "redisPassword" {
			password = m.(map[string]any)
		}
	}
	if ref, _ := password["secretKeyRef"].(map[string]any); ref["name"] != "bench-token-abcde" || ref["key"] != workload.RunTokenKey || password["value"] != nil {
		t.Errorf("Component's redisPassword %v, want a secretKeyRef to the run's token", password)
	}
	if got := workload.WaitedDeployments(run); !slices.Equal(got, []string{"bench-store"}) {
		t.Errorf("waits for %v, want the store", got)
	}
	if workload.NeedsTargetIP(run) {
		t.Error("a State run has no target whose IP the load tester needs")
	}
	env := workloadtest.EnvMap(workload.LoadTesterEnv(run, ""))
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-state+http://localhost:3500/bench-statestore?keys=200&op=Save"; got != want {
		t.Errorf("dapr url = %q, want %q", got, want)
	}
	if got, want := env[ls.Env(ls.BaselineURL)], "redis://bench-store:6379/?keys=200&op=Save"; got != want {
		t.Errorf("baseline url = %q, want %q", got, want)
	}
	if got := secretEnvOf(workload.LoadTesterEnv(run, ""), ls.Env(ls.StorePassword)); got != "bench-token-abcde" {
		t.Errorf("the baseline's store password comes from Secret %q, want the run's token", got)
	}
	demands := workload.PodDemands(run, workload.Options{})
	if len(demands) != 2 || demands[0].Pod != "store" || demands[0].Target {
		t.Errorf("pod demands = %+v, want the store and the load tester", demands)
	}
}

// A State run on the namespace's own Component deploys nothing; over gRPC its Dapr path is
// daprd's gRPC state API, and without a baseline there is no direct path.
func TestAStateRunOnANamedComponentDeploysNothing(t *testing.T) {
	off := false
	run := workloadtest.NewRun(perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) {
		s.State = &perfv1alpha1.StateSpec{Component: "orders"}
		s.Baseline = &off
		s.Protocol.Caller = perfv1alpha1.ProtocolGRPC
	})
	if objs := workload.ScenarioChildren(run, workload.Options{}); len(objs) != 0 || len(workload.WaitedDeployments(run)) != 0 {
		t.Errorf("children %v, waits for %v: want none", objs, workload.WaitedDeployments(run))
	}
	env := workloadtest.EnvMap(workload.LoadTesterEnv(run, ""))
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-state+grpc://localhost:50001/orders?keys=1000&op=Get"; got != want {
		t.Errorf("dapr url = %q, want %q", got, want)
	}
	if _, ok := env[ls.Env(ls.BaselineURL)]; ok {
		t.Error("a baseline URL without a baseline")
	}
	// With the baseline on, it calls the address preflight read from the Component.
	on := true
	run.Spec.Baseline = &on
	run.Status.Environment = &perfv1alpha1.Environment{StoreAddress: "redis.shared:6380"}
	if got := workloadtest.EnvMap(workload.LoadTesterEnv(run, ""))[ls.Env(ls.BaselineURL)]; got != "redis://redis.shared:6380/?keys=1000&op=Get" {
		t.Errorf("baseline url = %q", got)
	}
}

// A bulk operation's paths carry its keys a request, the default 10 unless set; a
// single-key operation's carry none.
func TestABulkOperationsPathsCarryItsBulkSize(t *testing.T) {
	for _, tc := range []struct {
		state perfv1alpha1.StateSpec
		want  string
	}{
		{perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateBulkGet}, "bulk=10&keys=1000&op=BulkGet"},
		{perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateTransaction, BulkSize: 25, Keys: 50}, "bulk=25&keys=50&op=Transaction"},
		{perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateSaveThenGet}, "keys=1000&op=SaveThenGet"},
	} {
		st := tc.state
		env := workloadtest.EnvMap(workload.LoadTesterEnv(workloadtest.NewRun(perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) { s.State = &st }), ""))
		for _, name := range []string{ls.DaprURL, ls.BaselineURL} {
			if got := env[ls.Env(name)]; !strings.HasSuffix(got, "?"+tc.want) {
				t.Errorf("%s: %s = %q, want the query %q", tc.state.Operation, name, got, tc.want)
			}
		}
	}
}

// The run's NetworkPolicy guards the store's port as it guards the targets' ports.
func TestTheStoreIsGuardedLikeATarget(t *testing.T) {
	p := workload.NetworkPolicies(workloadtest.NewRun(perfv1alpha1.ScenarioState))[0]
	roles := p.Spec.PodSelector.MatchExpressions[0].Values
	guarded := false
	for _, port := range p.Spec.Ingress[0].Ports {
		guarded = guarded || (port.Port.IntVal == workload.StorePort && *port.Protocol == corev1.ProtocolTCP)
	}
	if !slices.Equal(roles, []string{"target", "baseline", "store"}) || !guarded {
		t.Errorf("policy selects %v, guards the store port: %v", roles, guarded)
	}
}

// A State run places its load tester relative to the store it deploys; a run that gave up its
// store for a named Component deletes it, never a Component it does not own (deleteChild).
func TestAStateRunPlacesBesideItsStoreAndDropsAStoreItNoLongerWants(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) { s.Placement = perfv1alpha1.PlacementSameNode })
	aff := workload.LoadTesterJob(run, workload.Options{}, "").Spec.Template.Spec.Affinity
	if aff == nil || aff.PodAffinity == nil || aff.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchLabels[workload.LabelComponent] != string(workload.RoleStore) {
		t.Errorf("SameNode affinity = %+v, want the store's pods", aff)
	}
	if got := workload.UnwantedChildren(run); len(got) != 0 {
		t.Errorf("a run with its store wants it: unwanted %v", got)
	}
	run.Spec.State = &perfv1alpha1.StateSpec{Component: "orders"}
	var names []string
	for _, o := range workload.UnwantedChildren(run) {
		names = append(names, fmt.Sprintf("%T %s", o, o.GetName()))
	}
	want := []string{"*v1.Deployment bench-store", "*v1.Service bench-store", "*unstructured.Unstructured bench-statestore"}
	if !slices.Equal(names, want) {
		t.Errorf("unwanted = %v, want %v", names, want)
	}
	if workload.HasTargetPod(run) {
		t.Error("a run on a named Component has no pod its load ends at")
	}
}

// secretEnvOf is the Secret an environment variable is read from ("" when none).
func secretEnvOf(env []corev1.EnvVar, name string) string {
	for _, e := range env {
		if e.Name == name && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			return e.ValueFrom.SecretKeyRef.Name
		}
	}
	return ""
}

// A run provisioned by a manager whose stores had no password has no token Secret: its store
// keeps running without one (a password now would restart it mid-run, and its Job's
// baseline could not be told it), and nothing refers to a Secret it does not have.
func TestAStoreProvisionedBeforePasswordsKeepsRunningWithout(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioState)
	objs := workload.ScenarioChildren(run, workload.Options{})
	c := objs[1].(*appsv1.Deployment).Spec.Template.Spec.Containers[0]
	if !slices.Contains(c.Args, "--protected-mode") || slices.Contains(c.Args, "--requirepass") || len(c.Env) != 0 {
		t.Errorf("store args %q, env %+v: want the store as it was provisioned, without a password", c.Args, c.Env)
	}
	if got := secretEnvOf(workload.LoadTesterEnv(run, ""), ls.Env(ls.StorePassword)); got != "" {
		t.Errorf("the load tester reads a password from Secret %q the run does not have", got)
	}
	if !workload.StoreOnlyToken(run) {
		t.Error("a State run's token is its store's password alone")
	}
}

// A run whose token a manager made before stores had passwords (a load-tester group's token,
// no status.storePassword) keeps its store without one after the upgrade: a password now
// would restart the store under its running Job, whose baseline presents none.
func TestARunProvisionedBeforeStorePasswordsKeepsItsStoreOpen(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) {
		s.State = &perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateSave, Keys: 200}
		s.LoadTester.Replicas = 2
	})
	run.Status.Phase, run.Status.TokenSecret = perfv1alpha1.PhaseRunning, "bench-token-abcde"
	objs := workload.ScenarioChildren(run, workload.Options{})
	c := objs[1].(*appsv1.Deployment).Spec.Template.Spec.Containers[0]
	if slices.Contains(c.Args, "--requirepass") || !slices.Contains(c.Args, "--protected-mode") || len(c.Env) != 0 {
		t.Errorf("store args %q, env %+v: want it kept as provisioned, with no password", c.Args, c.Env)
	}
	metadata, _, _ := unstructured.NestedSlice(objs[2].(*unstructured.Unstructured).Object, "spec", "metadata")
	for _, m := range metadata {
		if m.(map[string]any)["name"] == "redisPassword" && m.(map[string]any)["value"] != "" {
			t.Errorf("Component's redisPassword %v, want none", m)
		}
	}
	for _, e := range workload.LoadTesterEnv(run, "") {
		if e.Name == ls.Env(ls.StorePassword) {
			t.Errorf("the baseline is given a store password (%+v) its store does not ask for", e)
		}
	}
}

// A run whose token a manager made for its store alone, before status.storePassword was
// written, keeps the password it was provisioned with after the upgrade: that token was only
// ever the store's password.
func TestAStoreOnlyTokenMadeBeforeStatusStorePasswordStillGuardsTheStore(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) {
		s.State = &perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateSave, Keys: 200}
	})
	run.Status.Phase, run.Status.TokenSecret = perfv1alpha1.PhaseRunning, "bench-token-abcde"
	objs := workload.ScenarioChildren(run, workload.Options{})
	c := objs[1].(*appsv1.Deployment).Spec.Template.Spec.Containers[0]
	if !slices.Contains(c.Args, "--requirepass") || slices.Contains(c.Args, "--protected-mode") {
		t.Errorf("store args %q: want the password it was provisioned with", c.Args)
	}
	if got := secretEnvOf(workload.LoadTesterEnv(run, ""), ls.Env(ls.StorePassword)); got != run.Status.TokenSecret {
		t.Errorf("the baseline reads its store password from Secret %q, want %q", got, run.Status.TokenSecret)
	}
}

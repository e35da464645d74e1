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

// Package workload builds the objects a PerfRun owns: pure functions from a PerfRun (and the
// operator's options) to Deployments, Services, the load-tester Job and Dapr objects, with
// deterministic names and labels so the controller can converge them.
package workload

import (
	"fmt"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Ports and paths of the target app (cmd/perfapp).
const (
	AppPort = 3000
	// AppGRPCPort serves Dapr's app-callback gRPC service beside the HTTP port.
	AppGRPCPort     = 3001
	SidecarGRPCPort = 50001
	// InvokeMethod is perfapp.InvokeMethod, spelled out: the manager does not link the
	// app (nor the gRPC stack it serves); a test checks the two agree.
	InvokeMethod    = "test"
	SidecarHTTPPort = 3500
	// GroupPort is where the leader of a load-tester group (pod 0) listens for the others.
	GroupPort       = 8079
	ContainerTarget = "app"
	ContainerTester = "loadtester"
	// ContainerStore is the store's container in the Deployment a State run makes.
	ContainerStore = "store"
	// AnnotationDaprEnabled asks Dapr's injector for a sidecar.
	AnnotationDaprEnabled = "dapr.io/enabled"
	// AnnotationActorType is on an actor run's target Deployment: the actor type it hosts,
	// so a run can see that another run's target hosts the type it would use.
	AnnotationActorType = "perf.daprbench.io/actor-type"
	// ContainerDaprd is the sidecar container Dapr's injector adds to a pod.
	ContainerDaprd   = "daprd"
	TerminationLog   = "/dev/termination-log"
	defaultImageTag  = "daprbench:dev"
	perfappBinary    = "/perfapp"
	loadtesterBinary = "/loadtester"
)

// Role is the part a pod plays in a run; it is the app.kubernetes.io/component label.
type Role string

const (
	RoleTarget     Role = "target"
	RoleBaseline   Role = "baseline"
	RoleLoadTester Role = "loadtester"
	// RoleStore is the store a State run deploys.
	RoleStore Role = "store"
	// roleDapr labels the Dapr objects of a run (not a pod role).
	roleDapr Role = "dapr"
)

// Labels.
const (
	LabelName      = "app.kubernetes.io/name"
	LabelInstance  = "app.kubernetes.io/instance"
	LabelComponent = "app.kubernetes.io/component"
	LabelManagedBy = "app.kubernetes.io/managed-by"
	LabelPartOf    = "app.kubernetes.io/part-of"
	// LabelRun carries the PerfRun's name on every child; LabelGeneration the spec generation
	// a child was built for.
	LabelRun        = "perf.daprbench.io/run"
	LabelGeneration = "perf.daprbench.io/generation"
	managerName     = "daprbench"
)

// Options are the operator-wide settings the builders need.
type Options struct {
	// Image holds every binary; used unless the PerfRun overrides it per role.
	Image string
	// PullPolicy of the run's containers.
	PullPolicy string
	// PullSecrets are the names of Secrets the run's pods pull their images with; each must
	// exist in the run's namespace.
	PullSecrets []string
	// RedisImage is the store a State run deploys (DefaultRedisImage when empty).
	RedisImage string
	// KillURL is the operator's kill route as a run's load tester reaches it (its Service);
	// empty: the operator serves none, and a run with a PodKill is refused.
	KillURL string
}

// Names are the deterministic names of a run's children.
type Names struct {
	Target, Baseline, Tracing, StateStore, Job string
	// Store is the Deployment and Service of the store a State run deploys (and of the
	// broker a PubSub run deploys).
	Store string
	// PubSub and Subscription are a PubSub run's Component and declarative Subscription.
	PubSub, Subscription string
	// ServiceAccount is the identity of the run's pods.
	ServiceAccount string
	// Histograms is the ConfigMap holding each path's full histograms.
	Histograms string
	// Profiles is the ConfigMap holding the daprd CPU profiles (spec.profiling).
	Profiles string
	// TargetAppID and TesterAppID are the Dapr app ids.
	TargetAppID, TesterAppID string
}

// NamesFor returns the names of run's children. The Job's name carries the generation: a
// Job's pod template is immutable, so every generation gets a Job of its own.
func NamesFor(run *perfv1alpha1.PerfRun) Names {
	n := run.Name
	return Names{
		Target:         n + "-target",
		Baseline:       n + "-baseline",
		Tracing:        n + "-tracing",
		StateStore:     n + "-statestore",
		Store:          n + "-store",
		PubSub:         n + "-pubsub",
		Subscription:   n + "-subscription",
		Job:            fmt.Sprintf("%s-load-%d", n, run.Generation),
		ServiceAccount: n + "-runner",
		Histograms:     n + "-histograms",
		Profiles:       n + "-profiles",
		TargetAppID:    n + "-target",
		TesterAppID:    n + "-loadtester",
	}
}

// Labels returns the labels of a child of run playing role.
func Labels(run *perfv1alpha1.PerfRun, role Role) map[string]string {
	return map[string]string{
		LabelName:      "daprbench",
		LabelInstance:  run.Name,
		LabelComponent: string(role),
		LabelManagedBy: managerName,
		LabelPartOf:    "daprbench",
		LabelRun:       run.Name,
	}
}

// Selector returns the labels that select role's pods of run.
func Selector(run *perfv1alpha1.PerfRun, role Role) map[string]string {
	return map[string]string{LabelRun: run.Name, LabelComponent: string(role)}
}

func imageFor(override string, o Options) string {
	switch {
	case override != "":
		return override
	case o.Image != "":
		return o.Image
	}
	return defaultImageTag
}

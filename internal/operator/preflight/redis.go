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

package preflight

import (
	"context"
	"fmt"
	"net"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// RedisBacked is a scenario's Component: Redis the run deploys, or one of the namespace's
// own the run names (Field), which must be of TypePrefix; a baseline on it needs a RedisType
// Component it can call directly. What names it in messages ("state store").
// Field is empty for a scenario that never names a Component: its store is always the run's.
type RedisBacked struct {
	Scenario, Field, What, TypePrefix, RedisType string
}

// Refusal checks the Component name (named: the user's own; else the run deploys it) and
// records it in status.environment.
func (k RedisBacked) Refusal(ctx context.Context, c Cluster, run *perfv1alpha1.PerfRun, name string, named bool) (reason, msg string, err error) {
	env := run.Status.Environment
	if !named {
		if !c.NetworkPolicies {
			// The store asks for the run's token, and the run's NetworkPolicy keeps other pods
			// from reaching it at all: without the policy any pod could flood or stall it.
			instead := "Ask whoever installed daprbench to turn NetworkPolicies on" // a scenario whose store is always the run's
			if k.Field != "" {
				instead = fmt.Sprintf("Name a %s Component of your own (%s), or ask whoever installed daprbench to turn NetworkPolicies on", k.What, k.Field)
			}
			return perfv1alpha1.ReasonNetworkPoliciesOff, fmt.Sprintf("a %s run deploys a Redis guarded by its password (the run's token) and the run's NetworkPolicy, "+
				"and this operator creates no NetworkPolicy (--network-policies=false, Helm value networkPolicies: false): any pod could reach it, and flood or stall it. "+
				"%s", k.Scenario, instead), nil
		}
		env.Store = fmt.Sprintf("%s (%s, deployed by the run) at %s", name, k.RedisType, workload.StoreAddress(run))
		return "", "", nil
	}
	comp := &unstructured.Unstructured{}
	comp.SetGroupVersionKind(workload.ComponentGVK)
	err = c.Cached.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, comp)
	if apierrors.IsNotFound(err) {
		return perfv1alpha1.ReasonComponentNotFound, fmt.Sprintf("%s names Component %q, which does not exist in namespace %q: "+
			"a run may only name a Component of its own namespace. Create it there, or leave %s empty and the run deploys Redis", k.Field, name, run.Namespace, k.Field), nil
	}
	if err != nil {
		return "", "", err
	}
	kind, _, _ := unstructured.NestedString(comp.Object, "spec", "type")
	if !strings.HasPrefix(kind, k.TypePrefix) {
		return perfv1alpha1.ReasonComponentNotFound, fmt.Sprintf("%s names Component %q of type %q, which is not a %s (%s*)", k.Field, name, kind, k.What, k.TypePrefix), nil
	}
	env.Store = fmt.Sprintf("%s (%s, the namespace's own)", name, kind)
	if !run.Spec.BaselineEnabled() {
		return "", "", nil
	}
	addr, why := redisBaselineAddress(comp.Object, kind, k.RedisType)
	if why != "" {
		return perfv1alpha1.ReasonBaselineImpossible, fmt.Sprintf("spec.baseline is on, but the baseline cannot call Component %q's %s directly: %s. "+
			"Set spec.baseline false to measure the Dapr path alone", name, k.What, why), nil
	}
	env.StoreAddress = addr
	env.Store += " at " + addr
	return "", "", nil
}

// redisBaselineAddress is the host:port a baseline calls for a Component: only one of type
// want (state.redis, pubsub.redis), whose redisHost is a plain value and which has no
// password (the load tester is given no Secret of the user's; it presents only the run's own
// token, to the store the run deploys). why says what stands in the way.
func redisBaselineAddress(component map[string]any, kind, want string) (addr, why string) {
	if kind != want {
		return "", fmt.Sprintf("its type is %s, and the load tester has a direct client for %s only", kind, want)
	}
	items, _, _ := unstructured.NestedSlice(component, "spec", "metadata")
	for _, it := range items {
		m, _ := it.(map[string]any)
		name, _ := m["name"].(string)
		v, plain := m["value"].(string)
		set := m["secretKeyRef"] != nil || (plain && v != "" && v != "false" && v != "0")
		switch {
		case name == "redisHost" && plain:
			addr = v
		case (name == "redisPassword" || name == "redisUsername") && set:
			return "", "it has a " + name + ", and the load tester is given no credentials"
		case (name == "enableTLS" || name == "failover") && set:
			return "", "it sets " + name + ", and the baseline's client speaks plain Redis to one server"
		case name == "redisType" && set && v != "node":
			return "", "its redisType is " + v + ", and the baseline's client speaks to one server"
		case name == "redisDB" && set:
			return "", "it uses redisDB " + v + ", and the baseline's client uses database 0"
		}
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return "", "its redisHost is not a plain host:port value"
	}
	return addr, ""
}

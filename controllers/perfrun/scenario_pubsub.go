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

package perfrun

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// pubsubPreflight is PubSub's check: a Component the run names exists in its namespace and
// is a pub/sub broker, a baseline on it can reach the broker directly, and a declarative
// subscription's kind is served. It records the broker in status.environment.
type pubsubPreflight struct{}

func (pubsubPreflight) refusal(ctx context.Context, r *Reconciler, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	settings := run.Spec.PubSubSettings()
	if settings.Subscription == perfv1alpha1.SubscriptionDeclarative {
		gvk := workload.SubscriptionGVK
		if _, err := r.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version); meta.IsNoMatchError(err) {
			return perfv1alpha1.ReasonDaprFeatureMissing, "spec.pubsub.subscription Declarative needs Dapr's Subscription kind (dapr.io/v2alpha1), " +
				"which this cluster does not serve: upgrade Dapr, or subscribe Programmatic", nil
		} else if err != nil {
			return "", "", err
		}
	}
	env := run.Status.Environment
	name := workload.PubSubComponentName(run)
	if settings.Component == "" {
		if !r.NetworkPolicies {
			return perfv1alpha1.ReasonNetworkPoliciesOff, "a PubSub run deploys a Redis without a password, guarded by the run's NetworkPolicy, " +
				"and this operator creates no NetworkPolicy (--network-policies=false, Helm value networkPolicies: false): any pod could read or flush it. " +
				"Name a pub/sub Component of your own (spec.pubsub.component), or ask whoever installed daprbench to turn NetworkPolicies on", nil
		}
		env.Store = fmt.Sprintf("%s (pubsub.redis, deployed by the run) at %s, topic %s", name, workload.StoreAddress(run), workload.PubSubTopic(run))
		return "", "", nil
	}
	c := &unstructured.Unstructured{}
	c.SetGroupVersionKind(workload.ComponentGVK)
	err = r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, c)
	if apierrors.IsNotFound(err) {
		return perfv1alpha1.ReasonComponentNotFound, fmt.Sprintf("spec.pubsub.component names Component %q, which does not exist in namespace %q: "+
			"a run may only name a Component of its own namespace. Create it there, or leave spec.pubsub.component empty and the run deploys Redis", name, run.Namespace), nil
	}
	if err != nil {
		return "", "", err
	}
	kind, _, _ := unstructured.NestedString(c.Object, "spec", "type")
	if !strings.HasPrefix(kind, "pubsub.") {
		return perfv1alpha1.ReasonComponentNotFound, fmt.Sprintf("spec.pubsub.component names Component %q of type %q, which is not a pub/sub broker (pubsub.*)", name, kind), nil
	}
	env.Store = fmt.Sprintf("%s (%s, the namespace's own), topic %s", name, kind, workload.PubSubTopic(run))
	if !run.Spec.BaselineEnabled() {
		return "", "", nil
	}
	addr, why := redisBaselineAddress(c.Object, kind, "pubsub.redis")
	if why != "" {
		return perfv1alpha1.ReasonBaselineImpossible, fmt.Sprintf("spec.baseline is on, but the baseline cannot reach Component %q's broker directly: %s. "+
			"Set spec.baseline false to measure the Dapr path alone", name, why), nil
	}
	env.StoreAddress = addr
	env.Store += " at " + addr
	return "", "", nil
}

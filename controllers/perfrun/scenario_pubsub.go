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

	"k8s.io/apimachinery/pkg/api/meta"

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
	reason, msg, err = broker.refusal(ctx, r, run, workload.PubSubComponentName(run), settings.Component != "")
	if reason == "" && err == nil {
		run.Status.Environment.Store += ", topic " + workload.PubSubTopic(run)
	}
	return reason, msg, err
}

// broker is what a PubSub run publishes to.
var broker = redisBackedComponent{scenario: "PubSub", field: "spec.pubsub.component", what: "pub/sub broker", typePrefix: "pubsub.", redisType: "pubsub.redis"}

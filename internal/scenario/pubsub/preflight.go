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

package pubsub

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
)

// check is PubSub's preflight: a Component the run names exists in its namespace and is a
// pub/sub broker, a baseline on it can reach the broker directly, and a declarative
// subscription's kind is served. It records the broker in status.environment.
type check struct{}

// broker is what a PubSub run publishes to.
var broker = preflight.RedisBacked{Scenario: "PubSub", Field: "spec.pubsub.component", What: "pub/sub broker", TypePrefix: "pubsub.", RedisType: "pubsub.redis"}

func (check) Refusal(ctx context.Context, c preflight.Cluster, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	settings := run.Spec.PubSubSettings()
	if settings.Subscription == perfv1alpha1.SubscriptionDeclarative {
		gvk := SubscriptionGVK
		if _, err := c.RESTMapper.RESTMapping(gvk.GroupKind(), gvk.Version); meta.IsNoMatchError(err) {
			return perfv1alpha1.ReasonDaprFeatureMissing, "spec.pubsub.subscription Declarative needs Dapr's Subscription kind (dapr.io/v2alpha1), " +
				"which this cluster does not serve: upgrade Dapr, or subscribe Programmatic", nil
		} else if err != nil {
			return "", "", err
		}
	}
	reason, msg, err = broker.Refusal(ctx, c, run, ComponentName(run), settings.Component != "")
	if reason == "" && err == nil {
		run.Status.Environment.Store += ", topic " + Topic(run)
	}
	return reason, msg, err
}

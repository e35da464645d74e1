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

package v1alpha1_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// The generated rules and the operator agree on each scenario's baseline: an added-latency
// threshold is admitted exactly when the operator will measure a baseline through Dapr
// (BaselineEnabled, from the same capability's Go side) — for every scenario, with its
// defaults, a named store, the baseline set either way and Dapr off.
var _ = Describe("Scenario capabilities", func() {
	It("admit an added-latency threshold exactly where the operator measures a baseline", func() {
		for _, c := range perfv1alpha1.ScenarioCapabilities {
			shapes := map[string][]func(map[string]any){
				"defaults":       nil,
				"baseline true":  {set("baseline", true)},
				"baseline false": {set("baseline", false)},
				"without Dapr":   {set("dapr.enabled", false)},
			}
			if c.StoreComponent != "" {
				shapes["a named "+c.Store] = []func(map[string]any){set(c.StoreComponent, "orders")}
				shapes["a named "+c.Store+", baseline true"] = []func(map[string]any){set(c.StoreComponent, "orders"), set("baseline", true)}
			}
			for shape, edits := range shapes {
				edits = append([]func(map[string]any){set("scenario", string(c.Scenario))}, edits...)
				u := perfRun("baseline", append(edits, set("thresholds.maxAddedP90", "2ms"))...)
				var spec perfv1alpha1.PerfRunSpec
				Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object["spec"].(map[string]any), &spec)).To(Succeed())
				operatorMeasures := c.NoBaseline == "" && spec.DaprEnabled() && spec.BaselineEnabled()
				err := k8s.Create(ctx, u, client.DryRunAll)
				what := fmt.Sprintf("%s, %s: the operator measures a baseline: %v; admission: %v", c.Scenario, shape, operatorMeasures, err)
				if operatorMeasures {
					Expect(err).NotTo(HaveOccurred(), what)
				} else {
					Expect(err).To(HaveOccurred(), what)
					Expect(err.Error()).To(ContainSubstring("need added latency"), what)
				}
			}
		}
	})
})

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

package cli

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// scheduleRuns are the runs of a schedule's history: those it controls (the schedule
// controller makes itself their controlling owner). The schedule's label only narrows the
// list: anyone who may create a PerfRun can set it, and a run with it alone would forge
// the trend.
func scheduleRuns(ctx context.Context, c client.Client, ns, name string) ([]perfv1alpha1.PerfRun, error) {
	s := &perfv1alpha1.PerfSchedule{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, s); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("no PerfSchedule %q in namespace %q", name, ns)
		}
		return nil, err
	}
	var list perfv1alpha1.PerfRunList
	if err := c.List(ctx, &list, client.InNamespace(ns), client.MatchingLabels{perfv1alpha1.LabelSchedule: name}); err != nil {
		return nil, err
	}
	var runs []perfv1alpha1.PerfRun
	for _, r := range list.Items {
		if r.ControlledBy(s, "PerfSchedule") {
			runs = append(runs, r)
		}
	}
	return runs, nil
}

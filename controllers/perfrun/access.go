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

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/access"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// missingRights says what the operator may not do in namespace of what its role asks for
// there, and the fix; empty when it holds them all. One rules review a run (an access
// review per right only where an authorizer cannot list its rules; every authenticated
// user may ask both of itself, system:basic-user): a namespace deleted
// and created again loses the chart's Role while the manager still serves it, and its
// runs would otherwise wait on refused reads with no word.
func (r *Reconciler) missingRights(ctx context.Context, namespace string) (string, error) {
	needed, err := access.Needed()
	if err != nil {
		return "", err
	}
	missing, err := access.Missing(ctx, access.Self{Client: r.Client}, namespace, needed)
	if err != nil || len(missing) == 0 {
		return "", err
	}
	return fmt.Sprintf("the operator may not %s in namespace %q: its Role there is missing or incomplete "+
		"(a namespace deleted and created again loses the Role the Helm chart made in it). Ask whoever installed daprbench "+
		"to run helm upgrade, which makes the Role again, or to grant those rights; kubectl daprbench doctor -n %s checks them. "+
		"Nothing was created", access.Text(missing), namespace, namespace), nil
}

// failedForbidden: the run failed for want of the operator's rights in its namespace, so
// nothing was created there, and nothing may be listed to clean up.
func failedForbidden(run *perfv1alpha1.PerfRun) bool {
	c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed)
	return c != nil && c.Status == metav1.ConditionTrue && c.Reason == perfv1alpha1.ReasonOperatorForbidden
}

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

package doctor

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/daprbench/daprbench/internal/operator/access"
)

// operatorRights asks the API server, by an access review as the operator's ServiceAccount,
// whether it holds in ns every right its role asks for there: a namespace served by its
// flag can still have lost the chart's Role (deleted and created again), and its runs then
// fail OperatorForbidden. The user needs the right to create SubjectAccessReviews; without
// it doctor says it cannot tell.
func operatorRights(ctx context.Context, c Cluster, op operator, ns string) Check {
	sa := op.deployment.Spec.Template.Spec.ServiceAccountName
	if sa == "" {
		sa = "default"
	}
	who := op.deployment.Namespace + "/" + sa
	needed, err := access.Needed()
	if err != nil {
		return Check{Name: "operator-rights", Status: Fail, Detail: "the embedded manager role does not parse: " + err.Error()}
	}
	missing, err := access.Missing(ctx, access.ServiceAccount{Client: c.Client, Namespace: op.deployment.Namespace, Name: sa}, ns, needed)
	switch {
	case apierrors.IsForbidden(err):
		return Check{Name: "operator-rights", Status: Warn, Detail: "cannot tell whether the operator's ServiceAccount " + who + " holds its rights in " + ns +
			": you may not create SubjectAccessReviews", Fix: "ask a cluster admin to run kubectl daprbench doctor -n " + ns}
	case err != nil:
		return Check{Name: "operator-rights", Status: Warn, Detail: "cannot tell: " + err.Error()}
	case len(missing) > 0:
		return Check{Name: "operator-rights", Status: Fail,
			Detail: fmt.Sprintf("the operator's ServiceAccount %s may not %s in %s: its Role there is missing or incomplete "+
				"(a namespace deleted and created again loses the Role the Helm chart made in it); a run there fails OperatorForbidden", who, access.Text(missing), ns),
			Fix: fmt.Sprintf("helm upgrade daprbench charts/daprbench -n %s --reset-then-reuse-values (the chart makes the Role again)", op.deployment.Namespace)}
	}
	return Check{Name: "operator-rights", Status: Pass, Detail: fmt.Sprintf("the operator's ServiceAccount %s holds the %d rights its role asks for in %s (access reviews)", who, len(needed), ns)}
}

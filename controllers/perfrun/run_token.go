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
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// +kubebuilder:rbac:groups="",resources=secrets,verbs=create

// ensureRunToken creates, once per run that needs one, the Secret whose token the run's
// pods present to each other (workload.NeedsRunToken), and stops the pass so that its
// name is written to status.tokenSecret before any workload refers to it.
//
// The API server picks the name (generateName): a Secret made in advance under a name the
// run would use cannot stand in for it, so the operator never needs to read a Secret
// (no secrets get, in any mode) — it creates one and remembers which. A status write lost
// after the create leaves a Secret no pod refers to, which goes with the run.
func (r *Reconciler) ensureRunToken(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	if !workload.NeedsRunToken(run) || run.Status.TokenSecret != "" {
		return proceed, nil
	}
	if workload.StoreOnlyToken(run) && run.Status.Phase != perfv1alpha1.PhasePending {
		// A run provisioned by a manager that gave its store no password keeps it so: a
		// password now would restart its store mid-run, and its Job cannot be told it.
		return proceed, nil
	}
	token := make([]byte, 32)
	if _, err := rand.Read(token); err != nil {
		return proceed, err
	}
	text := hex.EncodeToString(token)
	secret := workload.RunTokenSecret(run, text)
	if err := controllerutil.SetControllerReference(run, secret, r.Scheme()); err != nil {
		return proceed, err
	}
	if err := r.Create(ctx, secret); err != nil {
		return proceed, fmt.Errorf("creating the run's token Secret: %w", err)
	}
	run.Status.TokenSecret, run.Status.StorePassword, run.Status.TokenDigest = secret.Name, true, workload.TokenDigest(text)
	return waitFor(time.Second), nil // status writes wake no pass of their own
}

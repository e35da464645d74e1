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

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;create

// ensureGroupToken creates, once per run, the Secret whose token the run's load-tester
// pods present to their leader. It is read past the cache (caching Secrets would watch
// every Secret of the cluster) and created, never applied: applying would need the token,
// and a new one per pass would lock out the pods already running.
func (r *Reconciler) ensureGroupToken(ctx context.Context, run *perfv1alpha1.PerfRun) error {
	name := workload.NamesFor(run).GroupToken
	existing := &corev1.Secret{}
	err := r.APIReader.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, existing)
	switch {
	case err == nil && metav1.IsControlledBy(existing, run):
		return nil
	case err == nil:
		return &nameConflict{kind: "Secret", name: name, owner: controllerOf(existing)}
	case !apierrors.IsNotFound(err):
		return fmt.Errorf("reading the group token Secret: %w", err)
	}
	token := make([]byte, 32)
	if _, err := rand.Read(token); err != nil {
		return err
	}
	secret := workload.GroupTokenSecret(run, hex.EncodeToString(token))
	if err := controllerutil.SetControllerReference(run, secret, r.Scheme()); err != nil {
		return err
	}
	if err := r.Create(ctx, secret); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating the group token Secret: %w", err)
	}
	return nil
}

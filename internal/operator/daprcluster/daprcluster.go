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

// Package daprcluster reads what a cluster's Dapr is: whether its kinds are served, its
// sidecar injector and version, and its mTLS setting. The operator's preflight and the
// plugin's doctor read it the same way, so what doctor says before a run is what the run
// will find.
package daprcluster

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

const (
	// InjectorApp is the app label of Dapr's sidecar injector Deployment (set by Dapr's chart).
	InjectorApp = "dapr-sidecar-injector"
	// SystemConfig is the control plane's Configuration, which holds the mTLS setting.
	SystemConfig = "daprsystem"
)

// CRDsServed asks the API server (through a REST mapper, which re-discovers on a miss)
// whether Dapr's kinds are served.
func CRDsServed(mapper meta.RESTMapper) (bool, error) {
	for _, gvk := range []schema.GroupVersionKind{workload.ConfigurationGVK, workload.ComponentGVK} {
		_, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if meta.IsNoMatchError(err) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("discovering %s: %w", gvk.GroupKind(), err)
		}
	}
	return true, nil
}

// Injector is Dapr's sidecar injector Deployment in the control plane's namespace; nil
// when none is there.
func Injector(ctx context.Context, r client.Reader, ns string) (*appsv1.Deployment, error) {
	var list appsv1.DeploymentList
	if err := r.List(ctx, &list, client.InNamespace(ns), client.MatchingLabels{"app": InjectorApp}); err != nil {
		return nil, fmt.Errorf("looking for Dapr's sidecar injector: %w", err)
	}
	if len(list.Items) == 0 {
		return nil, nil
	}
	return &list.Items[0], nil
}

// Version is the tag of the injector's image: Dapr's version.
func Version(injector *appsv1.Deployment) string {
	for _, c := range injector.Spec.Template.Spec.Containers {
		if tag := diagnose.ImageTag(c.Image); tag != "" {
			return tag
		}
	}
	return ""
}

// Image is the injector's (first container's) image.
func Image(injector *appsv1.Deployment) string {
	if c := injector.Spec.Template.Spec.Containers; len(c) > 0 {
		return c[0].Image
	}
	return ""
}

// MTLS reads mTLS from the control plane's daprsystem Configuration. Like Dapr's injector,
// a missing Configuration or field means enabled; source says where the answer came from.
func MTLS(ctx context.Context, r client.Reader, ns string) (enabled bool, source string, err error) {
	cfg := &unstructured.Unstructured{}
	cfg.SetGroupVersionKind(workload.ConfigurationGVK)
	err = r.Get(ctx, client.ObjectKey{Namespace: ns, Name: SystemConfig}, cfg)
	if apierrors.IsNotFound(err) {
		return true, fmt.Sprintf("no Configuration %s/%s: Dapr's default", ns, SystemConfig), nil
	}
	if err != nil {
		return false, "", fmt.Errorf("reading Configuration %s/%s: %w", ns, SystemConfig, err)
	}
	v, found, _ := unstructured.NestedBool(cfg.Object, "spec", "mtls", "enabled")
	if !found {
		return true, fmt.Sprintf("Configuration %s/%s sets no spec.mtls.enabled: Dapr's default", ns, SystemConfig), nil
	}
	return v, fmt.Sprintf("Configuration %s/%s has spec.mtls.enabled=%v", ns, SystemConfig, v), nil
}

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

package controllers

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/testenv"
)

// ownAPIServer starts an API server of the test's own, for a cluster unlike the suite's:
// daprbench's CRDs and those in crdDirs only (none: a cluster that never heard of Dapr).
// It is stopped when the test ends.
func ownAPIServer(t *testing.T, crdDirs ...string) client.Client {
	t.Helper()
	env, err := testenv.New(false)
	if err != nil {
		t.Fatal(err)
	}
	env.CRDDirectoryPaths = append(env.CRDDirectoryPaths, crdDirs...)
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	sch := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(sch)
	_ = perfv1alpha1.AddToScheme(sch)
	c, err := client.New(cfg, client.Options{Scheme: sch})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

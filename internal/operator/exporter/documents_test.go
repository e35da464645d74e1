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

package exporter

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/document"
)

// testDocs stands in for the API server's ConfigMaps (controller-runtime's fake client, a
// fake named as such: these unit tests run no API server). The exporter reads each run's
// result document there as it reads the API server's, digest checked.
var testDocs = fake.NewClientBuilder().Build()

var ctx = context.Background()

// withDocument keeps res as run's result document, as the operator keeps it, and points
// the run's status at it with the headline.
func withDocument(run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result) *perfv1alpha1.PerfRun {
	doc := perfv1alpha1.NewResultDocument(run, res, nil, nil)
	enc, err := document.Encode(&doc)
	if err != nil {
		panic(err)
	}
	cm := document.ConfigMap(run, enc, nil)
	cm.GenerateName, cm.Name = "", run.Name+"-result"
	_ = testDocs.Delete(ctx, cm)
	if err := testDocs.Create(ctx, cm); err != nil {
		panic(err)
	}
	h := report.StatusHeadline(res)
	h.Document, h.Digest = cm.Name, enc.Digest
	run.Status.Result = h
	return run
}

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
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The refusals of the shared-cluster review (issue #34). Each row is an object the API
// server must refuse, with a message naming the field, and its valid twin: the same object
// with that one field made sane, which must still be admitted. A rule that refuses too much
// fails here as surely as one that refuses too little.

// objEdit changes a whole object (metadata included), unlike the spec edits of the run table.
type objEdit func(obj map[string]any)

// at sets a dotted path of the object, e.g. "spec.load.qps".
func at(path string, value any) objEdit {
	return func(obj map[string]any) {
		Expect(unstructured.SetNestedField(obj, value, strings.Split(path, ".")...)).To(Succeed())
	}
}

// both applies edits in order.
func both(edits ...objEdit) objEdit {
	return func(obj map[string]any) {
		for _, e := range edits {
			e(obj)
		}
	}
}

// kind builds the minimal valid object of one kind; a row edits it.
type kind func() map[string]any

func minimalSpec() map[string]any {
	return map[string]any{"scenario": "ServiceInvocation", "load": map[string]any{"qps": int64(100)}}
}

func runKind() map[string]any {
	return map[string]any{"apiVersion": "perf.daprbench.io/v1alpha1", "kind": "PerfRun",
		"metadata": map[string]any{"name": "twin", "namespace": "default"}, "spec": minimalSpec()}
}

func scheduleKind() map[string]any {
	return map[string]any{"apiVersion": "perf.daprbench.io/v1alpha1", "kind": "PerfSchedule",
		"metadata": map[string]any{"name": "twin", "namespace": "default"},
		"spec":     map[string]any{"schedule": "0 3 * * *", "template": map[string]any{"spec": minimalSpec()}}}
}

func sweepKind() map[string]any {
	return map[string]any{"apiVersion": "perf.daprbench.io/v1alpha1", "kind": "PerfSweep",
		"metadata": map[string]any{"name": "twin", "namespace": "default"},
		"spec": map[string]any{"points": map[string]any{"connections": []any{int64(1), int64(2)}},
			"template": map[string]any{"spec": minimalSpec()}}}
}

// variantWith is a one-variant list whose variant carries these fields.
func variantWith(fields map[string]any) []any {
	v := map[string]any{"name": "a"}
	for k, f := range fields {
		v[k] = f
	}
	return []any{v}
}

var _ = Describe("Admission refusals of the shared-cluster review", func() {
	DescribeTable("refuses the object with a message naming the field, and admits its valid twin",
		func(k kind, want []string, bad, good objEdit) {
			refused := &unstructured.Unstructured{Object: k()}
			bad(refused.Object)
			err := k8s.Create(ctx, refused, client.DryRunAll, client.FieldValidation("Strict"))
			Expect(err).To(HaveOccurred(), "the API server admitted it")
			GinkgoWriter.Println(err.Error())
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
			admitted := &unstructured.Unstructured{Object: k()}
			good(admitted.Object)
			Expect(k8s.Create(ctx, admitted, client.DryRunAll, client.FieldValidation("Strict"))).To(Succeed(), "the valid twin was refused")
		},
		// Finding 7: dapr.io/env sets daprd's environment, HTTPS_PROXY included.
		Entry("a variant setting daprd's environment", runKind, []string{"spec.variants[0]", "sets daprd's environment"},
			at("spec.variants", variantWith(map[string]any{"annotations": map[string]any{"dapr.io/env": "HTTPS_PROXY=http://evil:3128"}})),
			at("spec.variants", variantWith(map[string]any{"annotations": map[string]any{"dapr.io/app-max-concurrency": "10"}}))),
		// Finding 9: the schedule multiplies startingDeadlineSeconds into a time.Duration.
		Entry("a starting deadline that overflows a Duration", scheduleKind, []string{"spec.startingDeadlineSeconds", "less than or equal to 31536000"},
			at("spec.startingDeadlineSeconds", int64(9300000000)), at("spec.startingDeadlineSeconds", int64(31536000))),
		Entry("a starting deadline beyond a year", scheduleKind, []string{"spec.startingDeadlineSeconds", "less than or equal to 31536000"},
			at("spec.startingDeadlineSeconds", int64(31536001)), at("spec.startingDeadlineSeconds", int64(86400))),
	)
})

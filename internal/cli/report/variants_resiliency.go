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

package report

import (
	"slices"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// underResiliency reports whether a variant ran under a Resiliency: the variants then
// differ in it, and each one's policies are shown.
func underResiliency(vs []perfv1alpha1.VariantResult) bool {
	return slices.ContainsFunc(vs, func(v perfv1alpha1.VariantResult) bool { return len(v.Resiliencies) > 0 })
}

// resiliencyOf names the Resiliencies a variant's invocations ran under; "none" without one.
func resiliencyOf(v perfv1alpha1.VariantResult) string {
	if len(v.Resiliencies) == 0 {
		return "none"
	}
	return strings.Join(v.Resiliencies, ",")
}

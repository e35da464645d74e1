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
	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// baselineMethod says how the baseline's method differs from daprd's for run, empty when it
// does the same work the same way. daprd's Redis state store serves BulkGet and BulkSave as
// one round trip per key, in parallel, and a bulk publish as one XADD per entry; the
// baseline's client pipelines them into one round trip. A Transaction is one MULTI/EXEC on
// both paths.
func baselineMethod(run *perfv1alpha1.PerfRun) string {
	if run.Spec.Baseline != nil && !*run.Spec.Baseline {
		return ""
	}
	if method := perfv1alpha1.CapabilityOf(run.Spec.Scenario).BaselineMethod; method != nil {
		return method(&run.Spec)
	}
	return ""
}

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

package v1alpha1

// AnnotationCancel asks the operator to stop a PerfRun or PerfSweep that has not finished;
// its value says who asked and why. The run ends Failed with reason Cancelled (its load
// stopped, its workloads removed unless spec.cleanup is Never, its place in the queue freed) and keeps its status, so
// the record stays and GitOps tools do not recreate it. kubectl daprbench cancel sets it,
// and so does run --wait on SIGINT or SIGTERM.
const AnnotationCancel = "perf.daprbench.io/cancel"

// ReasonCancelled: the run or sweep was cancelled (AnnotationCancel); the message says by
// whom.
const ReasonCancelled = "Cancelled"

// CancelRequested is the cancellation asked of the object, if any.
func CancelRequested(annotations map[string]string) (why string, ok bool) {
	why, ok = annotations[AnnotationCancel]
	return why, ok
}

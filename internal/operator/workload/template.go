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

package workload

import (
	"maps"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// RunFromTemplate is the PerfRun a schedule or a sweep creates from its template: the
// template's labels, annotations and spec, copied, so the caller may add its own.
func RunFromTemplate(t *perfv1alpha1.PerfRunTemplate, namespace, name string) *perfv1alpha1.PerfRun {
	run := &perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace,
			Labels: maps.Clone(t.Metadata.Labels), Annotations: maps.Clone(t.Metadata.Annotations)},
		Spec: *t.Spec.DeepCopy(),
	}
	if run.Labels == nil {
		run.Labels = map[string]string{}
	}
	if run.Annotations == nil {
		run.Annotations = map[string]string{}
	}
	return run
}

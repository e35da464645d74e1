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
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// digestMessageMax keeps a digest's message within its field's bound.
const digestMessageMax = 2048

// Digest is the compact copy of a finished result kept as status.lastSuccessful.
func Digest(res *perfv1alpha1.Result, completed *metav1.Time, message string) *perfv1alpha1.ResultDigest {
	if res == nil {
		return nil
	}
	if len(message) > digestMessageMax {
		message = strings.ToValidUTF8(message[:digestMessageMax-3], "") + "..." // never half a rune (µs)
	}
	return &perfv1alpha1.ResultDigest{Generation: res.Generation, CompletionTime: completed.DeepCopy(),
		RequestedQPS: res.RequestedQPS, ActualQPS: res.ActualQPS, Errors: res.Errors,
		Latency: perfv1alpha1.Compact(res.Latency), Baseline: perfv1alpha1.Compact(res.Baseline), Added: perfv1alpha1.Compact(res.Added),
		Message: message}
}

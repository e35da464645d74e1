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

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// UnresolvedLow is how reports write an interval's low end below zero for a latency that
// cannot be negative (an added latency, a completion): such an interval does not tell whether
// anything is there at that figure, and the milliseconds past zero mean nothing. A difference
// between two variants can be negative and keeps its sign.
const UnresolvedLow = "<0"

// LowEnd writes an interval's low end d with format, or UnresolvedLow when d is below zero.
func LowEnd(d *metav1.Duration, format func(*metav1.Duration) string) string {
	if d != nil && d.Duration < 0 {
		return UnresolvedLow
	}
	return format(d)
}

// Unresolved names the figures whose low end is below zero: the run cannot tell whether the
// path adds anything there (a tail seen too few times, or repetitions that disagree).
func (in *LatencyInterval) Unresolved() []string {
	if in == nil {
		return nil
	}
	var out []string
	for _, f := range LatencyFigures {
		if d := f.Of(&in.Low); d != nil && d.Duration < 0 {
			out = append(out, f.Name)
		}
	}
	return out
}

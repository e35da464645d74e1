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

package perfrun

import (
	"context"

	"github.com/daprbench/daprbench/internal/assess"
)

// judge ends a run whose evidence collect gathered: assess.Evaluate makes the result, the
// judging conditions and the verdict; the result becomes the run's document, and the
// verdict and the document's headline go into the status. Until the document is kept the
// run's status stays as collect left it (its live usage with it), so a failed write is
// tried again with nothing lost.
func (r *Reconciler) judge(ctx context.Context, s *runScope) (stepResult, error) {
	if s.evidence == nil {
		return stopHere, nil
	}
	judged := s.run.DeepCopy()
	a := assess.Evaluate(judged, *s.evidence)
	judged.Status.Disturbances = a.Disturbances
	if a.RegressionBaseline != nil {
		judged.Status.RegressionBaseline = *a.RegressionBaseline
	}
	judged.Status.LiveUsage = nil // attributed to the measured phases in the result
	applyVerdict(judged, a, r.now())
	if a.Result != nil {
		doc, err := r.keepResult(ctx, judged, a.Result, s.histograms, s.profiles)
		if err != nil {
			return proceed, err
		}
		s.document = doc
	}
	s.run.Status = judged.Status
	r.memory.samplingDone(s.run)
	return stopHere, nil
}

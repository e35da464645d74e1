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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/retry"
)

// measuredSpec fingerprints what a spec measures: everything but its thresholds and its
// variants' thresholds, which only judge the result. (A spec without either fingerprints
// as it did before variants had thresholds.)
func measuredSpec(spec *perfv1alpha1.PerfRunSpec) string {
	s := spec.DeepCopy()
	s.Thresholds = nil
	for i := range s.Variants {
		s.Variants[i].Thresholds = nil
	}
	b, _ := json.Marshal(s) // a struct of plain fields: cannot fail
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// rejudge takes a new generation that changed only the thresholds of a finished run: the
// result still answers the spec, so it is judged again, not measured again, and a new
// document holds the same figures under the new verdict. It reports whether it did; a run
// that failed for any reason but its thresholds, or whose document is gone or was changed,
// is measured anew.
func (r *Reconciler) rejudge(ctx context.Context, run *perfv1alpha1.PerfRun) (bool, error) {
	st := &run.Status
	if st.ObservedGeneration == run.Generation || st.Result == nil || st.Result.Generation != st.ObservedGeneration ||
		st.Result.Document == "" || st.MeasuredSpec == "" || st.MeasuredSpec != measuredSpec(&run.Spec) {
		return false, nil
	}
	// The previous generation's verdict (run.ConditionTrue looks at the current one).
	verdictOf := func(t string) *metav1.Condition {
		c := meta.FindStatusCondition(st.Conditions, t)
		if c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration != st.ObservedGeneration {
			return nil
		}
		return c
	}
	failed := verdictOf(perfv1alpha1.ConditionFailed)
	if verdictOf(perfv1alpha1.ConditionSucceeded) == nil && (failed == nil || failed.Reason != perfv1alpha1.ReasonThresholdsViolated) {
		return false, nil
	}
	doc, _, err := document.Read(ctx, r.APIReader, run)
	if err != nil && !retry.Transient(err) {
		log.FromContext(ctx).Info("Measuring anew: the result document cannot be judged again", "error", err.Error())
		return false, nil
	}
	if err != nil {
		return false, err
	}
	judged := run.DeepCopy()
	js := &judged.Status
	js.ObservedGeneration = run.Generation
	res := doc.Result.DeepCopy()
	res.Generation = run.Generation
	for i := range js.Conditions {
		js.Conditions[i].ObservedGeneration = run.Generation // the same measurement answers this spec
	}
	meta.RemoveStatusCondition(&js.Conditions, perfv1alpha1.ConditionThresholdsMet)
	a := assess.Rejudge(judged, res)
	a.Verdict.Message += fmt.Sprintf(" (re-judged: generation %d changed only the thresholds)", run.Generation)
	applyVerdict(judged, a, r.now())
	if _, err := r.keepResult(ctx, judged, res, doc.Histograms, doc.Profiles); err != nil {
		return false, err
	}
	run.Status = judged.Status
	return true, nil
}

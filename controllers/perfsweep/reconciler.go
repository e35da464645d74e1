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

package perfsweep

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/pass"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/kit/textcut"
	"github.com/daprbench/daprbench/internal/operator/retry"
	"github.com/daprbench/daprbench/internal/operator/sweep"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Reconciler measures a sweep's points one after another, a PerfRun each: points
// never overlap, as overlapping benchmarks would measure each other.
type Reconciler struct {
	client.Client
	// APIReader reads the points' result documents, which the cache does not hold; nil: the
	// Client.
	APIReader client.Reader
	Recorder  events.EventRecorder
	Clock     clock.PassiveClock
}

// reader reads past the cache.
func (r *Reconciler) reader() client.Reader {
	if r.APIReader == nil {
		return r.Client
	}
	return r.APIReader
}

// +kubebuilder:rbac:groups=perf.daprbench.io,resources=perfsweeps,verbs=get;list;watch
// +kubebuilder:rbac:groups=perf.daprbench.io,resources=perfsweeps/status,verbs=get;patch
// +kubebuilder:rbac:groups=perf.daprbench.io,resources=perfruns,verbs=patch

// Reconcile plans the sweep on a new generation, follows the point being measured and
// starts the next one when it finishes.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	sw := &perfv1alpha1.PerfSweep{}
	if err := r.Get(ctx, req.NamespacedName, sw); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !sw.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil // its runs go with it through owner references
	}
	orig := sw.DeepCopy()
	if sw.Status.ObservedGeneration != sw.Generation {
		// The previous generation's runs stop first: while one still loads, its points
		// stay in the status, and the new plan would measure beside it.
		stopping, err := r.stopEarlierGenerations(ctx, sw)
		if err != nil || stopping > 0 {
			return ctrl.Result{RequeueAfter: 2 * time.Second}, err
		}
		r.plan(sw)
	}
	q := &pass.Events{}
	cancelled, err := r.cancel(ctx, sw, q)
	if !cancelled {
		err = r.advance(ctx, sw, q)
	}
	res, _, err := pass.Finish(ctx, r.Client, r.Recorder, pass.End{Orig: orig, Obj: sw, OrigStatus: orig.Status, Status: sw.Status,
		OrigConditions: orig.Status.Conditions, Conditions: sw.Status.Conditions, Now: metav1.NewTime(r.Clock.Now()), Events: q, Err: err})
	return res, err
}

// stopEarlierGenerations deletes the sweep's runs of earlier generations that have not
// finished (their Jobs and pods go with them) and counts those still there.
func (r *Reconciler) stopEarlierGenerations(ctx context.Context, sw *perfv1alpha1.PerfSweep) (int, error) {
	var runs perfv1alpha1.PerfRunList
	if err := r.List(ctx, &runs, client.InNamespace(sw.Namespace), client.MatchingLabels{perfv1alpha1.LabelSweep: sw.Name}); err != nil {
		return 0, err
	}
	current := fmt.Sprintf("%s-%d-", sw.Name, sw.Generation)
	stopping := 0
	for i := range runs.Items {
		run := &runs.Items[i]
		if !run.ControlledBy(sw, "PerfSweep") || run.Finished() || strings.HasPrefix(run.Name, current) {
			continue
		}
		stopping++
		if run.DeletionTimestamp.IsZero() {
			if err := r.Delete(ctx, run, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
				return 0, fmt.Errorf("stopping run %s of an earlier generation: %w", run.Name, err)
			}
		}
	}
	return stopping, nil
}

// plan starts a generation afresh: the sweep's points, or the search's first rate.
func (r *Reconciler) plan(sw *perfv1alpha1.PerfSweep) {
	now := metav1.NewTime(r.Clock.Now())
	sw.Status = perfv1alpha1.PerfSweepStatus{ObservedGeneration: sw.Generation, Phase: perfv1alpha1.PhaseRunning, StartTime: &now}
	if p := sw.Spec.Points; p != nil {
		points, steps := sweep.Expand(p)
		for i, pt := range points {
			sw.Status.Points = append(sw.Status.Points, perfv1alpha1.SweepPointStatus{
				Step: steps[i], Connections: pt.Connections, QPS: pt.QPS, PayloadBytes: pt.PayloadBytes, Setting: pt.Setting})
		}
	}
}

// advance follows points until one is still being measured, then waits for its run.
func (r *Reconciler) advance(ctx context.Context, sw *perfv1alpha1.PerfSweep, q *pass.Events) error {
	for !r.finishedSweep(sw) {
		p := nextPoint(sw)
		if p == nil {
			r.finish(sw, q)
			return nil
		}
		done, err := r.measure(ctx, sw, p, q)
		if err != nil || !done {
			return err
		}
	}
	return nil
}

// nextPoint is the unfinished point of the lowest step; for a search, the next rate to try
// once every tried one finished. Nil: nothing left.
func nextPoint(sw *perfv1alpha1.PerfSweep) *perfv1alpha1.SweepPointStatus {
	var next *perfv1alpha1.SweepPointStatus
	for i := range sw.Status.Points {
		p := &sw.Status.Points[i]
		if !pointFinished(p) && (next == nil || p.Step < next.Step) {
			next = p
		}
	}
	if next != nil || sw.Spec.Search == nil {
		return next
	}
	qps, done := sweep.NextRate(sw.Spec.Search, tried(sw))
	if done {
		return nil
	}
	sw.Status.Points = append(sw.Status.Points, perfv1alpha1.SweepPointStatus{Step: int32(len(sw.Status.Points)), QPS: qps})
	return &sw.Status.Points[len(sw.Status.Points)-1]
}

func pointFinished(p *perfv1alpha1.SweepPointStatus) bool {
	return p.Phase == perfv1alpha1.PhaseSucceeded || p.Phase == perfv1alpha1.PhaseFailed
}

func tried(sw *perfv1alpha1.PerfSweep) []sweep.Tried {
	var out []sweep.Tried
	for _, p := range sw.Status.Points {
		if pointFinished(&p) {
			out = append(out, sweep.Tried{QPS: p.QPS, Passed: ptr.Deref(p.Passed, false)})
		}
	}
	return out
}

// measure creates the point's run or reads it; done once the run finished and its figures
// are in the point.
func (r *Reconciler) measure(ctx context.Context, sw *perfv1alpha1.PerfSweep, p *perfv1alpha1.SweepPointStatus, q *pass.Events) (bool, error) {
	run := &perfv1alpha1.PerfRun{}
	p.Run = fmt.Sprintf("%s-%d-%d", sw.Name, sw.Generation, p.Step)
	err := r.Get(ctx, client.ObjectKey{Namespace: sw.Namespace, Name: p.Run}, run)
	switch {
	case apierrors.IsNotFound(err):
		if err := r.createRun(ctx, sw, p); err != nil {
			if apierrors.IsInvalid(err) || apierrors.IsForbidden(err) {
				// The point's own values are refused (e.g. more connections than requests):
				// the point fails with the API server's words; the sweep goes on.
				record(sw, q, p, perfv1alpha1.PhaseFailed, nil, "the API server refused the point's run: "+textcut.Truncate(err.Error(), 400))
				return true, nil
			}
			return false, err
		}
		p.Phase = perfv1alpha1.PhasePending
		return false, nil
	case err != nil:
		return false, err
	}
	if !run.ControlledBy(sw, "PerfSweep") {
		// A run of the point's name that this sweep did not create (made beforehand, or by
		// another sweep) is no measurement of the point: counting it would let anyone who may
		// create a PerfRun forge the sweep's result.
		record(sw, q, p, perfv1alpha1.PhaseFailed, nil, fmt.Sprintf("PerfRun %s exists and was not created by this sweep "+
			"(its controller owner is not PerfSweep %s): the point is not measured; delete that run and change the sweep to measure it", p.Run, sw.Name))
		return true, nil
	}
	if !run.Finished() {
		p.Phase = run.Status.Phase
		return false, nil
	}
	changed, err := r.specChanged(ctx, sw, p, run)
	if err != nil {
		return false, err
	}
	if changed != "" {
		record(sw, q, p, perfv1alpha1.PhaseFailed, nil, changed)
		return true, nil
	}
	msg := ""
	if c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed); c != nil && run.ConditionTrue(perfv1alpha1.ConditionFailed) {
		msg = c.Reason + ": " + textcut.Truncate(c.Message, 400)
	}
	var res *perfv1alpha1.Result
	if h := run.Status.Result; h != nil && h.Document != "" && h.Generation == run.Generation {
		doc, _, err := document.Read(ctx, r.reader(), run)
		if retry.Transient(err) {
			return false, fmt.Errorf("reading point %d's result: %w", p.Step, err)
		}
		if err != nil {
			// Gone or not the run's: it will not be read on the next pass either.
			record(sw, q, p, perfv1alpha1.PhaseFailed, nil, "the point's result cannot be read: "+textcut.Truncate(err.Error(), 400))
			return true, nil
		}
		res = doc.Result
		p.Document, p.Digest = h.Document, h.Digest
	}
	record(sw, q, p, run.Status.Phase, res, msg)
	return true, nil
}

// pointRun is the run the sweep makes for point p: its template with the point's values
// and its setting on top.
func pointRun(sw *perfv1alpha1.PerfSweep, p *perfv1alpha1.SweepPointStatus) *perfv1alpha1.PerfRun {
	run := workload.RunFromTemplate(&sw.Spec.Template, sw.Namespace, p.Run)
	run.Labels[perfv1alpha1.LabelSweep] = sw.Name
	if p.Connections > 0 {
		run.Spec.Load.Connections = p.Connections
	}
	if p.QPS > 0 {
		run.Spec.Load.QPS = p.QPS
	}
	if p.PayloadBytes != nil {
		run.Spec.Load.PayloadBytes, run.Spec.Load.Payload = ptr.To(*p.PayloadBytes), nil
	}
	sweep.ApplySetting(&run.Spec, sweep.FindSetting(sw.Spec.Points, p.Setting))
	return run
}

// specChanged says how the finished run's spec departs from the one the sweep makes for
// the point (as the API server defaults it: a dry-run create), empty when it does not. A
// controller owner reference proves nothing (anyone who may create a PerfRun can write
// one), and whoever may update a run can change what it measures: the point counts only a
// run of the spec the sweep meant.
func (r *Reconciler) specChanged(ctx context.Context, sw *perfv1alpha1.PerfSweep, p *perfv1alpha1.SweepPointStatus, run *perfv1alpha1.PerfRun) (string, error) {
	want := pointRun(sw, p)
	want.Name, want.GenerateName = "", "point-check-"
	if err := r.Create(ctx, want, client.DryRunAll); err != nil {
		return "", fmt.Errorf("defaulting the point's run (dry run): %w", err)
	}
	if equality.Semantic.DeepEqual(want.Spec, run.Spec) {
		return "", nil
	}
	return fmt.Sprintf("PerfRun %s's spec is not the one this sweep makes for the point (it was changed, or made by someone else): "+
		"the point is not measured", run.Name), nil
}

// record finishes a point with its run's outcome; a search judges it against the objective.
func record(sw *perfv1alpha1.PerfSweep, q *pass.Events, p *perfv1alpha1.SweepPointStatus, phase perfv1alpha1.Phase, res *perfv1alpha1.Result, msg string) {
	p.Phase, p.Message = phase, msg
	if s := sw.Spec.Search; s != nil {
		passed, why := false, msg
		if phase == perfv1alpha1.PhaseSucceeded {
			passed, why = sweep.Judge(&s.Objective, res)
		}
		p.Passed, p.Message = ptr.To(passed), why
		pass, fail := sweep.Bounds(tried(sw))
		sw.Status.MaxSustainableQPS = ptr.To(pass)
		if fail > 0 {
			sw.Status.FirstFailingQPS = ptr.To(fail)
		}
	}
	sw.Status.Measured++
	q.Eventf(corev1.EventTypeNormal, perfv1alpha1.ReasonPointMeasured, "Measure", "step %d (%s) %s: run %s %s", p.Step, describePoint(p), outcome(p), p.Run, phase)
}

func describePoint(p *perfv1alpha1.SweepPointStatus) string {
	s := fmt.Sprintf("qps %d", p.QPS)
	if p.Setting != "" {
		s = "setting " + p.Setting + ", " + s
	}
	if p.Connections > 0 {
		s += fmt.Sprintf(", connections %d", p.Connections)
	}
	if p.PayloadBytes != nil {
		s += fmt.Sprintf(", payload %d bytes", *p.PayloadBytes)
	}
	return s
}

func outcome(p *perfv1alpha1.SweepPointStatus) string {
	switch {
	case p.Passed == nil:
		return "measured"
	case *p.Passed:
		return "met the objective"
	}
	return "missed the objective"
}

// createRun creates the point's PerfRun from the template with the point's values.
func (r *Reconciler) createRun(ctx context.Context, sw *perfv1alpha1.PerfSweep, p *perfv1alpha1.SweepPointStatus) error {
	run := pointRun(sw, p)
	p.QPS = run.Spec.Load.QPS // the template's, when the sweep does not vary it
	if err := controllerutil.SetControllerReference(sw, run, r.Scheme()); err != nil {
		return err
	}
	if err := r.Create(ctx, run); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}

func (r *Reconciler) finishedSweep(sw *perfv1alpha1.PerfSweep) bool {
	return sw.Status.Phase == perfv1alpha1.PhaseSucceeded || sw.Status.Phase == perfv1alpha1.PhaseFailed
}

// finish ends the sweep: Succeeded when any point was measured, Failed when none was.
func (r *Reconciler) finish(sw *perfv1alpha1.PerfSweep, q *pass.Events) {
	now := metav1.NewTime(r.Clock.Now())
	sw.Status.CompletionTime = &now
	var ok, failed int
	for _, p := range sw.Status.Points {
		if p.Phase == perfv1alpha1.PhaseSucceeded {
			ok++
		} else {
			failed++
		}
	}
	reason, msg := perfv1alpha1.ReasonPointsMeasured, fmt.Sprintf("%d points measured, %d failed", ok, failed)
	unmeasured := mtlsUnmeasured(sw)
	if sw.Spec.Search != nil {
		pass, fail := sweep.Bounds(tried(sw))
		reason = perfv1alpha1.ReasonRateFound
		msg = fmt.Sprintf("highest rate meeting the objective: %d qps (first failing: %s) after %d steps", pass, orNone(fail), len(sw.Status.Points))
	}
	status, condType := metav1.ConditionTrue, perfv1alpha1.ConditionSucceeded
	sw.Status.Phase = perfv1alpha1.PhaseSucceeded
	if ok == 0 {
		sw.Status.Phase, condType, reason = perfv1alpha1.PhaseFailed, perfv1alpha1.ConditionFailed, perfv1alpha1.ReasonNoPointMeasured
		msg = fmt.Sprintf("none of the %d points could be measured; see status.points", len(sw.Status.Points))
	}
	if unmeasured != "" {
		msg += ". " + unmeasured
	}
	meta.SetStatusCondition(&sw.Status.Conditions, metav1.Condition{Type: condType, Status: status, Reason: reason,
		Message: msg, ObservedGeneration: sw.Generation})
	eventType := corev1.EventTypeNormal
	if ok == 0 {
		eventType = corev1.EventTypeWarning
	}
	q.Eventf(eventType, reason, "Finish", "%s", msg)
}

// mtlsUnmeasured names the points the cluster's mTLS kept from being measured: mTLS is the
// control plane's, so a sweep cannot switch it, and says so rather than leave a gap.
func mtlsUnmeasured(sw *perfv1alpha1.PerfSweep) string {
	var parts []string
	for i := range sw.Status.Points {
		p := &sw.Status.Points[i]
		want := sw.Spec.Template.Spec.Dapr.MTLS
		if s := sweep.FindSetting(sw.Spec.Points, p.Setting); s != nil && s.MTLS != "" {
			want = s.MTLS
		}
		if why := sweep.MTLSUnmeasured(p, want); why != "" {
			parts = append(parts, why)
		}
	}
	return textcut.Truncate(strings.Join(parts, "; "), 4096)
}

func orNone(qps int32) string {
	if qps == 0 {
		return "none"
	}
	return fmt.Sprintf("%d qps", qps)
}

// SetupWithManager registers the controller; its runs' changes wake it.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&perfv1alpha1.PerfSweep{}).
		Owns(&perfv1alpha1.PerfRun{}).
		Named("perfsweep").
		Complete(r)
}

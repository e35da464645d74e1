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

package perfschedule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/robfig/cron/v3"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/pass"
	"github.com/daprbench/daprbench/internal/operator/exporter"
	"github.com/daprbench/daprbench/internal/operator/schedule"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Reconciler creates a PerfRun at every slot of a cron schedule, as the CronJob
// controller creates Jobs: deterministic names, no overlap by default, bounded history.
type Reconciler struct {
	client.Client
	// APIReader reads past the cache; nil: the Client. A slot's decision (overlap, or this
	// slot's run already made) reads the runs through it, as a run created a moment ago
	// may not be in the cache yet.
	APIReader client.Reader
	Recorder  events.EventRecorder
	Clock     clock.PassiveClock
}

// Reconcile brings the schedule's history and status up to date and handles the latest slot.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	s := &perfv1alpha1.PerfSchedule{}
	if err := r.Get(ctx, req.NamespacedName, s); err != nil {
		if apierrors.IsNotFound(err) {
			exporter.ForgetSchedule(req.Namespace, req.Name)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !s.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	orig := s.DeepCopy()
	s.Status.ObservedGeneration = s.Generation

	// Every step's status and events are written even when a later step fails.
	q := &pass.Events{}
	res, err := r.schedule(ctx, s, q)
	if err != nil {
		s.Status.ObservedGeneration = orig.Status.ObservedGeneration // this generation is not yet handled
	}
	res, _, err = pass.Finish(ctx, r.Client, r.Recorder, pass.End{Orig: orig, Obj: s, OrigStatus: orig.Status, Status: s.Status,
		OrigConditions: orig.Status.Conditions, Conditions: s.Status.Conditions, Now: metav1.NewTime(r.Clock.Now()), Events: q, Result: res, Err: err})
	return res, err
}

// schedule is a pass over a schedule: its history summarized and pruned, then its slot.
func (r *Reconciler) schedule(ctx context.Context, s *perfv1alpha1.PerfSchedule, q *pass.Events) (ctrl.Result, error) {
	runs, err := r.ownedRuns(ctx, s)
	if err != nil {
		return ctrl.Result{}, err
	}
	summarizeHistory(s, runs)
	// Before pruning: with failedRunsHistoryLimit 0 a run that just failed goes in this pass.
	if err := exporter.RecordSchedule(ctx, r.reader(), s.Namespace, s.Name, latestFinished(runs)); err != nil {
		log.FromContext(ctx).Info("Cannot export the schedule's latest result", "error", err.Error())
	}
	if err := r.pruneHistory(ctx, s, runs); err != nil {
		return ctrl.Result{}, err
	}
	r.checkTemplate(ctx, s, q)
	return r.handleSlot(ctx, s, q)
}

// ownedRuns lists the schedule's runs from the cache, oldest slot first.
func (r *Reconciler) ownedRuns(ctx context.Context, s *perfv1alpha1.PerfSchedule) ([]perfv1alpha1.PerfRun, error) {
	return listOwnedRuns(ctx, r.Client, s)
}

// liveRuns lists them past the cache.
func (r *Reconciler) liveRuns(ctx context.Context, s *perfv1alpha1.PerfSchedule) ([]perfv1alpha1.PerfRun, error) {
	return listOwnedRuns(ctx, r.reader(), s)
}

// reader reads past the cache (the Client without an APIReader): runs a moment old, and
// result documents, which the cache does not hold.
func (r *Reconciler) reader() client.Reader {
	if r.APIReader == nil {
		return r.Client
	}
	return r.APIReader
}

func listOwnedRuns(ctx context.Context, reader client.Reader, s *perfv1alpha1.PerfSchedule) ([]perfv1alpha1.PerfRun, error) {
	var list perfv1alpha1.PerfRunList
	if err := reader.List(ctx, &list, client.InNamespace(s.Namespace), client.MatchingLabels{perfv1alpha1.LabelSchedule: s.Name}); err != nil {
		return nil, err
	}
	var runs []perfv1alpha1.PerfRun
	for _, run := range list.Items {
		if run.ControlledBy(s, "PerfSchedule") && run.DeletionTimestamp.IsZero() {
			runs = append(runs, run)
		}
	}
	slices.SortFunc(runs, func(a, b perfv1alpha1.PerfRun) int { return a.ScheduledTime().Compare(b.ScheduledTime()) })
	return runs, nil
}

func activeRuns(runs []perfv1alpha1.PerfRun) []perfv1alpha1.PerfRun {
	var active []perfv1alpha1.PerfRun
	for _, run := range runs {
		if !run.Finished() {
			active = append(active, run)
		}
	}
	return active
}

// summarizeHistory fills the status fields that describe the runs.
func summarizeHistory(s *perfv1alpha1.PerfSchedule, runs []perfv1alpha1.PerfRun) {
	st := &s.Status
	st.Active, st.LastRun, st.LastSuccessfulRun, st.LatestRegressed = nil, "", "", nil
	for _, run := range activeRuns(runs) {
		st.Active = append(st.Active, run.Name)
	}
	for _, run := range runs {
		st.LastRun = run.Name
		if run.Succeeded() {
			st.LastSuccessfulRun = run.Name
		}
	}
	if latest := latestFinished(runs); latest != nil {
		if c := meta.FindStatusCondition(latest.Status.Conditions, perfv1alpha1.ConditionRegressed); c != nil {
			st.LatestRegressed = ptr.To(c.Status == metav1.ConditionTrue)
		}
	}
}

// latestFinished is the finished run of the latest slot (runs are oldest slot first), or nil.
func latestFinished(runs []perfv1alpha1.PerfRun) *perfv1alpha1.PerfRun {
	for i := len(runs) - 1; i >= 0; i-- {
		if runs[i].Finished() {
			return &runs[i]
		}
	}
	return nil
}

// pruneHistory deletes the oldest finished runs beyond the history limits.
func (r *Reconciler) pruneHistory(ctx context.Context, s *perfv1alpha1.PerfSchedule, runs []perfv1alpha1.PerfRun) error {
	var ok, failed []perfv1alpha1.PerfRun
	for _, run := range runs {
		switch {
		case run.Succeeded():
			ok = append(ok, run)
		case run.Finished():
			failed = append(failed, run)
		}
	}
	for _, group := range []struct {
		runs  []perfv1alpha1.PerfRun
		limit int
	}{
		{ok, int(ptr.Deref(s.Spec.SuccessfulRunsHistoryLimit, 10))},
		{failed, int(ptr.Deref(s.Spec.FailedRunsHistoryLimit, 3))},
	} {
		for i := 0; i < len(group.runs)-group.limit; i++ { // oldest first
			if err := r.Delete(ctx, &group.runs[i], client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
				return fmt.Errorf("pruning run %s: %w", group.runs[i].Name, err)
			}
		}
	}
	return nil
}

// handleSlot creates, skips or records the latest slot that has come, and returns when to
// look again (the next slot).
func (r *Reconciler) handleSlot(ctx context.Context, s *perfv1alpha1.PerfSchedule, q *pass.Events) (ctrl.Result, error) {
	now := r.Clock.Now()
	sched, err := parseSchedule(s)
	if err != nil {
		setScheduled(s, q, metav1.ConditionFalse, perfv1alpha1.ReasonInvalidSchedule, err.Error())
		s.Status.NextScheduleTime = nil
		exporter.ForgetScheduleInterval(s.Namespace, s.Name)
		return ctrl.Result{}, nil // nothing to retry until the spec changes
	}
	if s.Spec.Suspend {
		setScheduled(s, q, metav1.ConditionFalse, perfv1alpha1.ReasonSuspended, "spec.suspend is true: no new runs")
		s.Status.NextScheduleTime = nil
		exporter.ForgetScheduleInterval(s.Namespace, s.Name) // stopped on purpose: nothing to alert on
		return ctrl.Result{}, nil
	}
	next := sched.Next(now)
	s.Status.NextScheduleTime = &metav1.Time{Time: next}
	// The gap after the next slot: the cadence the Stopped alert scales with.
	exporter.RecordScheduleInterval(s.Namespace, s.Name, sched.Next(next).Sub(next))
	requeue := ctrl.Result{RequeueAfter: next.Sub(now) + 100*time.Millisecond}

	found, err := r.findSlot(s, q, sched, now)
	if err != nil {
		setScheduled(s, q, metav1.ConditionFalse, perfv1alpha1.ReasonInvalidSchedule, fmt.Sprintf("spec.schedule %q: %v", s.Spec.Schedule, err))
		return ctrl.Result{}, nil
	}
	slot := found.Time
	if slot.IsZero() {
		return requeue, nil
	}
	// The slot counts as handled once this pass's status is written: a failure that a retry
	// may clear (a transient API error creating the run, or deleting a run it replaces)
	// leaves it unhandled, so the retry finds it again.
	handledBefore := s.Status.LastScheduleTime
	s.Status.LastScheduleTime = &metav1.Time{Time: slot}
	retryLater := func(err error) (ctrl.Result, error) {
		s.Status.LastScheduleTime = handledBefore
		return ctrl.Result{}, err
	}
	if d := s.Spec.StartingDeadlineSeconds; d != nil && now.Sub(slot) > time.Duration(*d)*time.Second {
		setScheduled(s, q, metav1.ConditionFalse, perfv1alpha1.ReasonMissedDeadline,
			fmt.Sprintf("slot %s found %v late, past startingDeadlineSeconds (%ds): not run", slot.UTC().Format(time.RFC3339), now.Sub(slot).Round(time.Second), *d))
		return requeue, nil
	}
	// Once per slot, past the cache: the previous slot's run, created a moment ago, may not
	// be in it yet, and a stale list would start an overlapping run.
	runs, err := r.liveRuns(ctx, s)
	if err != nil {
		return retryLater(err)
	}
	// The status this pass writes says what the slot was decided on: a run the cache does
	// not hold yet is active in both, not in the decision alone.
	summarizeHistory(s, runs)
	name := slotRunName(s, slot)
	if slices.ContainsFunc(runs, func(r perfv1alpha1.PerfRun) bool { return r.Name == name }) {
		// This slot's run exists: a pass that read the schedule before its own status write.
		setScheduled(s, q, metav1.ConditionTrue, perfv1alpha1.ReasonRunCreated,
			fmt.Sprintf("created run %s for slot %s", name, slot.UTC().Format(time.RFC3339)))
		return requeue, nil
	}
	active := activeRuns(runs)
	if len(active) > 0 {
		switch s.Spec.ConcurrencyPolicy {
		case perfv1alpha1.ConcurrencyAllow:
		case perfv1alpha1.ConcurrencyReplace:
			for i := range active {
				if err := r.Delete(ctx, &active[i], client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
					return retryLater(err)
				}
			}
		default: // Forbid: overlapping benchmarks measure each other
			setScheduled(s, q, metav1.ConditionFalse, perfv1alpha1.ReasonOverlap,
				fmt.Sprintf("slot %s skipped: run %s is still active (concurrencyPolicy Forbid)", slot.UTC().Format(time.RFC3339), active[0].Name))
			return requeue, nil
		}
	}
	run, err := r.createRun(ctx, s, slot)
	if apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsForbidden(err) {
		// Retrying will not change the answer: say it, and try again at the next slot.
		setScheduled(s, q, metav1.ConditionFalse, perfv1alpha1.ReasonRunNotCreated,
			fmt.Sprintf("slot %s: the API server refused the run: %v", slot.UTC().Format(time.RFC3339), err))
		return requeue, nil
	}
	if err != nil {
		return retryLater(err)
	}
	setScheduled(s, q, metav1.ConditionTrue, perfv1alpha1.ReasonRunCreated,
		fmt.Sprintf("created run %s for slot %s", run, slot.UTC().Format(time.RFC3339)))
	return requeue, nil
}

// findSlot is the slot to handle now, as CronJob finds it: the latest that has come, the
// search narrowed to the starting deadline. When the deadline hides every slot that came,
// it returns the latest of those (to be reported as missed, once). Too many missed slots
// get CronJob's warning.
func (r *Reconciler) findSlot(s *perfv1alpha1.PerfSchedule, q *pass.Events, sched cron.Schedule, now time.Time) (schedule.Slot, error) {
	var last time.Time
	if s.Status.LastScheduleTime != nil {
		last = s.Status.LastScheduleTime.Time
	}
	var deadline *time.Duration
	if d := s.Spec.StartingDeadlineSeconds; d != nil {
		deadline = ptr.To(time.Duration(*d) * time.Second)
	}
	found, err := schedule.MostRecent(sched, last, s.CreationTimestamp.Time, now, deadline)
	if err == nil && found.Time.IsZero() && deadline != nil {
		found, err = schedule.MostRecent(sched, last, s.CreationTimestamp.Time, now.Add(-*deadline), nil)
	}
	if err == nil && found.TooMany() {
		q.Eventf(corev1.EventTypeWarning, perfv1alpha1.ReasonTooManyMissedSlots, "Schedule",
			"about %d slots were missed since %s; handling only the latest. Check the controller's and the API server's clocks, or set (or decrease) spec.startingDeadlineSeconds",
			found.Missed, last.UTC().Format(time.RFC3339))
	}
	return found, err
}

// createRun creates the slot's PerfRun; its name is deterministic, so a retry after a lost
// status write finds it instead of running twice.
func (r *Reconciler) createRun(ctx context.Context, s *perfv1alpha1.PerfSchedule, slot time.Time) (string, error) {
	run, err := r.slotRun(s, slot)
	if err != nil {
		return "", err
	}
	if err := r.Create(ctx, run); err != nil && !apierrors.IsAlreadyExists(err) {
		return "", fmt.Errorf("creating run %s: %w", run.Name, err)
	}
	return run.Name, nil
}

// slotRun is the PerfRun a slot creates: the template, labelled and annotated as the
// schedule's, owned by it.
func (r *Reconciler) slotRun(s *perfv1alpha1.PerfSchedule, slot time.Time) (*perfv1alpha1.PerfRun, error) {
	run := workload.RunFromTemplate(&s.Spec.Template, s.Namespace, slotRunName(s, slot))
	run.Labels[perfv1alpha1.LabelSchedule] = s.Name
	run.Annotations[perfv1alpha1.AnnotationScheduledTime] = slot.UTC().Format(time.RFC3339)
	run.Annotations[perfv1alpha1.AnnotationTemplateHash] = templateHash(s)
	return run, controllerutil.SetControllerReference(s, run, r.Scheme())
}

// templateHash identifies the schedule's template: regression compares a run only with
// earlier runs of the same one.
func templateHash(s *perfv1alpha1.PerfSchedule) string {
	b, _ := json.Marshal(s.Spec.Template) // plain data: cannot fail
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// slotRunName is the deterministic name of a slot's run: the schedule's name and the slot's
// minute since the Unix epoch.
func slotRunName(s *perfv1alpha1.PerfSchedule, slot time.Time) string {
	return fmt.Sprintf("%s-%d", s.Name, slot.Unix()/60)
}

// setScheduled records what the last slot did, with an event when it changes.
func setScheduled(s *perfv1alpha1.PerfSchedule, q *pass.Events, status metav1.ConditionStatus, reason, msg string) {
	old := meta.FindStatusCondition(s.Status.Conditions, perfv1alpha1.ConditionScheduled)
	c := metav1.Condition{Type: perfv1alpha1.ConditionScheduled, Status: status, Reason: reason, Message: msg, ObservedGeneration: s.Generation}
	meta.SetStatusCondition(&s.Status.Conditions, c)
	if old == nil || old.Message != msg {
		eventType := corev1.EventTypeNormal
		if perfv1alpha1.ConditionIsTrouble(c) { // a slot not kept; suspended is the owner's choice
			eventType = corev1.EventTypeWarning
		}
		q.Eventf(eventType, reason, "Schedule", "%s", msg)
	}
}

func parseSchedule(s *perfv1alpha1.PerfSchedule) (cron.Schedule, error) {
	spec := s.Spec.Schedule
	if tz := ptr.Deref(s.Spec.TimeZone, ""); tz != "" {
		if _, err := time.LoadLocation(tz); err != nil {
			return nil, fmt.Errorf("spec.timeZone %q: %w", tz, err)
		}
		spec = "CRON_TZ=" + tz + " " + spec
	}
	sched, err := cron.ParseStandard(spec)
	if err != nil {
		return nil, fmt.Errorf("spec.schedule %q: %w", s.Spec.Schedule, err)
	}
	// As Kubernetes' CronJob: a minute is the finest interval, and a schedule must fire.
	if every, ok := sched.(cron.ConstantDelaySchedule); ok && every.Delay < time.Minute {
		return nil, fmt.Errorf("spec.schedule %q: intervals under a minute are not supported", s.Spec.Schedule)
	}
	if sched.Next(lastHandled(s)).IsZero() {
		return nil, fmt.Errorf("spec.schedule %q never fires: no date matches it", s.Spec.Schedule)
	}
	return sched, nil
}

// lastHandled is where the search for slots starts: the last slot handled, or the
// schedule's creation.
func lastHandled(s *perfv1alpha1.PerfSchedule) time.Time {
	if s.Status.LastScheduleTime != nil {
		return s.Status.LastScheduleTime.Time
	}
	return s.CreationTimestamp.Time
}

// +kubebuilder:rbac:groups=perf.daprbench.io,resources=perfschedules,verbs=get;list;watch
// +kubebuilder:rbac:groups=perf.daprbench.io,resources=perfschedules/status,verbs=get;patch

// SetupWithManager registers the controller; its runs' changes wake it.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&perfv1alpha1.PerfSchedule{}).
		Owns(&perfv1alpha1.PerfRun{}).
		Named("perfschedule").
		Complete(r)
}

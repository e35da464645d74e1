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

// Package perfrun reconciles a PerfRun into a finished measurement: named steps in order on
// every pass (preflight, timeout, provision, workloads, load, collect, judge), the status
// written once at the end of the pass (controllers/pass).
package perfrun

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/pass"
	"github.com/daprbench/daprbench/internal/kit/version"
	"github.com/daprbench/daprbench/internal/operator/exporter"
	"github.com/daprbench/daprbench/internal/operator/policy"
	"github.com/daprbench/daprbench/internal/operator/retry"
	"github.com/daprbench/daprbench/internal/operator/usage"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Reconciler turns a PerfRun into a finished measurement.
type Reconciler struct {
	client.Client
	// APIReader reads past the cache, where a stale read would do harm.
	APIReader client.Reader
	Recorder  events.EventRecorder
	// Clock is injected so tests control time.
	Clock clock.PassiveClock
	// Workload holds the image and pull policy of the run's pods.
	Workload workload.Options
	// Policy is what the platform team allows runs: images, placement, state stores.
	// Policy.OwnImage defaults to Workload.Image.
	Policy policy.Policy
	// NetworkPolicies creates each run's NetworkPolicies (workload.NetworkPolicies): only the
	// run's load tester reaches its group's leader and its targets' load ports.
	NetworkPolicies bool
	// SkipFitCheck turns off the preflight's PodsNeverFit refusal (--preflight-fit=false):
	// where a node autoscaler adds larger nodes than the cluster has now, "no node can hold
	// it" is not "never".
	SkipFitCheck bool
	// PollInterval is how often a run in progress is looked at again (pods are not watched).
	PollInterval time.Duration
	// ImageStartGrace is how long a container may sit in ImagePullBackOff or CrashLoopBackOff
	// before the run fails with ImageNotStarting.
	ImageStartGrace time.Duration
	// KubernetesVersion is recorded in status.environment.
	KubernetesVersion string
	// ManagerVersion is recorded in status.environment; default: this binary's version.
	ManagerVersion string
	// Usage samples the metrics API while the load runs; nil leaves usage out.
	Usage *usage.Sampler
	// Counters reads the kubelet's CPU counters while the load runs (CPU-seconds and CFS
	// throttling per phase); nil leaves them out.
	Counters usage.CounterSource
	// UsageInterval is how often usage is sampled (metrics-server's resolution by default).
	UsageInterval time.Duration
	// Logs reads the load tester's log for its histograms; nil leaves them out.
	Logs PodLogs
	// DaprNamespace is where Dapr's control plane runs: the only namespace the preflight,
	// the disturbances and the usage read it in. It is the operator's setting, never the
	// run's, so no tenant can point the image allowlist or those reads elsewhere.
	DaprNamespace string
	// MaxRunsPerNamespace bounds one namespace's queued and running runs, so no tenant fills
	// the queue; 0: no bound.
	MaxRunsPerNamespace int
	// WatchNamespaces are the namespaces runs may create workloads in (the manager's Roles in
	// the chart's namespaced mode); empty: every namespace.
	WatchNamespaces []string

	// memory is what the reconciler keeps per run between passes (runMemory).
	memory runMemory
}

// +kubebuilder:rbac:groups=perf.daprbench.io,resources=perfruns,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups=perf.daprbench.io,resources=perfschedules,verbs=get;list;watch
// +kubebuilder:rbac:groups=perf.daprbench.io,resources=perfschedules/status,verbs=get;patch
// +kubebuilder:rbac:groups=perf.daprbench.io,resources=perfruns/status,verbs=get;patch
// Least privilege, verb by verb: get/list/watch feed the cache of the run's children
// (label-filtered); create and patch are server-side apply (which creates what is
// missing); delete is cleanup and a generation's leftovers. Nothing is ever updated:
// children are applied and statuses patched.
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups=apps,resources=replicasets,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=services;serviceaccounts,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups=networking.k8s.io,resources=networkpolicies,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=nodes,verbs=list
// +kubebuilder:rbac:groups="",resources=nodes/proxy,verbs=get
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=metrics.k8s.io,resources=pods,verbs=get;list
// Dapr's kinds are read directly (never cached: a watch of every Configuration is not
// needed), so get suffices beside apply and delete.
// +kubebuilder:rbac:groups=dapr.io,resources=configurations;components;subscriptions,verbs=get;create;patch;delete

// step is one named stage of a run. It returns stop=true when the run cannot go further in
// this pass (waiting, or finished), with an optional requeue.
type step struct {
	name string
	fn   func(ctx context.Context, s *runScope) (stepResult, error)
}

type stepResult struct {
	stop         bool
	requeueAfter time.Duration
}

var proceed = stepResult{}

func waitFor(d time.Duration) stepResult { return stepResult{stop: true, requeueAfter: d} }

var stopHere = stepResult{stop: true}

// Reconcile runs the steps of a PerfRun in order; every step derives its state from the
// cluster and the status, so a restarted controller carries on where the last one was.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	run := &perfv1alpha1.PerfRun{}
	if err := r.Get(ctx, req.NamespacedName, run); err != nil {
		if apierrors.IsNotFound(err) {
			r.memory.Forget(req.NamespacedName)
			exporter.Forget(req.Namespace, req.Name)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !run.DeletionTimestamp.IsZero() {
		r.memory.Forget(req.NamespacedName)
		return ctrl.Result{}, nil // children go with it through owner references
	}
	orig := run.DeepCopy()
	rejudged, err := r.rejudge(ctx, run)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("re-judging: %w", err)
	}
	if !rejudged {
		beginGeneration(run, r.now())
	}

	events := &pass.Events{}
	res, runErr := r.reconcileRun(ctx, run, events)
	res, written, err := pass.Finish(ctx, r.Client, r.Recorder, pass.End{Orig: orig, Obj: run, OrigStatus: orig.Status, Status: run.Status,
		OrigConditions: orig.Status.Conditions, Conditions: run.Status.Conditions, Now: r.now(),
		Events: conditionEvents(orig, run, events), Result: res, Err: runErr})
	if err != nil {
		return res, err
	}
	if run.Finished() {
		// Every pass of a finished run, written or not: a restarted manager exports what
		// it finds, and a read that failed for a moment is tried again.
		if err := exporter.Record(ctx, r.APIReader, run); err != nil {
			log.FromContext(ctx).Info("Cannot export the run's result", "error", err.Error())
			if retry.Transient(err) && (res.RequeueAfter == 0 || res.RequeueAfter > r.PollInterval) {
				res.RequeueAfter = r.PollInterval
			}
		}
	}
	if !written {
		return res, nil
	}
	if run.Finished() {
		if !orig.Finished() {
			exporter.CountOutcome(run)
		}
		r.memory.Forget(req.NamespacedName)
		if !r.watches(run.Namespace) || failedForbidden(run) {
			return res, nil // nothing was created, and nothing there may be listed
		}
		// Only now that the finished status is persisted: cleaning up before would make a
		// failed write rerun the whole benchmark on the next pass.
		if err := r.cleanup(ctx, run); err != nil {
			return ctrl.Result{}, fmt.Errorf("cleanup: %w", err)
		}
	}
	return res, nil
}

func (r *Reconciler) reconcileRun(ctx context.Context, run *perfv1alpha1.PerfRun, events *pass.Events) (ctrl.Result, error) {
	steps := []step{
		{"cancel", r.honourCancel},
		{"preflight", r.preflight},
		{"namespace share", r.waitForNamespaceShare},
		{"timeout", r.enforceTimeout},
		{"retire", r.retireOldGenerations},
		{"queue", r.admit},
		{"token", r.ensureRunToken},
		{"provision", r.provision},
		{"wait for workloads", r.waitForWorkloads},
		{"load", r.startLoad}, // one name for both: it is what errors and ChildRefused say
		{"load", r.watchLoad},
		{"collect", r.collect},
		{"judge", r.judge},
	}
	if run.Finished() {
		return ctrl.Result{}, nil
	}
	if !r.watches(run.Namespace) {
		// The namespaces it does serve are other teams' names: the message does not list them.
		markFailed(run, r.now(), perfv1alpha1.ReasonNamespaceNotWatched,
			"this operator does not run benchmarks in namespace %q (its --watch-namespaces, the Helm chart's rbac.namespaces): "+
				"ask whoever installed daprbench to add it, or create the run in a namespace it serves", run.Namespace)
		return ctrl.Result{}, nil
	}
	scope := newRunScope(run, r.Client)
	scope.events = events
	for _, s := range steps {
		res, err := s.fn(ctx, scope)
		if conflict := (*nameConflict)(nil); errors.As(err, &conflict) {
			markFailed(run, r.now(), perfv1alpha1.ReasonNameConflict, "%s", conflict.Error())
			return ctrl.Result{}, nil
		}
		if apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) {
			markFailed(run, r.now(), perfv1alpha1.ReasonChildRefused, "the API server refused an object of the run (%s): %v", s.name, err)
			return ctrl.Result{}, nil
		}
		if err != nil {
			return ctrl.Result{}, fmt.Errorf("%s: %w", s.name, err)
		}
		if res.stop {
			if !run.Finished() {
				return ctrl.Result{RequeueAfter: r.boundedByTimeout(run, res.requeueAfter)}, nil
			}
			break
		}
	}
	return ctrl.Result{}, nil
}

// boundedByTimeout never waits past the run's deadline, so the timeout fires on time.
func (r *Reconciler) boundedByTimeout(run *perfv1alpha1.PerfRun, d time.Duration) time.Duration {
	left := r.deadline(run).Sub(r.Clock.Now()) + time.Second
	if d == 0 || left < d {
		d = left
	}
	return max(d, time.Second)
}

// deadline is when the run times out; time spent queued behind other runs does not count.
func (r *Reconciler) deadline(run *perfv1alpha1.PerfRun) time.Time {
	if run.ConditionTrue(perfv1alpha1.ConditionQueued) {
		return r.Clock.Now().Add(run.Spec.EffectiveTimeout())
	}
	d := run.Spec.EffectiveTimeout()
	if w := run.Status.QueueWait; w != nil {
		d += w.Duration
	}
	return run.Status.StartTime.Add(d)
}

// conditionEvents queues, after the pass's own events, an event for every condition that
// changed in the pass.
func conditionEvents(orig, run *perfv1alpha1.PerfRun, q *pass.Events) *pass.Events {
	for _, c := range run.Status.Conditions {
		old := meta.FindStatusCondition(orig.Status.Conditions, c.Type)
		if old != nil && old.Status == c.Status && old.Reason == c.Reason && old.ObservedGeneration == c.ObservedGeneration {
			continue
		}
		if c.Type == perfv1alpha1.ConditionFailed && c.Status == metav1.ConditionFalse ||
			c.Type == perfv1alpha1.ConditionSucceeded && c.Status == metav1.ConditionFalse {
			continue // the Succeeded or Failed=True event says it
		}
		q.Eventf(eventType(c), c.Reason, c.Type, "%s", c.Message)
	}
	return q
}

// eventType is Warning for a condition that reports trouble (the API's one table of what
// each condition's statuses mean), Normal otherwise.
func eventType(c metav1.Condition) string {
	if perfv1alpha1.ConditionIsTrouble(c) {
		return corev1.EventTypeWarning
	}
	return corev1.EventTypeNormal
}

// watches says whether runs in ns may create workloads (see WatchNamespaces).
func (r *Reconciler) watches(ns string) bool {
	return len(r.WatchNamespaces) == 0 || slices.Contains(r.WatchNamespaces, ns)
}

func (r *Reconciler) now() metav1.Time { return metav1.NewTime(r.Clock.Now()) }

// SetupWithManager registers the controller. Owned Deployments, Services and Jobs wake it;
// pods are looked at on PollInterval instead of watched.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	if r.DaprNamespace == "" {
		r.DaprNamespace = perfv1alpha1.DefaultControlPlaneNamespace
	}
	if r.ManagerVersion == "" {
		r.ManagerVersion = version.Get().String()
	}
	if r.Policy.OwnImage == "" {
		r.Policy.OwnImage = r.Workload.Image
	}
	if r.Usage != nil && r.Usage.ControlPlaneNamespace == "" {
		r.Usage.ControlPlaneNamespace = r.DaprNamespace
	}
	exporter.Register()
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), &perfv1alpha1.PerfRun{}, activeRunsIndex, indexActiveRuns); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&perfv1alpha1.PerfRun{}, builder.WithPredicates(predicate.Or(predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{}))).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.Service{}).
		Owns(&batchv1.Job{}).
		Named("perfrun").
		Complete(r)
}

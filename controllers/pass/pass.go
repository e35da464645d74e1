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

// Package pass is how every reconciler of daprbench ends a pass.
//
// Every reconciler writes status the same way: computed in memory during the pass,
// written once at its end only if it changed, over the version the pass read (a conflict is
// returned, never overwritten), and only then the pass's events — so no event announces a
// state the API does not hold, and a pass that lost a conflict announces nothing.
package pass

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// FieldOwner is the server-side-apply field manager of everything the operator writes.
const FieldOwner = "daprbench"

// Events holds a pass's events until its status is written.
type Events struct{ events []event }

type event struct{ eventtype, reason, action, note string }

// Eventf queues an event, as events.EventRecorder.Eventf would emit it.
func (q *Events) Eventf(eventtype, reason, action, format string, args ...any) {
	q.events = append(q.events, event{eventtype, reason, action, fmt.Sprintf(format, args...)})
}

// writeStatusThenEvents patches obj's status over orig when changed, under optimistic
// locking, then emits the queued events about obj.
func writeStatusThenEvents(ctx context.Context, c client.Client, rec events.EventRecorder, orig, obj client.Object, changed bool, q *Events) error {
	if changed {
		if err := c.Status().Patch(ctx, obj, client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})); err != nil {
			return fmt.Errorf("writing status: %w", err)
		}
	}
	for _, e := range q.events {
		rec.Eventf(obj, nil, e.eventtype, e.reason, e.action, "%s", e.note)
	}
	q.events = nil
	return nil
}

// End is what a reconciler's pass computed, for endPass to write.
type End struct {
	// orig is the object as the pass read it; obj as the pass left it.
	Orig, Obj client.Object
	// origStatus and status are their statuses (compared to skip a write that changes
	// nothing); conditions is obj's, whose new transitions endPass dates.
	OrigStatus, Status         any
	OrigConditions, Conditions []metav1.Condition
	Now                        metav1.Time
	Events                     *Events
	// result and err are the pass's own.
	Result ctrl.Result
	Err    error
}

// Finish ends every reconciler's pass the same way: new condition transitions dated by the
// reconciler's clock (meta.SetStatusCondition would use the wall clock, which tests cannot
// control), the status written when it changed, then the pass's events; a conflict (a newer
// status exists: never overwrite it) requeues quietly unless the pass failed too, and the
// pass's error and the write's are joined. written says whether the status now in the API is
// the pass's.
func Finish(ctx context.Context, c client.Client, rec events.EventRecorder, p End) (res ctrl.Result, written bool, err error) {
	stampTransitions(p.OrigConditions, p.Conditions, p.Now)
	if p.Events == nil {
		p.Events = &Events{}
	}
	werr := writeStatusThenEvents(ctx, c, rec, p.Orig, p.Obj, !equality.Semantic.DeepEqual(p.OrigStatus, p.Status), p.Events)
	switch {
	case werr == nil:
		return p.Result, true, p.Err
	case apierrors.IsConflict(werr) && p.Err == nil:
		log.FromContext(ctx).V(1).Info("Status changed under this pass; requeueing", "error", werr.Error())
		return ctrl.Result{RequeueAfter: time.Second}, false, nil
	}
	return ctrl.Result{}, false, errors.Join(p.Err, werr)
}

// stampTransitions dates every condition that changed status in this pass (or is new) by
// now.
func stampTransitions(orig, conds []metav1.Condition, now metav1.Time) {
	for i := range conds {
		old := meta.FindStatusCondition(orig, conds[i].Type)
		if old == nil || old.Status != conds[i].Status {
			conds[i].LastTransitionTime = now
		}
	}
}

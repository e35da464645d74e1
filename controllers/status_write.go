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

package controllers

import (
	"context"
	"fmt"

	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Every reconciler here writes status the same way: computed in memory during the pass,
// written once at its end only if it changed, over the version the pass read (a conflict is
// returned, never overwritten), and only then the pass's events — so no event announces a
// state the API does not hold, and a pass that lost a conflict announces nothing.

// eventQueue holds a pass's events until its status is written.
type eventQueue struct{ events []queuedEvent }

type queuedEvent struct{ eventtype, reason, action, note string }

// Eventf queues an event, as events.EventRecorder.Eventf would emit it.
func (q *eventQueue) Eventf(eventtype, reason, action, format string, args ...any) {
	q.events = append(q.events, queuedEvent{eventtype, reason, action, fmt.Sprintf(format, args...)})
}

// writeStatusThenEvents patches obj's status over orig when changed, under optimistic
// locking, then emits the queued events about obj.
func writeStatusThenEvents(ctx context.Context, c client.Client, rec events.EventRecorder, orig, obj client.Object, changed bool, q *eventQueue) error {
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

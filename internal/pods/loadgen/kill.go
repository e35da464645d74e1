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

package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// kill orders a PodKill from the operator, of variant v's target for a kill of the target,
// and records it in a: from the order's sending to
// the answer that the replacement is ready, or to the fault's whole duration when none was.
// The operator holds its answer until then, so the answer's arrival is the fault's end on
// this clock; an answer lost or refused leaves the fault unapplied, its error said. For a
// kill of the target that moved the plan to a ready replacement, moved is true and killed is
// the deleted app's highest count read (-1: never read), which the replacement's count, from
// 0, continues.
func (p *FaultPlan) kill(ctx context.Context, v result.Variant, f loadsettings.Fault, a *result.AppliedFault) (killed int64, moved bool) {
	var stop chan struct{}
	var last chan int64
	if from := p.appURL(v); f.Role == loadsettings.RoleTarget && from != "" {
		// Beside the order, not before it: a slow reading must not make the fault late.
		stop, last = make(chan struct{}), make(chan int64, 1)
		go func() { last <- lastCount(ctx, from, stop) }()
	}
	sent := time.Now()
	a.StartUnixNano, a.EndUnixNano = sent.UnixNano(), sent.Add(f.For).UnixNano()
	order := f.KillOrder()
	order.Namespace, order.Run = p.Run.Namespace, p.Run.Name
	if f.Role == loadsettings.RoleTarget && v != result.Dapr {
		order.Variant = string(v)
	}
	ans, err := p.orderKill(ctx, order)
	answered := time.Now() // before the last reading, which may wait on a gone pod
	killed = -1
	if last != nil {
		close(stop)
		killed = <-last
	}
	if err != nil {
		a.Error = err.Error()
		return killed, false
	}
	a.Pod, a.Replacement, a.Ready = ans.Deleted, ans.Replacement, ans.Ready
	if ans.Ready {
		a.EndUnixNano = min(answered.UnixNano(), a.EndUnixNano)
		if f.Role == loadsettings.RoleTarget && ans.ReplacementIP != "" {
			p.movedTo(v, ans.ReplacementIP)
			moved = last != nil
		}
	}
	return killed, moved
}

// countEvery is how often a target being killed is read: its count is short only of what it
// served after its last reading (countEvery before it stopped answering, when its reads
// answer to the end).
const countEvery = 100 * time.Millisecond

// countClient gives up on a read after 250 ms: a deleted pod's address may drop packets
// rather than refuse them.
var countClient = &http.Client{Timeout: 250 * time.Millisecond}

// lastCount reads the app at appURL every countEvery until stop closes (once more then: a pod
// still answering has its latest count), and returns the highest count read; -1 when none
// was. A read that fails does not end it: a busy app may miss one and answer the next, and a
// pod that reuses a gone one's address counts from 0, below it.
func lastCount(ctx context.Context, appURL string, stop <-chan struct{}) int64 {
	highest := int64(-1)
	tick := time.NewTicker(countEvery)
	defer tick.Stop()
	for {
		highest = max(highest, countAt(ctx, countClient, appURL))
		select {
		case <-ctx.Done():
			return highest
		case <-stop:
			return max(highest, countAt(ctx, countClient, appURL))
		case <-tick.C:
		}
	}
}

// orderKill asks the operator to delete the pod and waits for its answer: the wait for the
// replacement, and a margin for the deletion and the round trip.
func (p *FaultPlan) orderKill(ctx context.Context, o loadsettings.KillOrder) (loadsettings.KillAnswer, error) {
	var ans loadsettings.KillAnswer
	body, _ := json.Marshal(o)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(p.KillURL, "/")+loadsettings.KillPath, bytes.NewReader(body))
	if err != nil {
		return ans, err
	}
	req.Header.Set("Authorization", "Bearer "+p.Token)
	resp, err := (&http.Client{Timeout: o.Wait + 10*time.Second}).Do(req)
	if err != nil {
		return ans, fmt.Errorf("ordering the pod's deletion from the operator: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return ans, fmt.Errorf("the operator refused the pod's deletion: %s %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<10)).Decode(&ans); err != nil || ans.Deleted == "" {
		return ans, fmt.Errorf("the operator's answer names no deleted pod: %v", err)
	}
	return ans, nil
}

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

// kill orders a PodKill from the operator and records it in a: from the order's sending to
// the answer that the replacement is ready, or to the fault's whole duration when none was.
// The operator holds its answer until then, so the answer's arrival is the fault's end on
// this clock; an answer lost or refused leaves the fault unapplied, its error said.
func (p *FaultPlan) kill(ctx context.Context, f loadsettings.Fault, a *result.AppliedFault) {
	sent := time.Now()
	a.StartUnixNano, a.EndUnixNano = sent.UnixNano(), sent.Add(f.For).UnixNano()
	order := f.KillOrder()
	order.Namespace, order.Run = p.Run.Namespace, p.Run.Name
	ans, err := p.orderKill(ctx, order)
	if err != nil {
		a.Error = err.Error()
		return
	}
	a.Pod, a.Replacement, a.Ready = ans.Deleted, ans.Replacement, ans.Ready
	if ans.Ready {
		a.EndUnixNano = min(time.Now().UnixNano(), a.EndUnixNano)
		if f.Role == loadsettings.RoleTarget {
			p.movedTo(ans.ReplacementIP)
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

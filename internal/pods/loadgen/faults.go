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
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// FaultPlan is spec.faults as this load tester applies them: through the target app (a
// PodKill through the operator), on the load tester's own phase clock (the one every latency
// is timed on), in every measured phase but the baseline's. A group's leader applies them;
// the others only send their share.
type FaultPlan struct {
	Faults []loadsettings.Fault
	// AppURL is the target app's address (http://HOST:PORT): loadsettings.FaultPath takes
	// the orders, /stats counts the invocations it saw. VariantAppURLs are the further
	// sidecar variants' (d1, d2, …): each variant's phases go through its own target. A
	// PodKill of the target moves its variant to the replacement's. Token is the run's token.
	AppURL         string
	VariantAppURLs []string
	Token          string
	// KillURL is the operator's address, which takes a PodKill's order for Run.
	KillURL string
	Run     struct{ Namespace, Name string }

	mu    sync.Mutex                // guards moved once the phases run
	moved map[result.Variant]string // a variant's target app's address after a kill replaced it
}

// kills reports whether any fault deletes a pod.
func (p *FaultPlan) kills() bool {
	return slices.ContainsFunc(p.Faults, loadsettings.Fault.Kills)
}

// killsLoadTester reports whether a fault deletes a load-tester pod: one of the group's
// followers, which the Job replaces.
func (p *FaultPlan) killsLoadTester() bool {
	return slices.ContainsFunc(p.Faults, func(f loadsettings.Fault) bool { return f.Kills() && f.Role == loadsettings.RoleLoadTester })
}

// needsApp reports whether a fault goes through the target app (AppURL).
func (p *FaultPlan) needsApp() bool {
	return slices.ContainsFunc(p.Faults, loadsettings.Fault.NeedsApp)
}

// appURL is the address of variant v's target app now; empty for a variant without one.
func (p *FaultPlan) appURL(v result.Variant) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if u, ok := p.moved[v]; ok {
		return u
	}
	return strings.TrimSuffix(p.declaredURL(v), "/")
}

// declaredURL is the address the operator gave for variant v's target app.
func (p *FaultPlan) declaredURL(v result.Variant) string {
	if v == result.Dapr {
		return p.AppURL
	}
	for i, u := range p.VariantAppURLs {
		if result.DaprVariant(i+1) == v {
			return u
		}
	}
	return ""
}

// movedTo points variant v at a replacement target pod's address, on the app's port.
func (p *FaultPlan) movedTo(v result.Variant, ip string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if u, err := url.Parse(p.declaredURL(v)); err == nil && ip != "" {
		u.Host = net.JoinHostPort(ip, u.Port())
		if p.moved == nil {
			p.moved = map[result.Variant]string{}
		}
		p.moved[v] = strings.TrimSuffix(u.String(), "/")
	}
}

// faultClient bounds an order's round trip: a fault ordered late is recorded late.
var faultClient = &http.Client{Timeout: 5 * time.Second}

// phaseFaults are the faults of one phase under way.
type phaseFaults struct {
	wg      sync.WaitGroup
	mu      sync.Mutex
	applied []result.AppliedFault
	plan    *FaultPlan
	key     latency.Key
	seen    int64 // the app's invocation count at the phase's start; -1 unread
	// killed are the counts of the target apps killed in the phase, each its highest reading
	// (-1: none). Kills of one phase follow one another (spec.faults holds one), or
	// two would read the same app.
	killed []int64
}

// forPhase is the faults of the phase of k, with the app's count read before it (nil: no
// fault in this phase). Read it before the phase's profile and CPU reading begin.
func (p *FaultPlan) forPhase(ctx context.Context, k latency.Key) *phaseFaults {
	if p == nil || len(p.Faults) == 0 || k.Variant == result.Baseline || k.Variant == result.Direct {
		return nil
	}
	return &phaseFaults{plan: p, key: k, seen: p.invocations(ctx, k.Variant)}
}

// arm orders each fault at its time in the phase rec paces, from the schedule's start, the
// clock its timeline is cut on. Each order is recorded from its sending to the end the app
// was sure to have lifted it by: on the app's clock the span holds the fault whole (a
// request sent late may still meet it after its slot's second). The daprds' CPU is read at
// the fault's start and end, against phaseStart, the phase's own first reading.
func (pf *phaseFaults) arm(ctx context.Context, rec *latency.Recorder, meter *daprdMeter, phaseStart daprdReading) {
	if pf == nil {
		return
	}
	p, k := pf.plan, pf.key
	for i, f := range p.Faults {
		pf.wg.Go(func() {
			a := result.AppliedFault{Fault: i, Variant: k.Variant, Rep: k.Rep, AppSeen: -1}
			select {
			case <-ctx.Done():
				a.Error = "the phase ended before its schedule began (a fault is timed from it)"
			case <-rec.Begun():
				select {
				case <-ctx.Done():
					a.Error = "the phase ended before the fault's time"
				case <-time.After(time.Until(rec.Schedule().Start.Add(f.At))):
					// Beside the order, not before it: a slow reading must not make the fault late.
					atStart := make(chan daprdReading, 1)
					go func() { atStart <- meter.read(ctx) }()
					if f.Kills() {
						if n, moved := p.kill(ctx, k.Variant, f, &a); moved {
							pf.mu.Lock()
							pf.killed = append(pf.killed, n)
							pf.mu.Unlock()
						}
					} else {
						sent := time.Now()
						err := p.order(ctx, k.Variant, f.Order())
						a.StartUnixNano, a.EndUnixNano = sent.UnixNano(), time.Now().Add(f.For).UnixNano()
						if err != nil {
							a.Error = err.Error()
						}
					}
					readFaultCPU(ctx, meter, phaseStart, <-atStart, &a)
				}
			}
			pf.mu.Lock()
			pf.applied = append(pf.applied, a)
			pf.mu.Unlock()
		})
	}
}

// readFaultCPU reads the daprds' CPU at the applied fault's end and records it with the
// phase's before it (none for a fault not applied, or a phase that ended first).
func readFaultCPU(ctx context.Context, meter *daprdMeter, phaseStart, atStart daprdReading, a *result.AppliedFault) {
	if meter == nil || a.Error != "" {
		return
	}
	select {
	case <-ctx.Done():
		return
	case <-time.After(time.Until(time.Unix(0, a.EndUnixNano))):
	}
	a.CPUBefore, a.CPUDuring = between(phaseStart, atStart), between(atStart, meter.read(ctx))
}

// finish waits for the phase's faults and returns them as applied, each with what the app
// saw over the phase and the sent requests it saw them of, and a PubSub phase's messages.
func (pf *phaseFaults) finish(ctx context.Context, sent int64, messages *result.Messages) []result.AppliedFault {
	if pf == nil {
		return nil
	}
	pf.wg.Wait()
	seen := int64(-1)
	if end := pf.plan.invocations(ctx, pf.key.Variant); end >= 0 && pf.seen >= 0 {
		// The phase's first app counted from pf.seen; each app a kill replaced counted from
		// 0 (its replacement's start) to its last reading; the app now counted to end.
		seen = end - pf.seen
		for _, n := range pf.killed {
			if n < 0 {
				seen = -1
				break
			}
			seen += n
		}
	}
	for i := range pf.applied {
		pf.applied[i].AppSeen, pf.applied[i].Sent, pf.applied[i].Messages = seen, sent, messages
	}
	return pf.applied
}

// order asks variant v's target app for a fault.
func (p *FaultPlan) order(ctx context.Context, v result.Variant, o loadsettings.FaultOrder) error {
	body, _ := json.Marshal(o)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.appURL(v)+loadsettings.FaultPath, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+p.Token)
	resp, err := faultClient.Do(req)
	if err != nil {
		return fmt.Errorf("ordering the fault from the target app: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("the target app refused the fault: %s %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	return nil
}

// invocations is variant v's target app's count of invocations; -1 when it cannot be read.
func (p *FaultPlan) invocations(ctx context.Context, v result.Variant) int64 {
	u := p.appURL(v)
	if u == "" {
		return -1 // a run whose faults skip the target app: a PubSub run has none
	}
	return countAt(ctx, faultClient, u)
}

// countAt is the count of invocations the app at appURL answers on /stats; -1 when it
// cannot be read.
func countAt(ctx context.Context, c *http.Client, appURL string) int64 {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, appURL+"/stats", nil)
	if err != nil {
		return -1
	}
	resp, err := c.Do(req)
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var stats struct {
		Invocations *int64 `json:"invocations"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 4<<10)).Decode(&stats) != nil || stats.Invocations == nil {
		return -1
	}
	return *stats.Invocations
}

// withMeasuredRates marks each fault applied in a phase whose run lost a pod's measurements
// with the rate of the pods it holds.
func withMeasuredRates(faults []result.AppliedFault, runs []result.Run) []result.AppliedFault {
	for i, f := range faults {
		for _, r := range runs {
			if r.Variant == f.Variant && r.Rep == f.Rep {
				faults[i].MeasuredQPS = r.RequestedQPS
			}
		}
	}
	return faults
}

// timelinesOf are the measured runs' seconds, for a run with faults: each recording's
// blocks and failed counts from its schedule's start.
func timelinesOf(recs map[latency.Key]*latency.Recorded, starts map[latency.Key]time.Time) ([]result.Timeline, error) {
	var out []result.Timeline
	for k, rec := range recs {
		start, ok := starts[k]
		if !ok {
			continue
		}
		t := result.Timeline{Variant: k.Variant, Rep: k.Rep, StartUnixNano: start.UnixNano()}
		for s := range max(len(rec.Blocks), len(rec.FailedBlocks)) {
			var sec result.Second
			if s < len(rec.FailedBlocks) {
				sec.Failed = rec.FailedBlocks[s]
			}
			if s < len(rec.Blocks) && rec.Blocks[s].Total() > 0 {
				enc, err := result.EncodeHistogram(rec.Blocks[s].Histogram())
				if err != nil {
					return nil, fmt.Errorf("encoding second %d of %s repetition %d: %w", s, k.Variant, k.Rep, err)
				}
				sec.Latency = enc
			}
			t.Seconds = append(t.Seconds, sec)
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b result.Timeline) int {
		return cmp.Or(cmp.Compare(a.StartUnixNano, b.StartUnixNano), cmp.Compare(a.Variant, b.Variant))
	})
	return out, nil
}

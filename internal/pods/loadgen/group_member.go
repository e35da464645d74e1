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
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// measured is what a pod measured: its runs and the exact recording of each.
type measured struct {
	runs []result.Run
	recs map[latency.Key]*latency.Recorded
	// deliveries and messages are a PubSub, Workflow or Scheduler run's, per phase (one pod
	// measures it); activities a Workflow run's activity dispatch latencies.
	deliveries map[latency.Key]*latency.Recorded
	messages   map[latency.Key]result.Messages
	activities map[latency.Key]*hdrhistogram.Histogram
	// phases names each phase of messages by its book label (a split repetition's halves
	// are one phase's).
	phases map[string]latency.Key
	// starts are the schedules' starts and faults the faults as applied, in a run with
	// faults (the leader's: it applies them, and every pod starts a phase together).
	starts map[latency.Key]time.Time
	// parts are every measured phase's schedule start and the size of its recording, two
	// for a repetition measured in halves (the leader's): a soak's latency windows are cut
	// along them.
	parts  map[latency.Key][]phasePart
	faults []result.AppliedFault
	// gauges are the daprds' goroutines and open files through a soak (the leader's).
	gauges []result.DaprdGauges
}

// addLate adds to each phase's messages what app's book saw after the phase closed: late
// deliveries and redeliveries, and how long it watched.
func (o *measured) addLate(app *appServer) {
	if app == nil {
		return
	}
	for label, late := range app.book.lateSince() {
		if k, ok := o.phases[label]; ok {
			o.messages[k] = o.messages[k].Plus(late)
			o.faultsLate(k, late)
		}
	}
}

// faultsLate adds a phase's late deliveries and redeliveries to the messages of the faults
// applied in it, as to its path's, so a fault's counts stay its phases' own.
func (o *measured) faultsLate(k latency.Key, late result.Messages) {
	for i := range o.faults {
		f := &o.faults[i]
		if f.Variant == k.Variant && f.Rep == k.Rep && f.Messages != nil {
			m := f.Messages.Plus(late) // a copy: the phase's faults may share one count
			f.Messages = &m
		}
	}
}

// member is a pod's part in its group; a run without a group is a group of one.
type member interface {
	// start is the phase this pod starts at: 0, unless it replaces a pod the run's fault
	// killed (its Job made it), which takes over at the phase after the killed one's.
	start(ctx context.Context) (int, error)
	// meet blocks until every pod is ready to start phase.
	meet(ctx context.Context, phase int) error
	// ended hands a run this pod measured whole to the leader at once, so that a kill of
	// the pod later loses only the phase it was in.
	ended(ctx context.Context, run result.Run, rec *latency.Recorded) error
	// finish exchanges the measurements once this pod is done (runErr: why it stopped
	// early). The leader returns the pods' merged measurements and each pod's load; a
	// peer or a lone pod returns its own.
	finish(ctx context.Context, own measured, runErr error) (measured, []result.PodLoad, error)
	close()
}

// joinGroup returns this pod's member: alone, the leader (listening for the peers) or a peer.
func joinGroup(g *Group, shareQPS float64, plan map[latency.Key]bool) (member, error) {
	switch {
	case g == nil:
		return alone{}, nil
	case g.Leads():
		c := newCoordinator(g.Size, g.Token, plan)
		stop, err := c.serve(g.Listen)
		if err != nil {
			return nil, err
		}
		return &leader{g: g, c: c, stop: stop, shareQPS: shareQPS}, nil
	default:
		return &follower{g: g, client: &http.Client{}, id: rand.Text()}, nil
	}
}

type alone struct{}

func (alone) start(context.Context) (int, error)                         { return 0, nil }
func (alone) meet(ctx context.Context, _ int) error                      { return ctx.Err() }
func (alone) ended(context.Context, result.Run, *latency.Recorded) error { return nil }
func (alone) close()                                                     {}
func (alone) finish(_ context.Context, own measured, runErr error) (measured, []result.PodLoad, error) {
	return own, nil, runErr
}

type leader struct {
	g        *Group
	c        *coordinator
	stop     func()
	shareQPS float64 // each pod's part of the rate
}

func (l *leader) meet(ctx context.Context, phase int) error {
	ctx, cancel := context.WithTimeout(ctx, l.g.Wait)
	defer cancel()
	if err := l.c.arrive(ctx, phase, 0); err != nil {
		return fmt.Errorf("waiting for the other load-tester pods at phase %d (at most %v): %w", phase, l.g.Wait, err)
	}
	return nil
}

func (l *leader) start(context.Context) (int, error)                         { return 0, nil }
func (l *leader) ended(context.Context, result.Run, *latency.Recorded) error { return nil }
func (l *leader) close()                                                     { l.stop() }

func (l *leader) finish(ctx context.Context, own measured, runErr error) (measured, []result.PodLoad, error) {
	if runErr != nil {
		l.c.abort(fmt.Errorf("the leader pod failed: %v", runErr))
		return own, nil, runErr
	}
	peers, err := l.c.gather(ctx, l.g.Wait)
	if err != nil {
		l.c.abort(err)
		return own, nil, err
	}
	pods := []measured{own}
	for _, p := range peers {
		m, err := p.decode()
		if err != nil {
			return own, nil, fmt.Errorf("load-tester pod %d: %w", p.Pod, err)
		}
		pods = append(pods, m)
	}
	return mergePods(pods, l.shareQPS), podLoads(pods, l.shareQPS), nil
}

func (f *follower) start(ctx context.Context) (int, error)    { return f.join(ctx) }
func (f *follower) meet(ctx context.Context, phase int) error { return f.arrive(ctx, phase) }
func (f *follower) close()                                    {}

func (f *follower) ended(ctx context.Context, run result.Run, rec *latency.Recorded) error {
	k := keyOf(run)
	recs, err := encodeRecordings(map[latency.Key]*latency.Recorded{k: rec})
	if err != nil {
		return err
	}
	return f.send(ctx, podMeasurements{Pod: f.g.Index, Part: true, Runs: []result.Run{run}, Recordings: recs})
}

// finish ends this pod's deliveries: its runs went to the leader as each ended.
func (f *follower) finish(ctx context.Context, own measured, runErr error) (measured, []result.PodLoad, error) {
	m := podMeasurements{Pod: f.g.Index}
	if runErr != nil {
		m.Error = runErr.Error()
	}
	if err := f.send(ctx, m); err != nil && runErr == nil {
		runErr = err
	}
	return own, nil, runErr
}

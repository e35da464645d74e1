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
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// ProfileCapture asks both daprd sidecars (dapr.io/enable-profiling serves net/http/pprof)
// for a CPU profile over one window, centred in a measured phase of the Dapr path. The
// load tester takes them because it needs no privilege to: its own sidecar is on
// localhost, the target's on the target pod's IP.
type ProfileCapture struct {
	// Seconds is the window's length.
	Seconds int
	// ServerURL and ClientURL are the profiling servers of the target's and of this pod's
	// daprd, e.g. http://10.0.0.7:7777 and http://localhost:7777.
	ServerURL, ClientURL string
	// ServerToken is sent as a bearer token to ServerURL: the target app's capture route
	// hands out its daprd's profile to the run's own load tester only.
	ServerToken string
	// Slack bounds the wait for a profile past its window (daprd answers at its end).
	Slack time.Duration
}

// profilePhase is the phase of order the window is centred in: the first whole measured
// phase of the Dapr path, else its first half phase (one repetition split in halves; the
// window, at most half of the duration, then fits it without margin). ok is false when no
// phase measures the Dapr path.
func profilePhase(order []loadsettings.Phase, targets []Target) (phase int, ok bool) {
	phase = -1
	for i, ph := range order {
		if targets[ph.Path].Variant != result.Dapr {
			continue
		}
		if ph.Half == 0 {
			return i, true
		}
		if phase < 0 {
			phase = i
		}
	}
	return phase, phase >= 0
}

// profiler takes the two profiles once its phase starts, in the background: a failed
// capture is reported in its profile line and the log, never in the load's result.
type profiler struct {
	cfg     ProfileCapture
	phase   int
	log     io.Writer
	client  *http.Client
	started bool
	cancel  context.CancelFunc
	done    chan struct{}
	got     []result.Profile
}

// newProfiler is the run's profiler, nil when the run takes no profile or this pod does
// not lead its group (pod 0 profiles its own sidecar and prints the result's lines).
func newProfiler(cfg Config) *profiler {
	if cfg.Profile == nil || (cfg.Group != nil && !cfg.Group.Leads()) {
		return nil
	}
	phase, ok := profilePhase(loadsettings.PhaseOrder(len(cfg.Targets), cfg.Repetitions, cfg.Duration), cfg.Targets)
	if !ok {
		phase = -1
	}
	return &profiler{cfg: *cfg.Profile, phase: phase, log: cfg.Log, client: &http.Client{}, done: make(chan struct{})}
}

// profileMargin is kept between the profiling window and either edge of its phase, where
// the load ramps up and drains (the usage figures leave out the same 2 s).
const profileMargin = 2 * time.Second

// startAt starts the captures when phase is the profiler's, the window centred in the
// phase's length d.
func (p *profiler) startAt(ctx context.Context, phase int, d time.Duration) {
	if p == nil || phase != p.phase || p.started {
		return
	}
	p.started = true
	ctx, p.cancel = context.WithCancel(ctx)
	// Admission leaves the window profileMargin on each side of its phase; a load tester
	// started by hand may not, so the window shrinks rather than take in the phase's edges.
	p.cfg.Seconds = min(p.cfg.Seconds, int((d-2*profileMargin)/time.Second))
	if p.cfg.Seconds < 1 {
		p.got = p.failedAll(fmt.Errorf("the %v phase leaves no whole second between its edges' %v", d, profileMargin))
		close(p.done)
		return
	}
	window := time.Duration(p.cfg.Seconds) * time.Second
	delay := (d - window) / 2
	logf(p.log, "profiling: both daprd sidecars for %v, from %v into this phase", window, delay)
	go func() {
		defer close(p.done)
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			p.got = p.failedAll(errors.New("the load ended before the profiling window"))
			return
		}
		start := time.Now()
		got := make([]result.Profile, 2)
		var wg sync.WaitGroup
		for i, s := range []struct{ role, url, token string }{
			{result.ProfileServerSidecar, p.cfg.ServerURL, p.cfg.ServerToken}, {result.ProfileClientSidecar, p.cfg.ClientURL, ""}} {
			wg.Go(func() { got[i] = p.fetch(ctx, s.role, s.url, s.token, start) })
		}
		wg.Wait()
		p.got = got
	}()
}

// finish waits for the captures (at most the slack past the load's end: the window ended
// inside its phase) and returns their profiles; a load that failed stops them at once.
func (p *profiler) finish(loadErr error) []result.Profile {
	if p == nil {
		return nil
	}
	if !p.started {
		why := "the load ended before the profiled phase"
		if p.phase < 0 {
			why = "no measured phase goes through the Dapr path"
		}
		return p.failedAll(errors.New(why))
	}
	if loadErr != nil {
		p.cancel()
	}
	select {
	case <-p.done:
	case <-time.After(p.cfg.Slack):
		p.cancel()
		<-p.done
	}
	p.cancel()
	return p.got
}

// fetch asks one daprd for its profile over the window starting now.
func (p *profiler) fetch(ctx context.Context, role, base, token string, start time.Time) result.Profile {
	out := result.Profile{Role: role, StartUnix: start.Unix(), Seconds: p.cfg.Seconds}
	data, err := p.get(ctx, base, token)
	if err != nil {
		out.Error = err.Error()
		logf(p.log, "profiling: no %s profile: %v", role, err)
		return out
	}
	out.Pprof = data
	logf(p.log, "profiling: %s profile of %d bytes", role, len(data))
	return out
}

func (p *profiler) get(ctx context.Context, base, token string) ([]byte, error) {
	if base == "" {
		return nil, errors.New("no profiling server was given (the operator knew no target pod IP)")
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(p.cfg.Seconds)*time.Second+p.cfg.Slack)
	defer cancel()
	u := strings.TrimSuffix(base, "/") + "/debug/pprof/profile?seconds=" + strconv.Itoa(p.cfg.Seconds)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, result.MaxProfileBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", u, err)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%s: %s: %.200s", u, resp.Status, strings.TrimSpace(string(body)))
	case len(body) > result.MaxProfileBytes:
		return nil, fmt.Errorf("%s: a profile of more than %d bytes", u, result.MaxProfileBytes)
	case len(body) == 0:
		return nil, fmt.Errorf("%s: an empty profile", u)
	}
	return body, nil
}

func (p *profiler) failedAll(err error) []result.Profile {
	logf(p.log, "profiling: no profiles: %v", err)
	var out []result.Profile
	for _, role := range []string{result.ProfileServerSidecar, result.ProfileClientSidecar} {
		out = append(out, result.Profile{Role: role, Seconds: p.cfg.Seconds, Error: err.Error()})
	}
	return out
}

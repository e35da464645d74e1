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
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"fortio.org/fortio/periodic"
)

// A Scheduler run's path (the operator writes its URL, see workload's schedulerSide):
//
//	dapr-jobs+http://localhost:3500/?due=1s                        one-shot jobs (Dapr's Jobs API)
//	dapr-reminders+http://localhost:3500/ACTORTYPE?due=1s&actors=N one-shot reminders on N actors
//	dapr-timers+http://localhost:3500/ACTORTYPE?due=1s&actors=N    one-shot timers on N actors
//
// A request registers one job, reminder or timer due `due` after it; Dapr's scheduler (a
// timer: the daprd hosting its actor) triggers it back through the load tester's daprd to
// the load tester's own app server (the subscriber: POST /job/NAME, or PUT
// /actors/TYPE/ID/method/remind/NAME or …/method/timer/NAME). Each carries, as its data, the
// message a PubSub run publishes — its phase, its number and its slot plus the due time — so
// each trigger's lateness (its receipt minus the slot plus the due time) is read on this
// process's one clock, in the delivery book: triggered as delivered, missed as lost, a
// second trigger as duplicated. The lateness includes the registration call's own time up
// to daprd (daprd counts the due time from its receipt).

// schedulerPaths are a Scheduler run's paths: one-shot jobs through daprd's Jobs API, or
// reminders or timers on actors the load tester hosts, each triggered back to its app server.
type schedulerPaths struct{}

func (schedulerPaths) schemes() map[string]endpointKind {
	return map[string]endpointKind{"dapr-jobs+http": viaDaprJobs, "dapr-reminders+http": viaDaprReminders, "dapr-timers+http": viaDaprTimers}
}

// host has the app server take the triggers (and host the actor type of reminders and
// timers); its drain is lengthened by the due time.
func (schedulerPaths) host(app *appServer, ep endpoint, _, _ time.Duration) {
	app.servesDapr = true
	app.drain = DeliveryDrain + ep.scheduler.due
	if ep.onActors() {
		app.actorType = ep.method
	}
}

// ready registers until a job or reminder is triggered: daprd's scheduler connection up
// and, for reminders, the actor type placed (at least 60 s).
func (schedulerPaths) ready(ctx context.Context, p path, bound time.Duration, _ int) error {
	bound = max(bound, 60*time.Second)
	if last, err := waitForTrigger(ctx, p.ep, p.app, bound); err != nil {
		return fmt.Errorf("%s path %s: nothing triggered within %v (last: %s)", p.target.Variant, p.target.URL, bound, last)
	}
	return nil
}

func (schedulerPaths) run(opts *periodic.RunnerOptions, p path, timeout time.Duration, phase string) (outcome, any, error) {
	if p.app == nil {
		return outcome{}, nil, errors.New("a Scheduler path needs the run's app server")
	}
	out, err := runScheduler(opts, p.ep, p.body, timeout, p.app.book, phase)
	return out, out, err
}

// onActors reports whether a Scheduler path registers on actors the load tester hosts.
func (ep endpoint) onActors() bool { return ep.kind == viaDaprReminders || ep.kind == viaDaprTimers }

// actorAPI is the segment of daprd's actor API a path registers through.
func (ep endpoint) actorAPI() string {
	if ep.kind == viaDaprTimers {
		return "timers"
	}
	return "reminders"
}

func (schedulerPaths) parse(raw string, u *url.URL) (endpoint, error) {
	q := u.Query()
	ep := endpoint{kind: viaDaprJobs, addr: u.Host, scheduler: &schedulerEndpoint{}}
	switch u.Scheme {
	case "dapr-reminders+http":
		ep.kind, ep.method = viaDaprReminders, strings.Trim(u.Path, "/")
	case "dapr-timers+http":
		ep.kind, ep.method = viaDaprTimers, strings.Trim(u.Path, "/")
	}
	due, err := time.ParseDuration(q.Get("due"))
	switch {
	case u.Port() == "":
		return endpoint{}, fmt.Errorf("%q: the address needs a port", raw)
	case err != nil || due < 100*time.Millisecond || due > time.Minute:
		return endpoint{}, fmt.Errorf("%q: due must be a duration from 100ms to 1m", raw)
	case ep.onActors() && (ep.method == "" || strings.Contains(ep.method, "/")):
		return endpoint{}, fmt.Errorf("%q: want %s://HOST:PORT/ACTORTYPE?due=…&actors=…", raw, u.Scheme)
	}
	ep.scheduler.due = due
	if ep.onActors() {
		n, err := strconv.Atoi(q.Get("actors"))
		if err != nil || n < 1 || n > 100000 {
			return endpoint{}, fmt.Errorf("%q: actors must be a number from 1 to 100000", raw)
		}
		ep.scheduler.actors = n
	}
	return ep, nil
}

// schedConn is a fortio thread's connection: each call registers the next job or reminder of
// its phase on one keep-alive connection to daprd.
type schedConn struct {
	ep     endpoint
	client *http.Client
	book   *deliveryBook
	phase  string
	pad    string
	due    string // the due time as Dapr reads it
	n      uint64 // this connection's registrations, for names
	id     string // this connection's part of names
}

func (c *schedConn) call(ctx context.Context) error {
	phase, slot := phaseAndSlot(ctx, c.phase)
	m := message{Nonce: c.book.nonce, Phase: phase, Seq: c.book.next(phase), Due: c.book.offset(slot.Add(c.ep.scheduler.due)), Pad: c.pad}
	c.n++
	name := fmt.Sprintf("%s-%s-%s-%d", c.book.nonce[:8], phase, c.id, c.n)
	body, _ := json.Marshal(map[string]any{"dueTime": c.due, "data": m})
	u := fmt.Sprintf("http://%s/v1.0-alpha1/jobs/%s", c.ep.addr, url.PathEscape(name))
	if c.ep.onActors() {
		n := m.Seq
		if n == 0 { // a phase not opened (a warm-up): this connection's count spreads its registrations
			n = c.n
		}
		actor := strconv.FormatUint(n%uint64(c.ep.scheduler.actors), 10)
		u = fmt.Sprintf("http://%s/v1.0/actors/%s/%s/%s/%s", c.ep.addr, url.PathEscape(c.ep.method), actor, c.ep.actorAPI(), url.PathEscape(name))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	answer, code, err := readAnswer(c.client, req)
	switch {
	case err != nil:
		return err
	case code != http.StatusNoContent && code != http.StatusOK:
		return statusError{code, string(answer)}
	}
	c.book.published(m.Phase, m.Seq, m.Due)
	return nil
}

func (c *schedConn) close() { c.client.CloseIdleConnections() }

// runScheduler makes one fortio run of a Scheduler path, its registrations tagged with phase.
func runScheduler(opts *periodic.RunnerOptions, ep endpoint, body []byte, timeout time.Duration, book *deliveryBook, phase string) (outcome, error) {
	pad := lettersOf(body)
	conns := 0
	return runThreads(opts, timeout, stateStatusOf, func() (threadConn, error) {
		conns++
		return &schedConn{ep: ep, book: book, phase: phase, pad: pad, due: ep.scheduler.due.String(), id: strconv.Itoa(conns),
			client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}}}, nil
	})
}

// hostsActors reports whether the load tester hosts actors for one of targets (a Scheduler
// path's reminders or timers): its app server must outlive daprd's shutdown.
func hostsActors(targets []Target) bool {
	for _, t := range targets {
		if ep, err := parseEndpoint(t.URL); err == nil && ep.onActors() {
			return true
		}
	}
	return false
}

// Where daprd triggers a Scheduler run's jobs and reminders on the load tester's app server.
const (
	jobRoute      = "POST /job/{name}"
	reminderRoute = "PUT /actors/{type}/{id}/method/remind/{name}"
	timerRoute    = "PUT /actors/{type}/{id}/method/timer/{name}"
)

// triggered reads a trigger's body: a job's data as daprd delivers it (the message itself,
// or wrapped as {"value": …} or base64), or a reminder's or timer's ({"data": message,
// "dueTime": …}).
func triggered(body []byte) (message, bool) {
	if m, err := decodeMessage(body); err == nil {
		return m, true
	}
	var wrapped struct {
		Data  json.RawMessage `json:"data"`
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(body, &wrapped) != nil {
		return message{}, false
	}
	for _, inner := range []json.RawMessage{wrapped.Data, wrapped.Value} {
		if len(inner) == 0 {
			continue
		}
		if m, err := decodeMessage(inner); err == nil {
			return m, true
		}
		var b64 []byte // a string holding the message, base64 or quoted JSON
		if json.Unmarshal(inner, &b64) == nil {
			if m, err := decodeMessage(b64); err == nil {
				return m, true
			}
		}
		var s string
		if json.Unmarshal(inner, &s) == nil {
			if m, err := decodeMessage([]byte(s)); err == nil {
				return m, true
			}
		}
	}
	return message{}, false
}

// serveTriggers answers daprd's triggers of a Scheduler run's jobs, reminders and timers,
// and, for actors, daprd's questions to an actor host: which types it hosts, and
// deactivations.
func (s *appServer) serveTriggers(mux *http.ServeMux) {
	take := func(w http.ResponseWriter, r *http.Request) {
		arrived := s.book.arrival()
		body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
		if m, ok := triggered(body); err == nil && ok {
			s.book.delivered(m, arrived)
		}
		w.WriteHeader(http.StatusOK) // whatever it was: a trigger this server cannot read is not one to retry
	}
	mux.HandleFunc(jobRoute, take)
	if s.actorType == "" {
		return
	}
	mux.HandleFunc(reminderRoute, take)
	mux.HandleFunc(timerRoute, take)
	mux.HandleFunc("GET /dapr/config", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"entities": []string{s.actorType}})
	})
	mux.HandleFunc("DELETE /actors/{type}/{id}", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
}

// waitForTrigger registers a probe (due in 100 ms) every 2 s until one is triggered, for at
// most bound, looking for its trigger every 50 ms. Probes are their own phase, never counted
// in a measured one.
func waitForTrigger(ctx context.Context, ep endpoint, app *appServer, bound time.Duration) (last string, err error) {
	if app == nil {
		return "no app server", errors.New("no app server")
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	probe, due := ep, *ep.scheduler // the probe's own settings: ep's are the measured path's
	due.due = 100 * time.Millisecond
	probe.scheduler = &due
	phase := "probe-scheduler"
	app.book.begin(phase)
	defer app.book.close(phase, time.Time{})
	c := &schedConn{ep: probe, book: app.book, phase: phase, due: probe.scheduler.due.String(), id: "probe", client: &http.Client{Timeout: 5 * time.Second}}
	defer c.close()
	last = "nothing registered yet"
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var registered time.Time
	for app.book.deliveredCount(phase) == 0 {
		if time.Since(registered) >= 2*time.Second {
			registered = time.Now()
			if err := c.call(ctx); err != nil {
				last = err.Error()
			} else {
				last = "registered, not triggered yet"
			}
		}
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case <-tick.C:
		}
	}
	return "", nil
}

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
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fortio.org/fortio/periodic"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// schedulerStandIn is a TEST-ONLY stand-in for daprd's Jobs and actor reminders and timers
// APIs with Dapr's scheduler behind them: it takes a one-shot job, reminder or timer and,
// its due time plus late after, triggers it on the app server as daprd does — a job's data
// as the body of POST /job/NAME, a reminder's as {"data": …} in PUT
// /actors/TYPE/ID/method/remind/NAME, a timer's in …/method/timer/NAME —
// missing every missEvery-th and triggering every doubleEvery-th twice.
type schedulerStandIn struct {
	appURL                 string
	late                   time.Duration
	missEvery, doubleEvery int64
	n                      atomic.Int64
	configAsked            atomic.Bool // GET /dapr/config answered with the reminders' type
	wg                     sync.WaitGroup
}

func (s *schedulerStandIn) serve(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1.0-alpha1/jobs/{name}", func(w http.ResponseWriter, r *http.Request) {
		s.take(w, r, http.MethodPost, "/job/"+r.PathValue("name"), false)
	})
	// A reminder or a timer: daprd refuses either on a type its app does not host.
	onActor := func(callback string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if !s.configAsked.Load() {
				resp, err := http.Get(s.appURL + "/dapr/config")
				var cfg struct{ Entities []string }
				if err == nil {
					_ = json.NewDecoder(resp.Body).Decode(&cfg)
					resp.Body.Close()
				}
				if len(cfg.Entities) != 1 || cfg.Entities[0] != r.PathValue("type") {
					http.Error(w, "the app does not host this actor type", http.StatusInternalServerError)
					return
				}
				s.configAsked.Store(true)
			}
			s.take(w, r, http.MethodPut, "/actors/"+r.PathValue("type")+"/"+r.PathValue("id")+"/method/"+callback+"/"+r.PathValue("name"), true)
		}
	}
	mux.HandleFunc("POST /v1.0/actors/{type}/{id}/reminders/{name}", onActor("remind"))
	mux.HandleFunc("POST /v1.0/actors/{type}/{id}/timers/{name}", onActor("timer"))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { s.wg.Wait(); srv.Close() })
	return srv.Listener.Addr().String()
}

func (s *schedulerStandIn) take(w http.ResponseWriter, r *http.Request, method, path string, reminder bool) {
	var req struct {
		DueTime string          `json:"dueTime"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	due, err := time.ParseDuration(req.DueTime)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	body := []byte(req.Data)
	if reminder {
		body, _ = json.Marshal(map[string]any{"data": req.Data, "dueTime": req.DueTime, "period": ""})
	}
	n := s.n.Add(1)
	copies := 1
	if s.missEvery > 0 && n%s.missEvery == 0 {
		copies = 0
	} else if s.doubleEvery > 0 && n%s.doubleEvery == 0 {
		copies = 2
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		time.Sleep(due + s.late)
		for range copies {
			req, _ := http.NewRequest(method, s.appURL+path, bytes.NewReader(body))
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}
	}()
	w.WriteHeader(http.StatusNoContent)
}

// The known answer: jobs, reminders and timers due 200 ms after their registration,
// triggered 30 ms late, read as 30 ms of lateness (from the slot plus the due time), every
// one triggered once; the registration call's own latency does not wait for the trigger.
func TestATriggerThirtyMillisecondsLateReadsAsThirtyMillisecondsOfLateness(t *testing.T) {
	for _, api := range []string{"jobs", "reminders", "timers"} {
		t.Run(api, func(t *testing.T) {
			listen := freeAddr(t)
			daprd := &schedulerStandIn{appURL: "http://" + listen, late: 30 * time.Millisecond}
			addr := daprd.serve(t)
			url := "dapr-jobs+http://" + addr + "/?due=200ms"
			if api != "jobs" {
				url = "dapr-" + api + "+http://" + addr + "/PerfActor-x-1?due=200ms&actors=10"
			}
			r := runCLI(t, "--qps=100", "--connections=2", "--duration=1s", "--warmup=0s", "--repetitions=1",
				"--payload-bytes=64", "--target-wait=5s", "--subscriber-listen="+listen, "--dapr-url="+url)
			if r.code != 0 {
				t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
			}
			run := r.summary.Runs[0]
			p, ok := r.summary.Delivery.PathOf(result.Dapr)
			if !ok || p.Messages.Published != run.Requests-run.Errors || p.Messages.Delivered != p.Messages.Published || p.Messages.Lost != 0 {
				t.Fatalf("triggers %+v for %d registrations: want every one triggered once", p.Messages, run.Requests-run.Errors)
			}
			p50, _ := p.Latency(50)
			if p0 := p.Percentiles[0].Us; p0 < 30000 || p50 > 45000 {
				t.Errorf("lateness: lowest percentile %d µs, p50 %d µs: want from 30 ms, about 30 ms", p0, p50)
			}
			if m, _ := r.summary.MergedOf(result.Dapr); m.Percentiles[0].Us >= 200000 {
				t.Errorf("the registration's own p50 is %d µs: it must not wait for the trigger", m.Percentiles[0].Us)
			}
		})
	}
}

// Registrations never triggered are counted missed, a second trigger doubled.
func TestMissedAndDoubledTriggersAreCounted(t *testing.T) {
	t.Parallel()
	listen := freeAddr(t)
	daprd := &schedulerStandIn{appURL: "http://" + listen, missEvery: 9, doubleEvery: 7}
	target := Target{Variant: result.Dapr, URL: "dapr-jobs+http://" + daprd.serve(t) + "/?due=100ms"}
	sub, err := startAppServer(context.Background(), []Target{target}, listen, time.Second, time.Second, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.stop()
	ep, _ := parseEndpoint(target.URL)
	sub.book.begin("dapr-0")
	opts := periodic.RunnerOptions{QPS: 50, NumThreads: 2, Duration: time.Second, Out: io.Discard}
	if _, err := runScheduler(&opts, ep, nil, 5*time.Second, sub.book, "dapr-0"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // every trigger not missed is in by then: due 100 ms
	_, n, _ := sub.book.close("dapr-0", time.Time{})
	if n.Lost == 0 || n.Duplicated == 0 || n.Delivered+n.Lost != n.Published || n.Published < 45 {
		t.Errorf("counts %+v: want some missed, some doubled, every registration triggered or missed", n)
	}
}

func TestSchedulerURLsAreCheckedBeforeAnyLoad(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"dapr-jobs+http://localhost:3500/",                                 // no due time
		"dapr-jobs+http://localhost:3500/?due=10ms",                        // below 100ms
		"dapr-jobs+http://localhost/?due=1s",                               // no port
		"dapr-reminders+http://localhost:3500/?due=1s&actors=5",            // no actor type
		"dapr-reminders+http://localhost:3500/PerfActor?due=1s",            // no actors
		"dapr-reminders+http://localhost:3500/PerfActor/x?due=1s&actors=5", // a path, not a type
		"dapr-timers+http://localhost:3500/PerfActor?due=1s",               // no actors
	} {
		if _, err := parseEndpoint(raw); err == nil {
			t.Errorf("%s: accepted", raw)
		}
	}
	ep, err := parseEndpoint("dapr-reminders+http://localhost:3500/PerfActor-u-1?due=2s&actors=100")
	if err != nil || ep.kind != viaDaprReminders || ep.method != "PerfActor-u-1" || ep.scheduler.due != 2*time.Second || ep.scheduler.actors != 100 {
		t.Errorf("reminders URL -> %+v, %v", ep, err)
	}
	ep, err = parseEndpoint("dapr-timers+http://localhost:3500/PerfActor-u-1?due=2s&actors=100")
	if err != nil || ep.kind != viaDaprTimers || ep.method != "PerfActor-u-1" || ep.actorAPI() != "timers" {
		t.Errorf("timers URL -> %+v, %v", ep, err)
	}
}

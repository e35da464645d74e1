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
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/perfapp"
)

// cannedPprof stands in for daprd's answer: the load tester forwards the bytes as served.
var cannedPprof = []byte{0x1f, 0x8b, 0x08, 0, 'p', 'p', 'r', 'o', 'f'}

// profileServer answers /debug/pprof/profile as serve says, recording when it was asked.
type profileServer struct {
	*httptest.Server
	mu      sync.Mutex
	asked   []time.Time
	seconds []string
}

func newProfileServer(t *testing.T, serve func(w http.ResponseWriter, r *http.Request)) *profileServer {
	s := &profileServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/debug/pprof/profile" {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		s.asked, s.seconds = append(s.asked, time.Now()), append(s.seconds, r.URL.Query().Get("seconds"))
		s.mu.Unlock()
		serve(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func profilesByRole(got []result.Profile) map[string]result.Profile {
	out := map[string]result.Profile{}
	for _, p := range got {
		out[p.Role] = p
	}
	return out
}

// The target's profile is taken as in a run: through the target app's capture route, which
// asks the app's daprd on its behalf, for the run's token.
func TestProfilesAreTakenInTheDaprPhaseAndAFailedOneIsReported(t *testing.T) {
	t.Parallel()
	server := newProfileServer(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(cannedPprof) })
	_, appURL := startPerfapp(t, perfapp.Config{ResponseBytes: 16, DaprdProfiler: server.URL, ProfileToken: "run-token"})
	client := newProfileServer(t, func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "profiling is not enabled", http.StatusInternalServerError)
	})
	// A window of 3s does not fit a 5s phase with 2s kept at either edge: it shrinks to 1s.
	r := runCLI(t, "--qps=100", "--connections=2", "--duration=5s", "--warmup=0s", "--repetitions=1",
		"--baseline-url="+appURL+"/test", "--dapr-url="+appURL+"/test",
		"--profile-seconds=3", "--profile-server-url="+appURL+loadsettings.ProfileCaptureRoot, "--profile-token=run-token",
		"--profile-client-url="+client.URL)
	if r.code != 0 {
		t.Fatalf("exit %d: a failed profile must not fail the load: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	got := profilesByRole(r.report.Profiles)
	if s := got[result.ProfileServerSidecar]; !bytes.Equal(s.Pprof, cannedPprof) || s.Seconds != 1 || s.Error != "" {
		t.Errorf("server profile = %+v, want the canned bytes over 1s", s)
	}
	if c := got[result.ProfileClientSidecar]; c.Pprof != nil || !strings.Contains(c.Error, "500") {
		t.Errorf("client profile = %+v, want its failure", c)
	}
	if !strings.Contains(r.stderr, "no clientSidecar profile") {
		t.Errorf("the failure is not logged:\n%s", r.stderr)
	}
	// Asked once each, for 1s, 2s into the Dapr phase of 5s (centred), never in the baseline's.
	if len(server.asked) != 1 || server.seconds[0] != "1" || len(client.asked) != 1 {
		t.Fatalf("asked the server %v (seconds %v), the client %d times", server.asked, server.seconds, len(client.asked))
	}
	var dapr *result.Run
	for i := range r.summary.Runs {
		if r.summary.Runs[i].Variant == result.Dapr {
			dapr = &r.summary.Runs[i]
		}
	}
	if dapr == nil {
		t.Fatal("no Dapr run")
	}
	into := server.asked[0].Sub(time.Unix(dapr.StartUnix, 0))
	if into < time.Second || into > 3*time.Second {
		t.Errorf("the window began %v after the Dapr phase's start second, want about 2s", into)
	}
	// The profiles travel in the report beside the histograms.
	if len(r.report.Profiles) != 2 || len(r.report.Histograms.Paths) != 2 {
		t.Errorf("the report holds %d profiles and %d paths' histograms", len(r.report.Profiles), len(r.report.Histograms.Paths))
	}
}

// A phase too short to keep 2s at either edge and a whole second between is not profiled:
// both profiles say why, and the load stands.
func TestAPhaseWithoutRoomForAWindowIsNotProfiled(t *testing.T) {
	t.Parallel()
	_, appURL := startPerfapp(t, perfapp.Config{ResponseBytes: 16})
	server := newProfileServer(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(cannedPprof) })
	r := runCLI(t, "--qps=100", "--connections=2", "--duration=4s", "--warmup=0s", "--repetitions=1",
		"--baseline-url="+appURL+"/test", "--dapr-url="+appURL+"/test",
		"--profile-seconds=1", "--profile-server-url="+server.URL, "--profile-client-url="+server.URL)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.summary.Error)
	}
	for role, p := range profilesByRole(r.report.Profiles) {
		if p.Pprof != nil || !strings.Contains(p.Error, "no whole second between its edges") {
			t.Errorf("%s profile = %+v, want it refused for want of room", role, p)
		}
	}
	if len(server.asked) != 0 {
		t.Errorf("asked for a profile %d times", len(server.asked))
	}
}

func TestAProfileThatHangsIsBoundedAndTheLoadStands(t *testing.T) {
	t.Parallel()
	_, appURL := startPerfapp(t, perfapp.Config{ResponseBytes: 16})
	hang := newProfileServer(t, func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	var log bytes.Buffer
	cfg := Config{
		Targets: []Target{{Variant: result.Dapr, URL: appURL + "/test"}}, QPS: 50, Connections: 1, Duration: 5 * time.Second,
		Repetitions: 1, Resolution: 0.0001, RequestTimeout: time.Second, Log: &log,
		Profile: &ProfileCapture{Seconds: 1, ServerURL: hang.URL, ClientURL: hang.URL, Slack: 300 * time.Millisecond},
	}
	start := time.Now()
	rep, err := Run(context.Background(), cfg)
	if err != nil || len(rep.Summary.Runs) != 1 {
		t.Fatalf("the load failed with a hanging profile: %v, %d runs", err, len(rep.Summary.Runs))
	}
	if took := time.Since(start); took > 7*time.Second {
		t.Errorf("took %v: the hanging profile was waited for past its bound", took)
	}
	for role, p := range profilesByRole(rep.Profiles) {
		if p.Error == "" || p.Pprof != nil || strings.Contains(p.Error, "no whole second") {
			t.Errorf("%s: %+v, want a reported failure of the hanging capture", role, p)
		}
	}
}

func TestTheProfiledPhaseIsTheFirstWholeDaprPhase(t *testing.T) {
	t.Parallel()
	targets := []Target{{Variant: result.Baseline, URL: "b"}, {Variant: result.Dapr, URL: "d"}}
	for _, c := range []struct {
		reps int
		d    time.Duration
		want loadsettings.Phase
	}{
		{2, time.Minute, loadsettings.Phase{Path: 1, Rep: 0}},          // B D | D B
		{3, time.Minute, loadsettings.Phase{Path: 1, Rep: 1}},          // B½ D½ D½ B½ | B D ...: the first whole one
		{1, time.Minute, loadsettings.Phase{Path: 1, Rep: 0, Half: 1}}, // only halves: the first
		{1, 30 * time.Second, loadsettings.Phase{Path: 1, Rep: 0}},     // too short to split
	} {
		order := loadsettings.PhaseOrder(len(targets), c.reps, c.d)
		i, ok := profilePhase(order, targets)
		if !ok || order[i] != c.want {
			t.Errorf("%d reps of %v: phase %v (%v), want %v", c.reps, c.d, i, ok, c.want)
		}
	}
	if _, ok := profilePhase(loadsettings.PhaseOrder(1, 1, time.Minute), []Target{{Variant: result.Direct, URL: "x"}}); ok {
		t.Error("a direct-only run has a Dapr phase")
	}
}

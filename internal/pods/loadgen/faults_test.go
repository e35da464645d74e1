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
	"strings"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/perfapp"
)

// A fault is ordered from the real target app in each Dapr phase, never the baseline's, at
// its time on the phase clock: the report's timelines show its failures in the seconds it
// held and nowhere else, each applied fault's recorded span covers them, and the app's count
// of what it saw is every request the phase sent, fortio's connection checks included (the
// stand-in sidecar does not retry).
func TestAFaultFailsTheDaprPhasesInItsSecondsOnly(t *testing.T) {
	t.Parallel()
	app, appURL := startPerfapp(t, perfapp.Config{ResponseBytes: 16, FaultToken: testToken})
	sidecar := newSidecarStandIn(appURL, true)
	defer sidecar.Close()
	faults := loadsettings.EncodeFaults([]loadsettings.Fault{{Kind: loadsettings.FaultTargetErrors, At: 1500 * time.Millisecond, For: time.Second, ErrorPercent: 50}})
	r := runCLI(t, "--qps=100", "--connections=2", "--duration=4s", "--warmup=0s", "--repetitions=2",
		"--baseline-url="+appURL+"/test", "--dapr-url="+sidecar.URL+"/v1.0/invoke/target/method/test",
		"--sidecar-url="+sidecar.URL, "--sidecar-wait=5s", "--faults="+faults, "--fault-url="+appURL, "--fault-token="+testToken)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	if len(r.report.Faults) != 2 {
		t.Fatalf("%d faults applied, want one in each of the 2 Dapr phases: %+v", len(r.report.Faults), r.report.Faults)
	}
	spans := map[int]result.AppliedFault{}
	for _, f := range r.report.Faults {
		if f.Variant != result.Dapr || f.Error != "" {
			t.Errorf("applied fault %+v: want the Dapr path's, applied", f)
		}
		spans[f.Rep] = f
	}
	if len(r.report.Timelines) != 2 {
		t.Fatalf("%d timelines, want each Dapr phase's (the baseline's are judged by nothing)", len(r.report.Timelines))
	}
	for rep := range 2 {
		if b := runOf(t, r.summary, result.Baseline, rep); b.Errors != 0 {
			t.Errorf("baseline repetition %d: %d errors, want none: the fault is the Dapr phases'", rep, b.Errors)
		}
	}
	for _, tl := range r.report.Timelines {
		var failed, slots int64
		for k, s := range tl.Seconds {
			if s.Latency != "" {
				h, err := result.DecodeHistogram(s.Latency)
				if err != nil {
					t.Fatal(err)
				}
				slots += h.TotalCount()
			}
			slots += s.Failed
			if s.Failed == 0 {
				continue
			}
			failed += s.Failed
			at := tl.Start().Add(time.Duration(k) * time.Second)
			f, ok := spans[tl.Rep]
			start, end := f.Span()
			if tl.Variant != result.Dapr || !ok || !at.Add(time.Second).After(start) || !at.Before(end) {
				t.Errorf("%s repetition %d: %d failures in second %d, which no fault touched", tl.Variant, tl.Rep, s.Failed, k)
			}
		}
		// Ordered At after the schedule's start, the clock the timeline is cut on.
		if start, _ := spans[tl.Rep].Span(); start.Sub(tl.Start()) < 1500*time.Millisecond || start.Sub(tl.Start()) > 1600*time.Millisecond {
			t.Errorf("dapr repetition %d: the fault was ordered %v after the schedule's start, want 1.5s", tl.Rep, start.Sub(tl.Start()))
		}
		// 50% of the 100 requests of the fault's second; its edges are the app's clock.
		if failed < 40 || failed > 60 {
			t.Errorf("dapr repetition %d: %d failures, want about 50", tl.Rep, failed)
		}
		run := runOf(t, r.summary, result.Dapr, tl.Rep)
		if slots != run.Scheduled || failed != run.Errors {
			t.Errorf("dapr repetition %d: the timeline holds %d slots and %d failures, the run %d and %d", tl.Rep, slots, failed, run.Scheduled, run.Errors)
		}
		if f := spans[tl.Rep]; f.AppSeen != f.Sent || f.Sent != run.Requests+2 {
			t.Errorf("dapr repetition %d: the app saw %d invocations over the phase, the load tester sent %d; want the run's %d and one check per connection",
				tl.Rep, f.AppSeen, f.Sent, run.Requests)
		}
	}
	if got := app.Stats.Faulted.Load(); got < 180 || got > 220 {
		t.Errorf("the app met %d invocations under faults, want about 2×100", got)
	}
}

// A load tester told to apply faults without the app's address or the run's token refuses
// to start.
func TestFaultsNeedTheAppAndTheToken(t *testing.T) {
	t.Parallel()
	faults := loadsettings.EncodeFaults([]loadsettings.Fault{{Kind: loadsettings.FaultTargetDelay, At: time.Second, For: time.Second, Delay: time.Millisecond}})
	r := runCLI(t, "--qps=10", "--duration=2s", "--dapr-url=http://127.0.0.1:1/test", "--faults="+faults)
	if r.code == 0 || !strings.Contains(r.summary.Error, "--fault-url") || !strings.Contains(r.summary.Error, "--fault-token") {
		t.Errorf("exit %d, error %q: want both settings named", r.code, r.summary.Error)
	}
	ok := "--faults=" + faults
	// Three repetitions of two paths split the first in two halves; a duration past the
	// fault's end leaves it no phase.
	for _, c := range []struct{ name, want string }{{"--repetitions=3", "not split in two"}, {"--duration=1500ms", "after the 1.5s phase"}} {
		r = runCLI(t, "--qps=10", "--duration=2s", "--repetitions=2", "--dapr-url=http://127.0.0.1:1/test", "--baseline-url=http://127.0.0.1:1/test",
			"--fault-url=http://127.0.0.1:1", "--fault-token=x", ok, c.name)
		if r.code == 0 || !strings.Contains(r.summary.Error, c.want) {
			t.Errorf("%s: exit %d, error %q: want %q", c.name, r.code, r.summary.Error, c.want)
		}
	}
	r = runCLI(t, "--qps=10", "--duration=2s", "--dapr-url=http://127.0.0.1:1/test", `--faults=[{"kind":"NodeKill","for":1}]`)
	if r.code == 0 || !strings.Contains(r.summary.Error, `kind "NodeKill"`) {
		t.Errorf("exit %d, error %q: want the unknown kind named", r.code, r.summary.Error)
	}
	kill := loadsettings.EncodeFaults([]loadsettings.Fault{{Kind: loadsettings.FaultPodKill, Role: loadsettings.RoleTarget, At: time.Second, For: time.Second}})
	r = runCLI(t, "--qps=10", "--duration=2s", "--repetitions=2", "--dapr-url=http://127.0.0.1:1/test", "--fault-url=http://127.0.0.1:1", "--fault-token=x", "--faults="+kill)
	if r.code == 0 || !strings.Contains(r.summary.Error, "--kill-url") || !strings.Contains(r.summary.Error, "--run-name") {
		t.Errorf("exit %d, error %q: want the operator's address and the run named", r.code, r.summary.Error)
	}
	// A kill of the target moves the load to its replacement: it needs the app's address; a
	// kill of the store does not.
	killer := []string{"--qps=10", "--duration=2s", "--repetitions=2", "--dapr-url=http://127.0.0.1:1/test", "--fault-token=x",
		"--kill-url=http://127.0.0.1:1", "--run-namespace=perf", "--run-name=killed"}
	r = runCLI(t, append(killer, "--faults="+kill)...)
	if r.code == 0 || !strings.Contains(r.summary.Error, "--fault-url") {
		t.Errorf("a target kill without the app's address: exit %d, error %q", r.code, r.summary.Error)
	}
	// Each sidecar variant's faults go through its own target: one without its address is named.
	r = runCLI(t, append(killer, "--faults="+kill, "--fault-url=http://127.0.0.1:1", "--variant-urls=http://127.0.0.1:1/v1,http://127.0.0.1:1/v2",
		"--variant-fault-urls=http://127.0.0.1:2")...)
	if r.code == 0 || !strings.Contains(r.summary.Error, "names no target app for variant d2") || strings.Contains(r.summary.Error, "variant d1") {
		t.Errorf("variants d1 and d2, d1's app alone given: exit %d, error %q: want d2's named, not d1's", r.code, r.summary.Error)
	}
	r = runCLI(t, append(killer, "--faults="+kill, "--fault-url=http://127.0.0.1:1", "--variant-urls=http://127.0.0.1:1/v1",
		"--variant-fault-urls=http://127.0.0.1:2,http://127.0.0.1:3")...)
	if r.code == 0 || !strings.Contains(r.summary.Error, "names 2 target apps for 1 further variants") {
		t.Errorf("two target apps for one further variant: exit %d, error %q: want the count named", r.code, r.summary.Error)
	}
	store := loadsettings.EncodeFaults([]loadsettings.Fault{{Kind: loadsettings.FaultPodKill, Role: loadsettings.RoleStore, At: time.Second, For: time.Second}})
	r = runCLI(t, append(killer, "--faults="+store, "--target-wait=100ms")...)
	if strings.Contains(r.summary.Error, "--fault-url") {
		t.Errorf("a store kill asked for the app's address: %q", r.summary.Error)
	}
}

// runOf is the summary's run of variant v, repetition rep.
func runOf(t *testing.T, s *result.Summary, v result.Variant, rep int) result.Run {
	t.Helper()
	for _, r := range s.Runs {
		if r.Variant == v && r.Rep == rep {
			return r
		}
	}
	t.Fatalf("no run of %s repetition %d", v, rep)
	return result.Run{}
}

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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"fortio.org/fortio/fnet"
	"fortio.org/fortio/periodic"
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/fineclock"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// Run warms up, then measures every target Repetitions times, interleaved, and returns the
// report of the measured runs: their summary, each path's histograms and the daprds'
// profiles. In a group of pods (cfg.Group) this pod sends its share of the load, meets the
// others before every phase, and the leader's report is the group's. On error the report
// holds the runs finished so far.
func Run(ctx context.Context, cfg Config) (rep result.Report, err error) {
	sum := &rep.Summary
	sum.RequestedQPS = cfg.QPS
	if err := cfg.Validate(); err != nil {
		return rep, err
	}
	if !cfg.FortioPacing && !fineclock.Fine() {
		logf(cfg.Log, "no timerfd here: the pacer waits on Go's timers, up to ~1 ms late (the result document's result.testerLag shows it)")
	}
	if g := cfg.Group; g != nil {
		cfg.QPS, cfg.Connections = g.ShareQPS(cfg.QPS), g.ShareConnections(cfg.Connections)
		logf(cfg.Log, "load-tester pod %d of %d: %.2f qps over %d connections", g.Index, g.Size, cfg.QPS, cfg.Connections)
	}
	m, err := joinGroup(cfg.Group, cfg.QPS, planOf(cfg))
	if err != nil {
		return rep, err
	}
	defer m.close()
	// Every request's latency, per run, exactly: the summary's percentiles, merged latencies
	// and added-latency intervals all come from these.
	own := measured{recs: map[latency.Key]*latency.Recorded{}, deliveries: map[latency.Key]*latency.Recorded{},
		messages: map[latency.Key]result.Messages{}, activities: map[latency.Key]*hdrhistogram.Histogram{}, phases: map[string]latency.Key{},
		starts: map[latency.Key]time.Time{}, parts: map[latency.Key][]phasePart{}}
	listen := cfg.SubscriberListen
	if listen == "" {
		listen = subscriberListen()
	}
	if cfg.app, err = startAppServer(ctx, cfg.Targets, listen, cfg.TargetWait, cfg.Duration, cfg.Log); err != nil {
		return rep, err
	}
	defer cfg.app.stop()
	prof := newProfiler(cfg)
	runErr := measure(ctx, cfg, m, &own, prof)
	own.addLate(cfg.app)
	profiles := prof.finish(runErr)
	all, pods, err := m.finish(ctx, own, runErr)
	sum.Runs, sum.Pods = all.runs, pods
	sum.GapUs = schedule(cfg, cfg.QPS, cfg.Duration, time.Time{}, cfg.Connections).Gap().Microseconds()
	latency.Summarize(sum, all.recs, result.StandardPercentiles)
	if cfg.app != nil {
		sum.Delivery = latency.SummarizeDelivery(sum.Runs, own.deliveries, own.messages, own.activities, result.StandardPercentiles)
		if stray, foreign := cfg.app.book.strays(); stray+foreign > 0 {
			logf(cfg.Log, "%d deliveries (messages, completions, triggers) of no measured phase (the warm-ups', the readiness probes', or later than a phase's drain), %d of another process",
				stray, foreign)
		}
	}
	if cfg.app != nil {
		cfg.app.workflows.stop() // before the last lines: the SDK's worker logs its shutdown
	}
	if cfg.Group == nil || cfg.Group.Index == 0 {
		rep.Profiles = profiles
		rep.DaprdGauges = own.gauges
		if len(sum.Runs) > 0 {
			var herr error
			if rep.Histograms, herr = latency.HistogramsOf(sum.Runs, all.recs); herr != nil {
				err = errors.Join(err, fmt.Errorf("encoding the histograms: %w", herr))
			}
		}
		if width := result.LatencyWindowWidth(measuredSpan(cfg)); width > 0 {
			rep.LatencyWindows = latencyWindowsOf(all.recs, own.parts, width)
		}
		if cfg.Faults != nil {
			rep.Faults = withMeasuredRates(own.faults, all.runs)
			var terr error
			if rep.Timelines, terr = timelinesOf(all.recs, own.starts); terr != nil {
				err = errors.Join(err, fmt.Errorf("encoding the timelines: %w", terr))
			}
		}
	}
	return rep, err
}

// measure waits for the targets, warms up and makes the measured runs into out, meeting
// the group's other pods before each; prof (when not nil) starts its captures in its phase.
func measure(ctx context.Context, cfg Config, m member, out *measured, prof *profiler) error {
	body := cfg.Payload
	if body == nil && cfg.PayloadBytes > 0 {
		body = fnet.GenerateRandomPayload(cfg.PayloadBytes)
	}
	from, err := m.start(ctx)
	if err != nil {
		return err
	}
	for _, t := range cfg.Targets {
		if err := waitForTarget(ctx, t, body, cfg.TargetWait, cfg.Connections, cfg.app); err != nil {
			return err
		}
	}
	if from > 0 {
		// The replacement of a pod the run's fault killed joins the others mid-run, cold, as
		// a restarted caller does: a warm-up now would add its load to their phase.
		logf(cfg.Log, "this pod replaces one killed by the run's fault: it takes over at phase %d", from)
	} else if cfg.Warmup > 0 {
		per := cfg.Warmup / time.Duration(len(cfg.Targets))
		for _, t := range cfg.Targets {
			logf(cfg.Log, "warm-up: %s %s at %.1f qps for %v", t.Variant, t.URL, cfg.QPS, per)
			if _, err := fortioRun(ctx, cfg, t, body, cfg.QPS, per, "warmup", nil); err != nil {
				return fmt.Errorf("warm-up of %s path: %w", t.Variant, err)
			}
		}
	}
	halves := map[latency.Key]int{} // a split repetition's first half: its index in out.runs
	meter := newDaprdMeter(cfg)
	stopGauges := newGaugeSampler(cfg).start(ctx)
	defer func() { out.gauges = stopGauges() }()
	faults := cfg.Faults
	if cfg.Group != nil && cfg.Group.Index != 0 {
		faults = nil // the leader orders them: the target app is one
	}
	for phase, ph := range loadsettings.PhaseOrder(len(cfg.Targets), cfg.Repetitions, cfg.Duration) {
		if phase < from {
			continue
		}
		t, rep := cfg.Targets[ph.Path], ph.Rep
		if err := m.meet(ctx, phase); err != nil {
			return err
		}
		d := time.Duration(float64(cfg.Duration) * ph.Fraction())
		label := fmt.Sprintf("%s-%d", t.Variant, rep)
		if ph.Half > 0 {
			label += fmt.Sprintf("-half%d", ph.Half)
		}
		logf(cfg.Log, "measure: repetition %d/%d, %s %s at %v qps for %v", rep+1, cfg.Repetitions, t.Variant, t.URL, cfg.QPS, d)
		k := latency.Key{Variant: t.Variant, Rep: rep}
		pf := faults.forPhase(ctx, k) // the app's count, before the profile and the CPU readings
		prof.startAt(ctx, phase, d)
		rec := newRecorder(ctx, cfg, d)
		cpuBefore := meter.read(ctx)
		if cfg.app != nil {
			cfg.app.book.begin(label)
		}
		phaseCtx, endPhase := context.WithCancel(ctx)
		pf.arm(phaseCtx, rec, meter, cpuBefore)
		res, err := fortioRun(ctx, cfg, t, body, cfg.QPS, d, label, rec)
		endPhase() // a fault not yet ordered is not ordered into the next phase
		if err != nil {
			rec.Close()
			return fmt.Errorf("%s path, repetition %d: %w", t.Variant, rep+1, err)
		}
		sched := scheduleOf(rec, cfg, d, res)
		recorded := rec.Finish(sched, res.StartTime.Add(res.ActualDuration))
		run := toRun(t.Variant, rep, res)
		delivered, messages, spans := drainPhase(ctx, cfg, label, rec.Schedule().Start)
		// After the drain: delivering, completing and triggering the phase's last messages,
		// instances and jobs is its work too (the wall time, and the idle floor on it, with it).
		run.DaprdCPU = meter.since(ctx, cpuBefore)
		// fortio checks each connection with one request before the load: the app saw those.
		var phaseMessages *result.Messages // a PubSub phase's, counted at its drain
		if delivered != nil {
			phaseMessages = &messages
		}
		out.faults = append(out.faults, pf.finish(ctx, run.Requests+int64(res.NumThreads), phaseMessages)...)
		if pf != nil { // only a faulted phase's seconds are reported: none else is judged
			out.starts[k] = sched.Start
		}
		out.parts[k] = append(out.parts[k], phasePart{start: sched.Start, blocks: len(recorded.Blocks), failed: len(recorded.FailedBlocks)})
		// Successes and failures as the recording split them (fortio's own test of a
		// code), and every slot of the schedule.
		run.Errors, run.Scheduled = recorded.Tally.Failed, recorded.Tally.Scheduled
		if n := recorded.Tally.Unsent; n > 0 {
			logf(cfg.Log, "%s path, repetition %d: %d of %d scheduled requests never sent by the end (a stalled path); "+
				"recorded at the least they waited", t.Variant, rep+1, n, recorded.Tally.Scheduled)
		}
		if delivered != nil {
			out.phases[label] = k
			out.messages[k] = out.messages[k].Plus(messages)
			if len(spans) > 0 {
				if out.activities[k] == nil {
					out.activities[k] = result.NewHistogram()
				}
				latency.RecordSpans(out.activities[k], spans)
			}
			if first := out.deliveries[k]; first != nil && ph.Half == 2 {
				first.Append(delivered)
			} else {
				out.deliveries[k] = delivered
			}
		}
		if i, ok := halves[k]; ok && ph.Half == 2 {
			out.runs[i] = joinHalves(out.runs[i], run, d)
			out.recs[k].Append(recorded)
			if err := m.ended(ctx, out.runs[i], out.recs[k]); err != nil {
				return err
			}
			continue
		}
		if ph.Half == 1 {
			halves[k] = len(out.runs)
		}
		out.runs = append(out.runs, run)
		out.recs[k] = recorded
		if ph.Half != 1 {
			if err := m.ended(ctx, run, recorded); err != nil {
				return err
			}
		}
	}
	return nil
}

// DeliveryDrain bounds the wait, after a phase's last publish, for its messages still on
// their way; one not delivered by then is counted lost. A bulk subscription's batch wait
// (maxAwaitDurationMs) comes on top: a batch may hold the phase's last messages that long.
const DeliveryDrain = 10 * time.Second

// drainPhase waits for a PubSub, Workflow or Scheduler phase's messages still in flight and
// closes the phase: its delivery latency, message counts and spans (nil for another
// scenario's phase).
func drainPhase(ctx context.Context, cfg Config, label string, start time.Time) (*latency.Recorded, result.Messages, []time.Duration) {
	if cfg.app == nil {
		return nil, result.Messages{}, nil
	}
	cfg.app.book.await(ctx, label, cfg.app.drain)
	rec, n, spans := cfg.app.book.close(label, start)
	if cfg.app.workflows != nil {
		if n.Lost > 0 || n.Failed > 0 {
			logf(cfg.Log, "%s: of %d workflow instances started, %d failed and %d had not ended within %v of the phase's end",
				label, n.Published, n.Failed, n.Lost, cfg.app.drain)
		}
		return rec, n, spans
	}
	if n.Lost > 0 || n.Duplicated > 0 {
		logf(cfg.Log, "%s: %d of %d sent (published messages, registered jobs or reminders) not received back within %v of the phase's end, %d received more than once",
			label, n.Lost, n.Published, cfg.app.drain, n.Duplicated)
	}
	return rec, n, spans
}

// joinHalves is one repetition measured in two halves (see loadsettings.PhaseOrder) of
// half seconds each as one run: counts add up, and the rate is over the time a whole
// repetition would have taken — both halves' schedules and the second's tail after its end
// time (fortio waits for its last requests), as a whole repetition's rate carries one tail,
// not two. The second half's start is kept so the operator can tell the two phases apart.
func joinHalves(first, second result.Run, half time.Duration) result.Run {
	out := first
	out.Requests += second.Requests
	out.Errors += second.Errors
	out.Scheduled += second.Scheduled
	out.Seconds = half.Seconds() + second.Seconds
	if out.Seconds > 0 {
		out.ActualQPS = math.Round(float64(out.Requests)/out.Seconds*100) / 100
	}
	out.MaxUs = max(first.MaxUs, second.MaxUs)
	out.SecondHalfUnix = second.StartUnix
	out.DaprdCPU = first.DaprdCPU.JoinHalves(second.DaprdCPU)
	for code, n := range second.Codes {
		out.Codes[code] += n
	}
	return out // percentiles and average: latency.Summarize sets them from the joined recording
}

// planOf is every phase the run measures: each target's variant in each repetition.
func planOf(cfg Config) map[latency.Key]bool {
	plan := map[latency.Key]bool{}
	for rep := range cfg.Repetitions {
		for _, t := range cfg.Targets {
			plan[latency.Key{Variant: t.Variant, Rep: rep}] = true
		}
	}
	return plan
}

// newRecorder records one measured run of duration d; a fixed-rate run's recorder also
// paces it (latency.Pacer), unless cfg.FortioPacing asks for fortio's own sleeps.
func newRecorder(ctx context.Context, cfg Config, d time.Duration) *latency.Recorder {
	if cfg.QPS <= 0 || cfg.FortioPacing {
		return latency.NewRecorder(cfg.Connections)
	}
	threads := latency.FortioThreads(cfg.QPS, d, cfg.Connections)
	return latency.NewPacedRecorder(schedule(cfg, cfg.QPS, d, time.Time{}, threads), ctx.Done())
}

// scheduleOf is the schedule a run's requests were due by: the pacer's, or fortio's own
// (from its start) when the recorder did not pace or no request ever reached the pacer.
func scheduleOf(rec *latency.Recorder, cfg Config, d time.Duration, res outcome) latency.Schedule {
	s := rec.Schedule()
	if !s.Start.IsZero() && s.Threads == res.NumThreads {
		return s
	}
	if !s.Start.IsZero() {
		// latency.FortioThreads no longer mirrors fortio: say so rather than time the
		// requests from slots they were never held to.
		logf(cfg.Log, "the pacer planned %d connections, fortio ran %d: latency timed from fortio's own schedule", s.Threads, res.NumThreads)
	}
	return schedule(cfg, cfg.QPS, d, res.StartTime, res.NumThreads)
}

// schedule is the pacing fortio gave a run that started at start with threads threads.
func schedule(cfg Config, qps float64, d time.Duration, start time.Time, threads int) latency.Schedule {
	return latency.Schedule{Start: start, QPS: qps, Duration: d, Threads: threads, Uniform: cfg.Uniform}
}

// outcome is one fortio run's result, whatever the protocol: fortio's rate, duration and
// histograms, and the return codes as HTTP statuses.
type outcome struct {
	periodic.RunnerResults
	RetCodes map[int]int64
}

// fortioRun makes one fortio run, recording every request's latency into rec when it is
// not nil, and writes fortio's full JSON result to cfg.FortioJSON.
func fortioRun(ctx context.Context, cfg Config, t Target, body []byte, qps float64, d time.Duration, label string,
	rec *latency.Recorder) (outcome, error) {
	ep, err := t.endpoint()
	if err != nil {
		return outcome{}, err
	}
	opts := periodic.RunnerOptions{
		RunType:     "daprbench " + label,
		QPS:         qps,
		Duration:    d,
		NumThreads:  cfg.Connections,
		Percentiles: result.StandardPercentiles,
		Resolution:  cfg.Resolution,
		Out:         orDiscard(cfg.Log),
		Labels:      label,
		Stop:        periodic.NewAborter(),
		Uniform:     cfg.Uniform,
		// No jitter: a jittered send has no known slot, and latency is timed from the slot.
	}
	if rec != nil {
		opts.AccessLogger = rec
	}
	// Abort fortio's run when the context ends (spec timeout, SIGTERM).
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			opts.Stop.Abort(false)
		case <-done:
		}
	}()
	out, full, err := ep.family().run(&opts, path{target: t, ep: ep, body: body, app: cfg.app}, cfg.RequestTimeout, label)
	if err != nil {
		return outcome{}, err
	}
	if cfg.FortioJSON != nil {
		if b, err := json.Marshal(full); err == nil {
			_, _ = cfg.FortioJSON.Write(append(b, '\n'))
		}
	}
	return out, ctx.Err()
}

// toRun converts fortio's result: rate, counts and codes. Its latencies are fortio's
// histogram's (a 100 µs resolution); latency.Summarize replaces them with the exact ones.
func toRun(v result.Variant, rep int, res outcome) result.Run {
	h := res.DurationHistogram
	r := result.Run{
		Variant:   v,
		Rep:       rep,
		StartUnix: res.StartTime.Unix(),
		Seconds:   math.Round(res.ActualDuration.Seconds()*1000) / 1000,
		ActualQPS: math.Round(res.ActualQPS*100) / 100,
		Requests:  h.Count,
		AvgUs:     result.Micros(h.Avg),
		MaxUs:     result.Micros(h.Max),
		Codes:     map[string]int64{},
	}
	for code, n := range res.RetCodes {
		r.Codes[strconv.Itoa(code)] = n
		if code != 200 {
			r.Errors += n
		}
	}
	for _, p := range h.Percentiles {
		r.Percentiles = append(r.Percentiles, result.Percentile{P: p.Percentile, Us: result.Micros(p.Value)})
	}
	return r
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, time.Now().UTC().Format(time.RFC3339)+" "+format+"\n", args...)
	}
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

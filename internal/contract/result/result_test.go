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

package result

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// run builds a run whose percentiles are p50=base, p75=base+1ms, ... in microseconds.
func run(v Variant, rep int, baseUs int64) Run {
	r := Run{Variant: v, Rep: rep, StartUnix: 1_763_000_000 + int64(rep), Seconds: 60.001,
		ActualQPS: 999.87, Requests: 59_992, Codes: map[string]int64{"200": 59_992},
		AvgUs: baseUs + 200, MaxUs: baseUs * 20}
	for i, p := range StandardPercentiles {
		r.Percentiles = append(r.Percentiles, Percentile{P: p, Us: baseUs + int64(i)*1000})
	}
	return r
}

func worstCase() Summary {
	s := Summary{RequestedQPS: 100_000}
	for rep := range 10 {
		for _, v := range []Variant{Baseline, Dapr} {
			r := run(v, rep, 123_456)
			r.Requests, r.Errors, r.ActualQPS = 5_999_999_999, 1_999_999, 99_999.99
			r.Codes = map[string]int64{"-1": 99_999, "200": 5_999_999_999, "400": 99_999, "404": 99_999,
				"429": 99_999, "500": 99_999, "502": 99_999, "503": 99_999, "504": 99_999}
			s.Runs = append(s.Runs, r)
		}
	}
	s.Error = strings.Repeat("the target refused the connection; ", 40)
	return s
}

// A run's every figure arrives whole, however many repetitions and variants: ten
// repetitions of a baseline and four sidecar variants at the widest figures (admission
// refused such a run while the termination message carried the summary) keep every run's
// percentiles, codes and start time, and every comparison.
func TestTenRepetitionsOfFourVariantsArriveWhole(t *testing.T) {
	s := worstCase()
	s.Runs = nil
	paths := []Variant{Baseline, DaprVariant(0), DaprVariant(1), DaprVariant(2), DaprVariant(3)}
	interval, added := widestAdded(2000, 10)
	for rep := range 10 {
		for _, v := range paths {
			r := run(v, rep, 123_456)
			r.Requests, r.Errors, r.ActualQPS = 5_999_999_999, 1_999_999, 99_999.99
			r.Codes = map[string]int64{"-1": 99_999, "200": 5_999_999_999, "400": 99_999, "404": 99_999,
				"429": 99_999, "500": 99_999, "502": 99_999, "503": 99_999, "504": 99_999}
			ms := int64(12_345_678)
			r.DaprdCPU = &DaprdCPU{ServerMs: &ms, ClientMs: &ms, ClientPods: 1, WallMs: 60_001}
			s.Runs = append(s.Runs, r)
		}
	}
	spectrum := Spectrum{Percentiles: s.Runs[0].Percentiles, AvgUs: 123_456, MaxUs: 9_999_999}
	for _, v := range paths {
		s.Merged = append(s.Merged, Merged{Variant: v, Percentiles: s.Runs[0].Percentiles, AvgUs: 123_456, MaxUs: 9_999_999,
			Service: spectrum, Lag: spectrum, TesterLag: spectrum})
	}
	s.Added = &added
	for _, v := range paths[2:] {
		s.Compared = append(s.Compared, Comparison{Variant: v, Against: Baseline, Added: added}, Comparison{Variant: v, Against: Dapr, Added: added})
	}
	got, f := roundTrip(t, s)
	if len(got.Runs) != 50 {
		t.Fatalf("%d runs arrived, want all 50", len(got.Runs))
	}
	for i, r := range got.Runs {
		if len(r.Percentiles) != len(StandardPercentiles) || r.Codes["503"] != 99_999 || r.StartUnix == 0 || r.DaprdCPU == nil || r.Errors != 1_999_999 {
			t.Fatalf("run %d lost detail: %+v", i, r)
		}
	}
	if n := got.CodesOf(DaprVariant(3))["503"]; n != 10*99_999 {
		t.Errorf("d3's 503s = %d, want %d", n, 10*99_999)
	}
	if c, ok := got.Comparison(DaprVariant(3), Dapr); !ok || c.Avg != interval || len(c.Percentiles) != len(StandardPercentiles) {
		t.Errorf("comparison d3 vs d = %+v, %v", c, ok)
	}
	if got.Error != s.Error {
		t.Error("the error was shortened")
	}
	if f.Bytes > MaxReportBytes/10 {
		t.Errorf("the report takes %d bytes gzipped: a tenth of the channel's %d is the budget of a run this size", f.Bytes, MaxReportBytes)
	}
}

func TestDecodePointerRejectsBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"empty":                            "",
		"not json":                         "panic: runtime error",
		"other version":                    `{"ver":99,"runs":1}`,
		"an older load tester's summary":   `{"ver":3,"rq":1,"runs":[]}`,
		"truncated":                        `{"ver":4,"runs":1,"frame":{"lines"`,
		"a frame of no size":               `{"ver":4,"runs":1,"frame":{"lines":1,"bytes":0,"digest":"sha256:00"}}`,
		"lines that do not hold its bytes": `{"ver":4,"runs":1,"frame":{"lines":1,"bytes":99999,"digest":"sha256:00"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := DecodePointer([]byte(in)); err == nil {
				t.Errorf("DecodePointer(%q) = nil error", in)
			}
		})
	}
}

func TestMergedAndAddedArriveWhole(t *testing.T) {
	s := Summary{RequestedQPS: 1000, Digits: 3, Runs: []Run{run(Baseline, 0, 600), run(Dapr, 0, 1100)},
		Merged: []Merged{{Variant: Dapr, Percentiles: []Percentile{{99.9, 5100}, {90, 3100}}, AvgUs: 1200, MaxUs: 9000}},
		Added: &Added{Confidence: 0.95, Resamples: 2000, Avg: Interval{Us: 500, LowUs: 450, HighUs: 560},
			Percentiles: []AddedPercentile{{P: 99.9, Interval: Interval{Us: -20, LowUs: -90, HighUs: 40}}, {P: 90, Interval: Interval{Us: 510, LowUs: 480, HighUs: 530}}}}}
	got, _ := roundTrip(t, s)
	m, ok := got.MergedOf(Dapr)
	if p90, _ := m.Latency(90); !ok || p90 != 3100*time.Microsecond || m.MaxUs != 9000 {
		t.Errorf("merged dapr = %+v", m)
	}
	if _, ok := got.MergedOf(Baseline); ok {
		t.Error("a variant with no merged latency was found")
	}
	if a, ok := got.Added.At(99.9); !ok || a != (Interval{Us: -20, LowUs: -90, HighUs: 40}) {
		t.Errorf("added p99.9 = %+v, %v (selected by value, negative kept)", a, ok)
	}
	if got.Added.Avg.HighUs != 560 || got.Digits != 3 || got.Added.Confidence != 0.95 {
		t.Errorf("decoded %+v", got.Added)
	}
}

// A four-path run's attribution arrives with each path's own interval: the operator no
// longer rebuilds them from the histograms.
func TestFourPathRunArrivesWithItsAttributionAndPathEstimates(t *testing.T) {
	s := Summary{RequestedQPS: 99_999, Digits: 3}
	interval, added := widestAdded(2000, 5)
	for rep := range 5 {
		for _, v := range AttributionPaths {
			r := run(v, rep, 123_456)
			r.Requests, r.ActualQPS, r.Scheduled = 5_999_999, 99_999.99, 5_999_999
			r.Codes = map[string]int64{"200": 5_999_000, "503": 999}
			s.Runs = append(s.Runs, r)
		}
	}
	spectrum := Spectrum{Percentiles: s.Runs[0].Percentiles, AvgUs: 123_456, MaxUs: 9_999_999}
	for _, v := range AttributionPaths {
		s.Merged = append(s.Merged, Merged{Variant: v, Percentiles: s.Runs[0].Percentiles, AvgUs: 123_456, MaxUs: 9_999_999,
			Service: spectrum, Lag: spectrum, TesterLag: spectrum})
	}
	s.Added = &added
	s.Attribution = &Attribution{Client: added, Server: added, Interaction: added}
	for _, v := range AttributionPaths {
		s.Attribution.Paths = append(s.Attribution.Paths, PathEstimate{Variant: v, Estimate: added})
	}
	got, _ := roundTrip(t, s)
	if len(got.Runs) != 20 || got.Runs[19].StartUnix == 0 || len(got.Runs[19].Percentiles) != len(StandardPercentiles) {
		t.Fatalf("%d runs, last %+v: the timeline was lost", len(got.Runs), got.Runs[19])
	}
	if got.Attribution == nil || got.Attribution.Interaction.Avg != interval || len(got.Attribution.Paths) != 4 {
		t.Errorf("attribution %+v lost", got.Attribution)
	}
}

// A PubSub run of two paths over five repetitions arrives with its timeline, every path's
// delivery counts, merged delivery latency and interval, and a workflow's activity figures.
func TestDeliveryWithIntervalsFitsWithItsTimelineAndCounts(t *testing.T) {
	s := Summary{RequestedQPS: 99_999, Digits: 3}
	_, added := widestAdded(1000, 5)
	for rep := range 5 {
		for _, v := range []Variant{Baseline, Dapr} {
			r := run(v, rep, 123_456)
			r.Requests, r.ActualQPS, r.Scheduled = 5_999_999, 99_999.99, 5_999_999
			s.Runs = append(s.Runs, r)
		}
	}
	spectrum := Spectrum{Percentiles: s.Runs[0].Percentiles, AvgUs: 123_456, MaxUs: 9_999_999}
	s.Added = &added
	s.Delivery = &Delivery{Added: &added}
	for _, v := range []Variant{Baseline, Dapr} {
		s.Merged = append(s.Merged, Merged{Variant: v, Percentiles: s.Runs[0].Percentiles, AvgUs: 123_456, MaxUs: 9_999_999,
			Service: spectrum, Lag: spectrum, TesterLag: spectrum})
		s.Delivery.Paths = append(s.Delivery.Paths, DeliveryPath{Variant: v, Percentiles: s.Runs[0].Percentiles,
			AvgUs: 123_456, MaxUs: 9_999_999, Messages: Messages{Published: 5_999_999, Delivered: 5_999_999},
			Interval: &added, Activities: spectrum})
	}
	got, _ := roundTrip(t, s)
	if len(got.Runs) != 10 || got.Runs[9].StartUnix == 0 || got.Delivery == nil || len(got.Delivery.Paths) != 2 {
		t.Fatalf("%d runs, last start %d, delivery %+v: the timeline or the delivery was lost",
			len(got.Runs), got.Runs[9].StartUnix, got.Delivery)
	}
	for _, p := range got.Delivery.Paths {
		if p.Messages.Delivered != 5_999_999 || len(p.Percentiles) != len(StandardPercentiles) || p.Activities.AvgUs != 123_456 || p.Interval == nil {
			t.Errorf("%s delivery %+v lost its counts, figures or interval", p.Variant, p)
		}
	}
}

// A path is saturated by its tester only when the tester fell a whole slot behind (its
// lateness is left out of the latency, so less does not bias the figures), or by a rate
// below 99%.
func TestSaturationIsARateOrASlotBehind(t *testing.T) {
	if got := TesterLagBound(40 * time.Millisecond); got != 40*time.Millisecond {
		t.Errorf("bound %v, want the 40 ms gap", got)
	}
	if got := TesterLagBound(200 * time.Microsecond); got != time.Millisecond {
		t.Errorf("bound %v, want 1 ms at the least", got)
	}
	sum := Summary{RequestedQPS: 200, GapUs: 40_000, Runs: []Run{
		{Variant: Dapr, ActualQPS: 199.4, TesterLagP99Us: 18_200},
		{Variant: Baseline, ActualQPS: 199.9, TesterLagP99Us: 41_000},
		{Variant: Dapr, Rep: 1, ActualQPS: 197.0, TesterLagP99Us: 300},
	}}
	sat := sum.Saturated()
	if len(sat) != 2 || sat[0].Variant != Baseline || sat[0].Rep != 0 || sat[1].Variant != Dapr || sat[1].Rep != 1 {
		t.Errorf("saturated %+v, want dapr (197 qps in repetition 2) and the baseline (41 ms late, beyond its 40 ms gap)", sat)
	}
}

// roundTrip writes s as the load tester does (a frame amid other log lines, the pointer as
// its termination message) and reads it back as the operator does.
func roundTrip(t *testing.T, s Summary) (*Summary, Frame) {
	t.Helper()
	var log bytes.Buffer
	log.WriteString("fortio: warming up\n")
	p, err := WriteFrame(&log, Report{Summary: s}, s.Error)
	if err != nil {
		t.Fatal(err)
	}
	log.WriteString("loadtester: stopping the sidecar\n")
	msg, err := EncodePointer(p)
	if err != nil || len(msg) > MaxMessageBytes {
		t.Fatalf("termination message of %d bytes (limit %d): %v", len(msg), MaxMessageBytes, err)
	}
	back, err := DecodePointer(msg)
	if err != nil || back.Frame == nil || back.Runs != len(s.Runs) {
		t.Fatalf("pointer %s: %+v, %v", msg, back, err)
	}
	r, err := ReadFrame(log.Bytes(), *back.Frame)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a frame of %d lines, %d bytes", back.Frame.Lines, back.Frame.Bytes)
	return &r.Summary, *back.Frame
}

// widestAdded is an estimate at the widest figures every percentile of it holds, and the
// interval it holds.
func widestAdded(resamples, reps int) (Interval, Added) {
	interval := Interval{Us: 123_456, LowUs: 120_001, HighUs: 126_999}
	added := Added{Confidence: 0.95, Resamples: resamples, Reps: reps, Avg: interval}
	for _, p := range StandardPercentiles {
		added.Percentiles = append(added.Percentiles, AddedPercentile{P: p, Interval: interval})
	}
	return interval, added
}

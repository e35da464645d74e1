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
	"crypto/rand"
	"errors"
	"slices"
	"strings"
	"testing"
)

// frameOf writes r as the load tester does and returns the log and the pointer's frame.
func frameOf(t *testing.T, r Report) (string, Frame) {
	t.Helper()
	var log bytes.Buffer
	p, err := WriteFrame(&log, r, "")
	if err != nil || p.Frame == nil {
		t.Fatalf("WriteFrame: %+v, %v", p, err)
	}
	return log.String(), *p.Frame
}

// A report with its profiles and histograms arrives byte for byte, its chunks read in order
// even when other lines (stderr shares the log) fall between them, and the last frame of
// the pointer's digest is the one read.
func TestAFrameArrivesWholeAmidOtherLines(t *testing.T) {
	pprof := make([]byte, 200<<10) // incompressible: many chunks
	_, _ = rand.Read(pprof)
	r := Report{Summary: Summary{RequestedQPS: 1000, Runs: []Run{run(Baseline, 0, 600), run(Dapr, 0, 1100)}},
		Histograms: Histograms{Paths: []PathHistograms{{Variant: Dapr, Latency: "HISTFAAAA", Service: "HISTFAAAB"}}},
		Profiles:   []Profile{{Role: ProfileServerSidecar, StartUnix: 7, Seconds: 30, Pprof: pprof}, {Role: ProfileClientSidecar, Error: "connection refused"}}}
	second := NewHistogram()
	_ = second.RecordValue(1500)
	enc, err := EncodeHistogram(second)
	if err != nil {
		t.Fatal(err)
	}
	r.Timelines = []Timeline{{Variant: Dapr, Seconds: []Second{{Latency: enc, Failed: 3}}}}
	r.Faults = []AppliedFault{{Variant: Dapr, AppSeen: 12, Sent: 10}}
	r.LatencyWindows = []LatencyWindows{{Variant: Dapr, Width: 30, Windows: []LatencyWindow{{Successes: 9, Failed: 1, P50Us: 1, P90Us: 5, P99Us: 9, MaxUs: 9}, {Failed: 3}, {Successes: 2}}}}
	log, f := frameOf(t, r)
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	if f.Lines < 60 || len(lines) != f.Lines+2 {
		t.Fatalf("a frame of %d chunk lines in %d lines", f.Lines, len(lines))
	}
	for _, l := range lines {
		if len(l) > 8<<10 {
			t.Fatalf("a line of %d bytes: a container runtime would split it", len(l))
		}
	}
	var mixed []string
	for i, l := range lines {
		mixed = append(mixed, l)
		if i%7 == 3 {
			mixed = append(mixed, "dapr-sdk: worker stopping", "")
		}
	}
	older, _ := frameOf(t, Report{Summary: Summary{RequestedQPS: 1}})
	log = older + strings.Join(mixed, "\n") + "\nloadtester: done\n"
	got, err := ReadFrame([]byte(log), f)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Timelines) != 1 || got.Timelines[0].Seconds[0] != r.Timelines[0].Seconds[0] || len(got.Faults) != 1 || got.Faults[0] != r.Faults[0] {
		t.Errorf("a fault run's timeline %+v and faults %+v arrived as %+v and %+v", r.Timelines, r.Faults, got.Timelines, got.Faults)
	}
	if len(got.LatencyWindows) != 1 || !slices.Equal(got.LatencyWindows[0].Windows, r.LatencyWindows[0].Windows) {
		t.Errorf("a soak's latency windows %+v arrived as %+v", r.LatencyWindows, got.LatencyWindows)
	}
	if len(got.Profiles) != 2 || !bytes.Equal(got.Profiles[0].Pprof, pprof) || got.Profiles[1].Error != "connection refused" ||
		got.Histograms.Paths[0].Service != "HISTFAAAB" || len(got.Summary.Runs) != 2 || got.Summary.RequestedQPS != 1000 {
		t.Errorf("the report read back differs: %d profiles, %+v", len(got.Profiles), got.Summary)
	}
}

// kubeletTail is what the kubelet serves for a log read with TailLines and LimitBytes: the
// last lines of the log as the runtime stored it (a line longer than maxLogLineBytes in
// pieces, each counted as a line), then at most limit bytes of those, from the first on.
func kubeletTail(log string, lines, limit int64) []byte {
	var stored []string
	for _, l := range strings.SplitAfter(log, "\n") {
		for len(l) > maxLogLineBytes {
			stored, l = append(stored, l[:maxLogLineBytes]), l[maxLogLineBytes:]
		}
		if l != "" {
			stored = append(stored, l)
		}
	}
	tail := []byte(strings.Join(stored[max(0, len(stored)-int(lines)):], ""))
	return tail[:min(int64(len(tail)), limit)]
}

// The frame's TailLines and LimitBytes get it whole from the kubelet however long the
// lines before it (a fortio JSON result per measured run, pieces of 16 KiB each) and with
// the load tester's last words after it and between its chunks.
func TestTheTailReadHoldsTheFrameAmidLongLines(t *testing.T) {
	pprof := make([]byte, MaxProfileBytes) // incompressible: a frame of 160 lines
	_, _ = rand.Read(pprof)
	frame, f := frameOf(t, Report{Summary: Summary{RequestedQPS: 1000, Runs: []Run{run(Dapr, 0, 1100)}},
		Profiles: []Profile{{Role: ProfileServerSidecar, Pprof: pprof}}})
	fortio := `{"RunType":"HTTP","Labels":"` + strings.Repeat("x", 40<<10) + `"}` + "\n"
	var log strings.Builder
	for range 600 {
		log.WriteString(fortio)
	}
	chunks := strings.SplitAfter(frame, "\n")
	for i, l := range chunks {
		log.WriteString(l)
		if i%20 == 10 { // a goroutine's line on stderr, amid the frame
			log.WriteString("loadtester: " + strings.Repeat("w", maxLogLineBytes) + "\n")
		}
	}
	for range tailSlackLines - 2*len(chunks)/20 - 2 {
		log.WriteString("dapr-sdk: " + strings.Repeat("z", maxLogLineBytes-12) + "\n")
	}
	got, err := ReadFrame(kubeletTail(log.String(), f.TailLines(), f.LimitBytes()), f)
	if err != nil || !bytes.Equal(got.Profiles[0].Pprof, pprof) {
		t.Fatalf("the frame read through the kubelet's tail: %v", err)
	}
	if f.LimitBytes() > 2*MaxReportBytes {
		t.Errorf("a frame of %d bytes reads %d bytes of log", f.Bytes, f.LimitBytes())
	}
}

// Nothing the operator cannot check is kept: a frame cut short, out of order, altered or
// missing fails with what is wrong, and one over the channel's limit says its size.
func TestAFrameThatDoesNotCheckIsRefused(t *testing.T) {
	pprof := make([]byte, 20<<10)
	_, _ = rand.Read(pprof)
	log, f := frameOf(t, Report{Summary: Summary{RequestedQPS: 1000, Runs: []Run{run(Dapr, 0, 1100)}},
		Profiles: []Profile{{Role: ProfileServerSidecar, Pprof: pprof}}})
	lines := strings.Split(log, "\n")
	drop := func(i int) string {
		return strings.Join(append(append([]string{}, lines[:i]...), lines[i+1:]...), "\n")
	}
	swapped := append([]string{}, lines...)
	swapped[2], swapped[3] = swapped[3], swapped[2]
	altered := strings.Replace(lines[2], "A", "B", 1)
	if altered == lines[2] {
		altered = strings.Replace(lines[2], "a", "b", 1)
	}
	for name, tc := range map[string]struct {
		log  string
		want string
	}{
		"no frame":         {"fortio: done\n", "no report"},
		"a chunk lost":     {drop(3), "chunk"},
		"chunks swapped":   {strings.Join(swapped, "\n"), "where chunk 1 belongs"},
		"the end lost":     {strings.Join(lines[:len(lines)-3], "\n"), "cut short"},
		"a chunk altered":  {strings.Replace(log, lines[2], altered, 1), "digest"},
		"another's digest": {strings.Replace(log, f.Digest, "sha256:"+strings.Repeat("0", 64), 1), "no report"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ReadFrame([]byte(tc.log), f)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadFrame = %v, want an error saying %q", err, tc.want)
			}
		})
	}
	big := f
	big.Bytes, big.Lines = MaxReportBytes+1, (MaxReportBytes+chunkBytes)/chunkBytes
	var tooLarge *FrameTooLarge
	if _, err := ReadFrame([]byte(log), big); !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), "4194305 bytes") || !strings.Contains(err.Error(), "4194304") {
		t.Errorf("an oversize frame: %v, want its size and the limit", err)
	}
}

// A report whose histograms or profiles no load tester writes is refused whole.
func TestAReportOfForeignPartsIsRefused(t *testing.T) {
	for name, r := range map[string]Report{
		"a path code that names a file":             {Histograms: Histograms{Paths: []PathHistograms{{Variant: "/../../../escaped"}}}},
		"an unknown profile role":                   {Profiles: []Profile{{Role: "../x"}}},
		"a profile twice":                           {Profiles: []Profile{{Role: ProfileServerSidecar}, {Role: ProfileServerSidecar}}},
		"an oversize profile":                       {Profiles: []Profile{{Role: ProfileClientSidecar, Pprof: make([]byte, MaxProfileBytes+1)}}},
		"a timeline second of no histogram":         {Timelines: []Timeline{{Variant: Dapr, Seconds: []Second{{Latency: "not HDR"}}}}},
		"a timeline second of negative failures":    {Timelines: []Timeline{{Variant: Dapr, Seconds: []Second{{Failed: -1}}}}},
		"a fault applied in a phase of no timeline": {Faults: []AppliedFault{{Variant: Dapr, Rep: 1}}, Timelines: []Timeline{{Variant: Dapr}}},
		"latency windows of no width":               {LatencyWindows: []LatencyWindows{{Variant: Dapr}}},
		"a latency window's p90 above its p99":      {LatencyWindows: []LatencyWindows{{Variant: Dapr, Width: 30, Windows: []LatencyWindow{{Successes: 9, P50Us: 1, P90Us: 9, P99Us: 5, MaxUs: 9}}}}},
		"a latency window's max without a success":  {LatencyWindows: []LatencyWindows{{Variant: Dapr, Width: 30, Windows: []LatencyWindow{{MaxUs: 9}}}}},
	} {
		t.Run(name, func(t *testing.T) {
			log, f := frameOf(t, r)
			if _, err := ReadFrame([]byte(log), f); err == nil {
				t.Error("read")
			}
		})
	}
}

// The pointer fits the termination message whatever the error, and says where the frame is.
func TestThePointerFitsTheTerminationMessage(t *testing.T) {
	var log bytes.Buffer
	p, err := WriteFrame(&log, Report{Summary: Summary{Runs: []Run{run(Dapr, 0, 1)}}}, strings.Repeat("the target refused the connection; ", 4000))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := EncodePointer(p)
	if err != nil || len(msg) > MaxMessageBytes {
		t.Fatalf("%d bytes, %v", len(msg), err)
	}
	back, err := DecodePointer(msg)
	if err != nil || back.Frame == nil || *back.Frame != *p.Frame || back.Runs != 1 || !strings.HasSuffix(back.Error, "…") {
		t.Errorf("pointer %+v, %v", back, err)
	}
}

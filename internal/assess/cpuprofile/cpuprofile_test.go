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

package cpuprofile

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// stack is one sample of a synthetic profile: its frames, root first, and its CPU time.
// A frame "a+inl" is a location where inl was inlined into a.
type stack struct {
	frames []string
	cpu    time.Duration
}

// synthetic builds a CPU profile as Go's runtime writes one: samples/count and
// cpu/nanoseconds, locations leaf first, inlined lines innermost first.
func synthetic(stacks ...stack) *profile.Profile {
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        int64(10 * time.Millisecond),
		DurationNanos: int64(10 * time.Second),
	}
	fns := map[string]*profile.Function{}
	fn := func(name string) *profile.Function {
		if f := fns[name]; f != nil {
			return f
		}
		f := &profile.Function{ID: uint64(len(fns) + 1), Name: name, SystemName: name}
		fns[name] = f
		p.Function = append(p.Function, f)
		return f
	}
	locs := map[string]*profile.Location{}
	for _, s := range stacks {
		sample := &profile.Sample{Value: []int64{int64(s.cpu / (10 * time.Millisecond)), int64(s.cpu)}}
		for i := len(s.frames) - 1; i >= 0; i-- {
			key := s.frames[i]
			loc := locs[key]
			if loc == nil {
				loc = &profile.Location{ID: uint64(len(locs) + 1), Address: uint64(0x1000 + len(locs))}
				names := strings.Split(key, "+") // caller first, as written
				for j := len(names) - 1; j >= 0; j-- {
					loc.Line = append(loc.Line, profile.Line{Function: fn(names[j]), Line: int64(j + 1)})
				}
				locs[key] = loc
				p.Location = append(p.Location, loc)
			}
			sample.Location = append(sample.Location, loc)
		}
		p.Sample = append(p.Sample, sample)
	}
	return p
}

// known: 100ms in all, 50 in b, 30 in a function recursing three deep, 20 in a function
// inlined into a.
func known() *profile.Profile {
	return synthetic(
		stack{[]string{"main", "a", "b"}, 50 * time.Millisecond},
		stack{[]string{"main", "rec", "rec", "rec"}, 30 * time.Millisecond},
		stack{[]string{"main", "a+inl"}, 20 * time.Millisecond},
	)
}

func gzipped(t *testing.T, p *profile.Profile) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.Write(&b); err != nil { // Write gzips, as daprd's /debug/pprof/profile does
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestTopFunctionsFlatAndCum(t *testing.T) {
	p, err := Parse(gzipped(t, known()))
	if err != nil {
		t.Fatal(err)
	}
	top := TopFunctions(p, 10)
	if top.Total != 100*time.Millisecond || top.Window != 10*time.Second {
		t.Fatalf("total %v window %v, want 100ms and 10s", top.Total, top.Window)
	}
	type row struct {
		name string
		pct  float64
	}
	rows := func(fns []Function, pct func(Function) float64) []row {
		var out []row
		for _, f := range fns {
			out = append(out, row{f.Name, pct(f)})
		}
		return out
	}
	wantFlat := []row{{"b", 50}, {"rec", 30}, {"inl", 20}} // the inlined frame is the leaf, not a
	if got := rows(top.Flat, func(f Function) float64 { return f.FlatPercent }); !equalRows(got, wantFlat) {
		t.Errorf("flat = %v, want %v", got, wantFlat)
	}
	// rec recurses three deep in its samples and counts once: 30%, not 90%.
	wantCum := []row{{"main", 100}, {"a", 70}, {"b", 50}, {"rec", 30}, {"inl", 20}}
	if got := rows(top.Cum, func(f Function) float64 { return f.CumPercent }); !equalRows(got, wantCum) {
		t.Errorf("cum = %v, want %v", got, wantCum)
	}
	if top.Cum[1].Cum != 70*time.Millisecond || top.Flat[0].Flat != 50*time.Millisecond {
		t.Errorf("CPU times: a cum %v, b flat %v; want 70ms and 50ms", top.Cum[1].Cum, top.Flat[0].Flat)
	}
	if short := TopFunctions(p, 2); len(short.Flat) != 2 || len(short.Cum) != 2 {
		t.Errorf("n=2 gave %d flat and %d cum", len(short.Flat), len(short.Cum))
	}
}

func equalRows[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFlameGraphMergesStacksAndDropsNarrowFrames(t *testing.T) {
	p := synthetic(
		stack{[]string{"main", "a", "b"}, 50 * time.Millisecond},
		stack{[]string{"main", "rec", "rec", "rec"}, 30 * time.Millisecond},
		stack{[]string{"main", "a+inl"}, 20 * time.Millisecond},
		stack{[]string{"main", "a", "tiny"}, 400 * time.Microsecond}, // under 0.5% of the total
	)
	root := FlameGraph(p)
	var dump func(f *Frame, depth int) string
	dump = func(f *Frame, depth int) string {
		s := strings.Repeat(" ", depth) + f.Name + " " + f.CPU.String() + "\n"
		for _, c := range f.Children {
			s += dump(c, depth+1)
		}
		return s
	}
	want := "all 100.4ms\n" +
		" main 100.4ms\n" +
		"  a 70.4ms\n" + // tiny's time stays in its caller's width, the frame goes
		"   b 50ms\n" +
		"   inl 20ms\n" +
		"  rec 30ms\n" +
		"   rec 30ms\n" +
		"    rec 30ms\n"
	if got := dump(root, 0); got != want {
		t.Errorf("flame graph:\n%s\nwant:\n%s", got, want)
	}
}

func TestFlameGraphDepthIsCapped(t *testing.T) {
	deep := make([]string, MaxFlameDepth+10)
	for i := range deep {
		deep[i] = "f"
	}
	f := FlameGraph(synthetic(stack{deep, time.Second}))
	depth := 0
	for ; len(f.Children) > 0; f = f.Children[0] {
		depth++
	}
	if depth != MaxFlameDepth {
		t.Errorf("depth %d, want %d", depth, MaxFlameDepth)
	}
}

func TestParseRefuses(t *testing.T) {
	var bomb bytes.Buffer
	gz := gzip.NewWriter(&bomb)
	_, _ = gz.Write(make([]byte, MaxUncompressedBytes+1))
	_ = gz.Close()
	var twice bytes.Buffer // a small outer stream around a gzipped profile: unbounded inside ParseData
	gz = gzip.NewWriter(&twice)
	_, _ = gz.Write(gzipped(t, known()))
	_ = gz.Close()
	heap := known()
	heap.SampleType = []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}, {Type: "inuse_space", Unit: "bytes"}}
	for name, data := range map[string][]byte{
		"garbage":                   []byte("not a profile"),
		"too large":                 make([]byte, result.MaxProfileBytes+1),
		"a gzip bomb":               bomb.Bytes(),
		"gzipped twice":             twice.Bytes(),
		"a heap profile, not a CPU": gzipped(t, heap),
	} {
		if _, err := Parse(data); err == nil {
			t.Errorf("%s: parsed", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if bomb.Len() > result.MaxProfileBytes {
		t.Fatalf("the bomb is %d bytes: not testing the decompressed bound", bomb.Len())
	}
}

// 15 MiB of empty samples gzip to ~15 KiB; pprof's parser builds a struct for each before
// it validates anything (~1.1 GiB). The shape scan refuses it first, in a few MiB.
func TestASampleBombIsRefusedBeforeItIsDecoded(t *testing.T) {
	raw := bytes.Repeat([]byte{byte(profileSample)<<3 | 2, 0}, 15<<20/2) // field 2, length 0
	var bomb bytes.Buffer
	gz := gzip.NewWriter(&bomb)
	_, _ = gz.Write(raw)
	_ = gz.Close()
	if bomb.Len() > result.MaxProfileBytes {
		t.Fatalf("the bomb is %d bytes gzipped: past the size bound, not testing the shape", bomb.Len())
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Parse(bomb.Bytes())
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "samples") {
		t.Fatalf("a sample bomb parsed, or was refused for another reason: %v", err)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes gzipped, refused (%v) after allocating %d MiB", bomb.Len(), err, allocated>>20)
	if allocated > 64<<20 {
		t.Errorf("refusing the bomb allocated %d MiB: it was decoded", allocated>>20)
	}
	// A profile of daprd's size still parses.
	if _, err := Parse(gzipped(t, known())); err != nil {
		t.Errorf("a known profile refused: %v", err)
	}
	// Two bytes pprof's parser skips (field 0) in front must not hide the bomb from the scan.
	var hidden bytes.Buffer
	gz = gzip.NewWriter(&hidden)
	_, _ = gz.Write(append([]byte{0, 0}, raw...))
	_ = gz.Close()
	if _, err := Parse(hidden.Bytes()); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("a bomb behind a malformed prefix: %v, want refused as malformed", err)
	}
}

// One location of many inlined lines, in every sample: few bytes, but a report would walk
// samples × lines frames. Refused by its shape.
func TestAProfileOfTooManyFramesIsRefused(t *testing.T) {
	var frames []string
	names := make([]string, 2000)
	for i := range names {
		names[i] = fmt.Sprintf("f%d", i)
	}
	frames = append(frames, strings.Join(names, "+"))
	var stacks []stack
	for range 5000 {
		stacks = append(stacks, stack{frames: frames, cpu: 10 * time.Millisecond})
	}
	if _, err := Parse(gzipped(t, synthetic(stacks...))); err == nil || !strings.Contains(err.Error(), "frames") {
		t.Errorf("a profile of 5000 samples × 2000 lines: %v, want refused for its frames", err)
	}
}

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
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// mergePods folds the pods' measurements into one: per variant and repetition the requests,
// errors, return codes and achieved rates add up and the recordings merge exactly (so every
// percentile is that of all the pods' requests); the run starts at the earliest pod's start
// and lasts as long as the longest. A run some pod has no measurements of (it was killed in
// it) is asked of the others only: its requested rate is their shares'.
func mergePods(pods []measured, share float64) measured {
	out := measured{recs: map[latency.Key]*latency.Recorded{}}
	index := map[latency.Key]int{}
	for _, p := range pods {
		for _, r := range p.runs {
			k := latency.Key{Variant: r.Variant, Rep: r.Rep}
			i, seen := index[k]
			if !seen {
				i = len(out.runs)
				index[k] = i
				first := r
				first.Codes = map[string]int64{}
				first.Requests, first.Errors, first.ActualQPS, first.Scheduled = 0, 0, 0, 0
				out.runs = append(out.runs, first)
			}
			m := &out.runs[i]
			m.Requests += r.Requests
			m.Errors += r.Errors
			m.Scheduled += r.Scheduled
			m.ActualQPS += r.ActualQPS
			m.Seconds = max(m.Seconds, r.Seconds)
			if seen {
				m.DaprdCPU = m.DaprdCPU.AddPod(r.DaprdCPU)
			}
			if r.StartUnix > 0 && r.StartUnix < m.StartUnix {
				m.StartUnix = r.StartUnix
			}
			for code, n := range r.Codes {
				m.Codes[code] += n
			}
			if rec := p.recs[k]; rec != nil {
				if out.recs[k] == nil {
					out.recs[k] = latency.NewRecorded()
				}
				out.recs[k].Merge(rec)
			}
		}
	}
	for i, r := range out.runs {
		if n := countPods(pods, keyOf(r)); n < len(pods) {
			out.runs[i].RequestedQPS = share * float64(n)
		}
	}
	return out
}

// countPods is how many pods measured the run of k.
func countPods(pods []measured, k latency.Key) int {
	n := 0
	for _, p := range pods {
		if slices.ContainsFunc(p.runs, func(r result.Run) bool { return keyOf(r) == k }) {
			n++
		}
	}
	return n
}

// podLoads is each pod's requested share and achieved rate over its measured runs, so a
// pod that lagged behind its share is visible.
func podLoads(pods []measured, share float64) []result.PodLoad {
	out := make([]result.PodLoad, len(pods))
	for i, p := range pods {
		var requests int64
		var seconds float64
		for _, r := range p.runs {
			requests += r.Requests
			seconds += r.Seconds
		}
		out[i] = result.PodLoad{Pod: i, RequestedQPS: share}
		if seconds > 0 {
			out[i].ActualQPS = math.Round(float64(requests)/seconds*100) / 100
		}
	}
	return out
}

func keyOf(r result.Run) latency.Key { return latency.Key{Variant: r.Variant, Rep: r.Rep} }

func recordingKey(k latency.Key) string { return string(k.Variant) + "/" + strconv.Itoa(k.Rep) }

// wireRecording is one run's recording on the wire: every histogram HDR V2 compressed.
type wireRecording struct {
	Latency   string   `json:"latency"`
	Service   string   `json:"service"`
	Lag       string   `json:"lag"`
	TesterLag string   `json:"testerLag"`
	Failed    string   `json:"failed"`
	Blocks    []string `json:"blocks,omitempty"`
	// FailedBlocks are the failures per second (a fault run's timeline).
	FailedBlocks []int64       `json:"failedBlocks,omitempty"`
	Tally        latency.Tally `json:"tally"`
}

func encodeRecordings(recs map[latency.Key]*latency.Recorded) (map[string]wireRecording, error) {
	out := make(map[string]wireRecording, len(recs))
	for k, r := range recs {
		w := wireRecording{Tally: r.Tally, FailedBlocks: r.FailedBlocks}
		var err error
		for _, f := range []struct {
			to *string
			h  *hdrhistogram.Histogram
		}{{&w.Latency, r.Latency}, {&w.Service, r.Service}, {&w.Lag, r.Lag}, {&w.TesterLag, r.TesterLag}, {&w.Failed, r.Failed}} {
			if *f.to, err = result.EncodeHistogram(f.h); err != nil {
				return nil, fmt.Errorf("encoding the recording of %s: %w", recordingKey(k), err)
			}
		}
		for _, b := range r.Blocks {
			enc, err := result.EncodeHistogram(b.Histogram())
			if err != nil {
				return nil, fmt.Errorf("encoding a block of %s: %w", recordingKey(k), err)
			}
			w.Blocks = append(w.Blocks, enc)
		}
		out[recordingKey(k)] = w
	}
	return out, nil
}

// decode reads a peer's measurements back into runs and recordings.
func (m podMeasurements) decode() (measured, error) {
	out := measured{runs: m.Runs, recs: map[latency.Key]*latency.Recorded{}}
	for key, w := range m.Recordings {
		v, rep, ok := strings.Cut(key, "/")
		n, err := strconv.Atoi(rep)
		if !ok || err != nil {
			return measured{}, fmt.Errorf("recording key %q: want VARIANT/REP", key)
		}
		rec := &latency.Recorded{Tally: w.Tally, FailedBlocks: w.FailedBlocks}
		for _, f := range []struct {
			to  **hdrhistogram.Histogram
			enc string
		}{{&rec.Latency, w.Latency}, {&rec.Service, w.Service}, {&rec.Lag, w.Lag}, {&rec.TesterLag, w.TesterLag}, {&rec.Failed, w.Failed}} {
			if *f.to, err = hdrhistogram.Decode([]byte(f.enc)); err != nil {
				return measured{}, fmt.Errorf("recording %s: %w", key, err)
			}
		}
		for _, enc := range w.Blocks {
			h, err := hdrhistogram.Decode([]byte(enc))
			if err != nil {
				return measured{}, fmt.Errorf("a block of recording %s: %w", key, err)
			}
			rec.Blocks = append(rec.Blocks, latency.CountsOf(h))
		}
		out.recs[latency.Key{Variant: result.Variant(v), Rep: n}] = rec
	}
	return out, nil
}

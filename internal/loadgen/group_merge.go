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
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/latency"
	"github.com/daprbench/daprbench/internal/result"
)

// mergePods folds the pods' measurements into one: per variant and repetition the requests,
// errors, return codes and achieved rates add up and the histograms merge exactly (so every
// percentile is that of all the pods' requests); the run starts at the earliest pod's start
// and lasts as long as the longest.
func mergePods(pods []measured) measured {
	out := measured{hists: map[latency.Key]*hdrhistogram.Histogram{}}
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
				first.Requests, first.Errors, first.ActualQPS = 0, 0, 0
				out.runs = append(out.runs, first)
			}
			m := &out.runs[i]
			m.Requests += r.Requests
			m.Errors += r.Errors
			m.ActualQPS += r.ActualQPS
			m.Seconds = max(m.Seconds, r.Seconds)
			if r.StartUnix > 0 && r.StartUnix < m.StartUnix {
				m.StartUnix = r.StartUnix
			}
			for code, n := range r.Codes {
				m.Codes[code] += n
			}
			if h := p.hists[k]; h != nil {
				if out.hists[k] == nil {
					out.hists[k] = latency.NewHistogram()
				}
				out.hists[k].Merge(h)
			}
		}
	}
	return out
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

func histogramKey(k latency.Key) string { return string(k.Variant) + "/" + strconv.Itoa(k.Rep) }

func encodeHistograms(hists map[latency.Key]*hdrhistogram.Histogram) (map[string]string, error) {
	out := make(map[string]string, len(hists))
	for k, h := range hists {
		b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			return nil, fmt.Errorf("encoding the histogram of %s: %w", histogramKey(k), err)
		}
		out[histogramKey(k)] = string(b)
	}
	return out, nil
}

// decode reads a peer's measurements back into runs and histograms.
func (m podMeasurements) decode() (measured, error) {
	out := measured{runs: m.Runs, hists: map[latency.Key]*hdrhistogram.Histogram{}}
	for key, b := range m.Histograms {
		v, rep, ok := strings.Cut(key, "/")
		n, err := strconv.Atoi(rep)
		if !ok || err != nil {
			return measured{}, fmt.Errorf("histogram key %q: want VARIANT/REP", key)
		}
		h, err := hdrhistogram.Decode([]byte(b))
		if err != nil {
			return measured{}, fmt.Errorf("histogram %s: %w", key, err)
		}
		out.hists[latency.Key{Variant: result.Variant(v), Rep: n}] = h
	}
	return out, nil
}

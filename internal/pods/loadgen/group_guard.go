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
	"crypto/subtle"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// The leader's coordinator listens on the pod network: anything that can reach pod 0 can
// call it. What guards the merged result: every call presents the run's token, each pod
// delivers once, bodies and histograms are bounded before anything is allocated for
// them, and measurements that cannot be (negative counts, phases the run does not have)
// are refused.

// maxMeasurementsBytes bounds a pod's delivery: its recordings, compressed, are a few
// hundred KiB at the largest spec admission allows.
const maxMeasurementsBytes = 4 << 20

// requireToken admits only calls that present the group's token.
func requireToken(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			http.Error(w, "this run's group token is required", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkMeasurements refuses what no pod of this run can have measured: a run of a phase
// outside the plan (variant × repetition), a negative count or rate, a recording of a
// phase the pod did not report, or a histogram wider than the load tester records.
func checkMeasurements(m podMeasurements, plan map[latency.Key]bool) error {
	reported := map[string]bool{}
	for _, r := range m.Runs {
		k := latency.Key{Variant: r.Variant, Rep: r.Rep}
		if !plan[k] {
			return fmt.Errorf("a run of %s, repetition %d, which this run does not measure", r.Variant, r.Rep)
		}
		if reported[recordingKey(k)] {
			return fmt.Errorf("two runs of %s, repetition %d", r.Variant, r.Rep)
		}
		reported[recordingKey(k)] = true
		if r.Requests < 0 || r.Errors < 0 || r.Errors > r.Requests || r.ActualQPS < 0 || r.Seconds < 0 || r.StartUnix < 0 {
			return fmt.Errorf("impossible figures for %s, repetition %d: %d requests, %d errors, %.1f qps, %.1f s",
				r.Variant, r.Rep, r.Requests, r.Errors, r.ActualQPS, r.Seconds)
		}
		for code, n := range r.Codes {
			if n < 0 {
				return fmt.Errorf("a negative count (%d) of return code %s", n, code)
			}
		}
	}
	for key, w := range m.Recordings {
		if !reported[key] {
			return fmt.Errorf("a recording of %s, which the pod reports no run of", key)
		}
		if t := w.Tally; t.Scheduled < 0 || t.Sent < 0 || t.Failed < 0 || t.Unsent < 0 || t.Failed > t.Sent || t.Sent+t.Unsent > t.Scheduled {
			return fmt.Errorf("recording %s: impossible tally %+v", key, t)
		}
		if slices.ContainsFunc(w.FailedBlocks, func(n int64) bool { return n < 0 || n > w.Tally.Failed }) {
			return fmt.Errorf("recording %s: a second's failed count outside [0, %d]", key, w.Tally.Failed)
		}
		for _, enc := range append([]string{w.Latency, w.Service, w.Lag, w.TesterLag, w.Failed}, w.Blocks...) {
			if err := result.CheckEncodedHistogram(enc); err != nil {
				return fmt.Errorf("recording %s: %w", key, err)
			}
		}
	}
	return nil
}

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
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

const testToken = "0123456789abcdef0123456789abcdef"

// delivery is pod 1's honest measurements of dapr, repetition 0.
func delivery(t *testing.T) podMeasurements {
	t.Helper()
	rec := latency.NewRecorded()
	_ = rec.Latency.RecordValue(1500)
	recs, err := encodeRecordings(map[latency.Key]*latency.Recorded{{Variant: result.Dapr, Rep: 0}: rec})
	if err != nil {
		t.Fatal(err)
	}
	return podMeasurements{Pod: 1, Recordings: recs,
		Runs: []result.Run{{Variant: result.Dapr, Rep: 0, Requests: 100, ActualQPS: 10, Seconds: 10, Codes: map[string]int64{"200": 100}}}}
}

func TestCoordinatorTakesOnlyWhatAPodOfTheRunCanHaveSent(t *testing.T) {
	t.Parallel()
	c := newCoordinator(2, testToken, map[latency.Key]bool{{Variant: result.Dapr, Rep: 0}: true})
	if _, err := c.join(1, "pod-1"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c.handler())
	defer srv.Close()
	post := func(token string, m podMeasurements) (int, string) {
		t.Helper()
		body, _ := json.Marshal(m)
		req, _ := http.NewRequest(http.MethodPost, srv.URL+pathResult, bytes.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var msg bytes.Buffer
		_, _ = msg.ReadFrom(resp.Body)
		return resp.StatusCode, strings.TrimSpace(msg.String())
	}
	forged := func(edit func(*podMeasurements)) podMeasurements {
		m := delivery(t)
		edit(&m)
		return m
	}
	wide := hdrhistogram.New(1, 1<<50, 5)
	wideEnc, _ := result.EncodeHistogram(wide)

	for _, tc := range []struct {
		name, token string
		m           podMeasurements
		code        int
		msg         string
	}{
		{"no token", "", delivery(t), http.StatusUnauthorized, "group token is required"},
		{"a wrong token", strings.Repeat("x", 32), delivery(t), http.StatusUnauthorized, "group token is required"},
		{"an abort without the token", "", podMeasurements{Pod: 1, Error: "x"}, http.StatusUnauthorized, "group token is required"},
		{"negative requests", testToken, forged(func(m *podMeasurements) { m.Runs[0].Requests = -5 }), http.StatusUnprocessableEntity, "impossible figures"},
		{"a negative return-code count", testToken, forged(func(m *podMeasurements) { m.Runs[0].Codes["200"] = -1 }), http.StatusUnprocessableEntity, "negative count"},
		{"an invented variant", testToken, forged(func(m *podMeasurements) { m.Runs[0].Variant = "dapr-evil" }), http.StatusUnprocessableEntity, "which this run does not measure"},
		{"a histogram wider than the load tester's", testToken, forged(func(m *podMeasurements) {
			key := recordingKey(latency.Key{Variant: result.Dapr, Rep: 0})
			w := m.Recordings[key]
			w.Latency = wideEnc
			m.Recordings[key] = w
		}), http.StatusUnprocessableEntity, "not the load tester's"},
		{"more failures in a second than the run had", testToken, forged(func(m *podMeasurements) {
			key := recordingKey(latency.Key{Variant: result.Dapr, Rep: 0})
			w := m.Recordings[key]
			w.FailedBlocks = []int64{0, 3}
			m.Recordings[key] = w
		}), http.StatusUnprocessableEntity, "failed count outside"},
	} {
		if code, msg := post(tc.token, tc.m); code != tc.code || !strings.Contains(msg, tc.msg) {
			t.Errorf("%s: %d %q; want %d with %q", tc.name, code, msg, tc.code, tc.msg)
		}
	}
	select {
	case <-c.aborted:
		t.Fatal("a refused delivery aborted the group")
	default:
	}

	if code, msg := post(testToken, delivery(t)); code != http.StatusNoContent {
		t.Fatalf("the honest delivery: %d %q", code, msg)
	}
	if code, msg := post(testToken, delivery(t)); code != http.StatusNoContent {
		t.Errorf("a retry of the same delivery: %d %q; want it taken as the first", code, msg)
	}
	if code, msg := post(testToken, forged(func(m *podMeasurements) { m.Runs[0].Requests = 1 })); code != http.StatusUnprocessableEntity || !strings.Contains(msg, "delivered its measurements already") {
		t.Errorf("a second, different delivery: %d %q; want it refused", code, msg)
	}
	got, err := c.gather(t.Context(), 0)
	if err != nil || len(got) != 1 || got[0].Runs[0].Requests != 100 {
		t.Errorf("gathered %+v, %v; want the first delivery, unchanged", got, err)
	}
}

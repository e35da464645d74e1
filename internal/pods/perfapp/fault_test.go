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

package perfapp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// order posts a fault order with token to the app at base.
func order(t *testing.T, base, token string, o loadsettings.FaultOrder) int {
	t.Helper()
	b, _ := json.Marshal(o)
	req, _ := http.NewRequest(http.MethodPost, base+loadsettings.FaultPath, strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A fault ordered with the run's token fails its share of invocations, evenly, for its
// duration and no longer; without the token, or with an order no fault can be, nothing changes.
func TestAFaultFailsItsShareForItsDurationOnly(t *testing.T) {
	app := New(Config{ResponseBytes: 2, FaultToken: "run-token"})
	srv := httptest.NewServer(app.Handler())
	defer srv.Close()
	codes := func(n int) (failed int) {
		for range n {
			if code, _ := daprdCall(t, srv.URL, http.MethodPost, "/"+InvokeMethod, "x"); code == http.StatusInternalServerError {
				failed++
			} else if code != http.StatusOK {
				t.Fatalf("invocation answered %d", code)
			}
		}
		return failed
	}
	if code := order(t, srv.URL, "not-the-token", loadsettings.FaultOrder{ErrorPercent: 100, For: time.Minute}); code != http.StatusUnauthorized {
		t.Errorf("an order with another token: %d, want 401", code)
	}
	if code := order(t, srv.URL, "run-token", loadsettings.FaultOrder{For: time.Minute}); code != http.StatusBadRequest {
		t.Errorf("an order that neither fails nor delays: %d, want 400", code)
	}
	if got := codes(10); got != 0 {
		t.Fatalf("%d of 10 failed with no fault in force", got)
	}
	if code := order(t, srv.URL, "run-token", loadsettings.FaultOrder{ErrorPercent: 20, For: time.Minute}); code != http.StatusNoContent {
		t.Fatalf("the run's order: %d, want 204", code)
	}
	if got := codes(50); got != 10 {
		t.Errorf("%d of 50 failed under a 20%% fault, want 10", got)
	}
	if got := app.Stats.Faulted.Load(); got != 50 {
		t.Errorf("the app counted %d invocations under the fault, want 50", got)
	}
	// A new order replaces the one in force; a fault ends on its own after its duration.
	if code := order(t, srv.URL, "run-token", loadsettings.FaultOrder{ErrorPercent: 100, For: 50 * time.Millisecond}); code != http.StatusNoContent {
		t.Fatalf("the second order: %d, want 204", code)
	}
	time.Sleep(100 * time.Millisecond)
	if got := codes(10); got != 0 {
		t.Errorf("%d of 10 failed after the fault's end", got)
	}
}

// A delay fault holds each invocation its delay, and answers it.
func TestADelayFaultHoldsEachInvocation(t *testing.T) {
	app := New(Config{ResponseBytes: 2, FaultToken: "run-token"})
	srv := httptest.NewServer(app.Handler())
	defer srv.Close()
	if code := order(t, srv.URL, "run-token", loadsettings.FaultOrder{Delay: 30 * time.Millisecond, For: time.Minute}); code != http.StatusNoContent {
		t.Fatalf("order: %d", code)
	}
	start := time.Now()
	if code, _ := daprdCall(t, srv.URL, http.MethodPost, "/"+InvokeMethod, "x"); code != http.StatusOK {
		t.Fatalf("a delayed invocation answered %d", code)
	}
	if took := time.Since(start); took < 30*time.Millisecond {
		t.Errorf("the invocation took %v under a 30 ms delay", took)
	}
}

// An app with no fault token has no fault route.
func TestNoFaultRouteWithoutTheToken(t *testing.T) {
	srv := httptest.NewServer(New(Config{ResponseBytes: 2}).Handler())
	defer srv.Close()
	if code := order(t, srv.URL, "", loadsettings.FaultOrder{ErrorPercent: 100, For: time.Minute}); code == http.StatusNoContent {
		t.Error("an app without a fault token took a fault order")
	}
}

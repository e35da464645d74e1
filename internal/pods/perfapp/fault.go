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
	"crypto/subtle"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/pods/fineclock"
)

// activeFault is a fault the run's load tester switched on: until its end, every
// invocation counts in it; each one whose count crosses a whole share of ErrorPercent fails
// (so 20% fails the 5th, 10th, … evenly, not in a burst), and each one is held Delay.
type activeFault struct {
	order loadsettings.FaultOrder
	until time.Time
	n     atomic.Int64
}

// apply is what the fault does to one invocation: false when it answers with an error.
func (f *activeFault) apply() bool {
	n := f.n.Add(1)
	if f.order.Delay > 0 {
		fineclock.Sleep(f.order.Delay)
	}
	p := int64(f.order.ErrorPercent)
	return n*p/100 == (n-1)*p/100
}

// faultRoute switches a fault on for the bearer of the run's token: a JSON
// loadsettings.FaultOrder. The fault ends on its own after its For; a new order replaces it.
type faultRoute struct {
	app   *App
	token []byte
}

func (f faultRoute) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(got), f.token) != 1 {
		http.Error(w, "a fault is ordered with the run's token only", http.StatusUnauthorized)
		return
	}
	var o loadsettings.FaultOrder
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<10)).Decode(&o); err != nil {
		http.Error(w, "a fault order is JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	if err := o.Check(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.app.fault.Store(&activeFault{order: o, until: time.Now().Add(o.For)})
	w.WriteHeader(http.StatusNoContent)
}

// passesFault applies the fault in force, if any, to one invocation: false when it is to
// be answered with an error.
func (a *App) passesFault() bool {
	f := a.fault.Load()
	if f == nil || !time.Now().Before(f.until) {
		return true
	}
	a.Stats.Faulted.Add(1)
	return f.apply()
}

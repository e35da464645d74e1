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
	"strings"
	"testing"
)

// Only the codes the load tester writes are variants: a variant read from a log or a
// ConfigMap may be anything, and the plugin builds file names from it.
func TestVariantCodesAreOnlyTheLoadTestersOwn(t *testing.T) {
	for _, v := range []Variant{Baseline, Dapr, Direct, DaprVariant(1), DaprVariant(3), DaprVariant(99)} {
		if !v.Valid() {
			t.Errorf("%q refused", v)
		}
	}
	for _, v := range []Variant{"", "dapr", "baseline", "D", "d0", "d01", "d-1", "d+1", "d100", "d1 ", "x1", "b1",
		"/../../../escaped", "../d", "d/1", "d\x00", "d\x1b", "ｄ1", "d١"} {
		if v.Valid() {
			t.Errorf("%q accepted", v)
		}
	}
}

func TestCheckRefusesHistogramsTheLoadTesterCannotHaveWritten(t *testing.T) {
	ok := Histograms{Paths: []PathHistograms{{Variant: Baseline}, {Variant: Dapr}, {Variant: DaprVariant(1)}}}
	if err := ok.Check(); err != nil {
		t.Errorf("valid histograms: %v", err)
	}
	many := Histograms{}
	for i := range MaxPaths + 1 {
		many.Paths = append(many.Paths, PathHistograms{Variant: DaprVariant(i)})
	}
	for name, tc := range map[string]struct {
		h    Histograms
		want string
	}{
		"bad code": {Histograms{Paths: []PathHistograms{{Variant: "/../../../escaped"}}}, `"/../../../escaped" is not a variant code`},
		"twice":    {Histograms{Paths: []PathHistograms{{Variant: Dapr}, {Variant: Dapr}}}, "twice"},
		"too many": {many, "more than"},
	} {
		err := tc.h.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, tc.want)
		}
	}
}

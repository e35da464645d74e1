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

package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/daprbench/daprbench/internal/cli/doctor"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

// doctor runs as a user runs it, through a kubeconfig: on this API server (no operator, no
// Dapr, no metrics-server) it fails, each failing row with its fix, and exits 1. The checks
// themselves are tested row by row in internal/cli/doctor.
func TestDoctorSaysWhatToFixAndExitsOne(t *testing.T) {
	kubeconfig := envtestKubeconfig(t, "envtest", map[string]string{"envtest": ""})
	doctorRun := func(args ...string) (string, verdict.ExitCode) {
		var out, errOut bytes.Buffer
		code := execute(Streams{Out: &out, ErrOut: &errOut}, append([]string{"doctor", "--kubeconfig", kubeconfig, "-n", "default"}, args...), nil)
		return out.String() + errOut.String(), code
	}

	out, code := doctorRun()
	if code != verdict.ExitCouldNotRun {
		t.Errorf("exit %d, want %d:\n%s", code, verdict.ExitCouldNotRun, out)
	}
	for _, want := range []string{"CHECK", "kubernetes", "PASS", "operator", "FAIL", "fix: install the operator", "dapr", "fix: install Dapr",
		"checks failed: fix them (each row says how)", "Error: doctor: "} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor's table lacks %q:\n%s", want, out)
		}
	}

	out, code = doctorRun("-o", "json")
	var report doctor.Report
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &report); err != nil {
		t.Fatalf("-o json: %v\n%s", err, out)
	}
	if code != verdict.ExitCouldNotRun || report.Namespace != "default" || report.Failed() == 0 || len(report.Checks) < 10 {
		t.Errorf("-o json: exit %d, %+v", code, report)
	}
}

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
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// tinyHistogram is a valid encoded histogram of one 1 ms request.
func tinyHistogram(t testing.TB) string {
	t.Helper()
	h := result.NewHistogram()
	if err := h.RecordValue(1000); err != nil {
		t.Fatal(err)
	}
	enc, err := result.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// keepCraftedHistograms stores, as a user who may edit ConfigMaps can, histograms of the
// given variants for the run.
func keepCraftedHistograms(t *testing.T, runName string, variants ...result.Variant) {
	t.Helper()
	enc := tinyHistogram(t)
	h := result.Histograms{}
	for _, v := range variants {
		h.Paths = append(h.Paths, result.PathHistograms{Variant: v, Latency: enc, Service: enc})
	}
	storeHistograms(t, runName, h)
}

// Finding 5 of issue 34: a variant of /../../../escaped wrote three levels above --dir.
// Only variant codes name files; another entry is skipped, and the output says so.
func TestExportFortioWritesOnlyInsideItsFolder(t *testing.T) {
	createRun(t, "escape", nil, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	keepCraftedHistograms(t, "escape", result.Dapr, "/../../../escaped")
	root := t.TempDir()
	dir := filepath.Join(root, "a", "b", "c")
	out, err := run(t, "export", "escape", "--format", "fortio", "--dir", dir)
	if err != nil {
		t.Fatal(err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "escape-dapr.json")); err != nil {
		t.Errorf("the valid path was not written: %v\n%s", err, out)
	}
	var outside []string
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Dir(path) != dir {
			outside = append(outside, path)
		}
		return nil
	})
	if len(outside) > 0 {
		t.Errorf("written outside --dir: %v", outside)
	}
	if !strings.Contains(out, `skipped a path whose variant "/../../../escaped" is not a variant code`) {
		t.Errorf("the output does not say what was skipped:\n%s", out)
	}
}

// Finding 9 of issue 34: thousands of tiny valid histograms made report allocate
// gigabytes. More paths than a run measures are refused before any is decoded.
func TestReportAndExportRefuseMoreHistogramsThanARunMeasures(t *testing.T) {
	createRun(t, "crowded", nil, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	var variants []result.Variant
	for i := range result.MaxPaths + 1 {
		variants = append(variants, result.DaprVariant(i))
	}
	keepCraftedHistograms(t, "crowded", variants...)
	want := "more than the"
	if out, err := run(t, "export", "crowded", "--format", "fortio", "--dir", t.TempDir()); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("export: error %v, want one saying %q\n%s", err, want, out)
	}
	dir := t.TempDir()
	out, err := run(t, "report", "crowded", "--dir", dir)
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, want) {
		t.Errorf("report does not say why it drew no distribution:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "latency-distribution.svg")); err == nil {
		t.Error("report drew the distribution of histograms it should have refused")
	}
}

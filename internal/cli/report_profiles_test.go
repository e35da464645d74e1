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
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/cpuprofile"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/document"
)

// daprdLikeProfile: 60% of the CPU in syscall under the HTTP server, 40% in the
// invocation handler; its stacks run main → serve → {invoke, syscall}.
func daprdLikeProfile(t *testing.T) []byte {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000, DurationNanos: int64(5 * time.Second),
	}
	loc := map[string]*profile.Location{}
	for i, name := range []string{"main.main", "net/http.(*conn).serve", "github.com/dapr/dapr/pkg/api/http.(*api).onDirectMessage", "syscall.Syscall",
		"<script>alert(1)</script>"} {
		f := &profile.Function{ID: uint64(i + 1), Name: name}
		l := &profile.Location{ID: uint64(i + 1), Address: uint64(0x100 * (i + 1)), Line: []profile.Line{{Function: f}}}
		p.Function, p.Location, loc[name] = append(p.Function, f), append(p.Location, l), l
	}
	sample := func(cpu time.Duration, leafFirst ...string) {
		s := &profile.Sample{Value: []int64{int64(cpu / (10 * time.Millisecond)), int64(cpu)}}
		for _, n := range leafFirst {
			s.Location = append(s.Location, loc[n])
		}
		p.Sample = append(p.Sample, s)
	}
	sample(600*time.Millisecond, "syscall.Syscall", "net/http.(*conn).serve", "main.main")
	sample(390*time.Millisecond, "github.com/dapr/dapr/pkg/api/http.(*api).onDirectMessage", "net/http.(*conn).serve", "main.main")
	sample(10*time.Millisecond, "<script>alert(1)</script>", "main.main") // a crafted name, 1%: drawn, escaped
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReportOfAProfiledRunListsTopFunctionsAndDrawsFlameGraphs(t *testing.T) {
	ctx := context.Background()
	createRun(t, "profiled", nil, nil, clitest.SampleResult("1.5ms", "1.2ms", "1.8ms", "400m"), false)
	data := daprdLikeProfile(t)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "profiled-profiles", Namespace: "default"},
		BinaryData: map[string][]byte{"serverSidecar.pprof": data}}
	if err := k8s.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	r := &perfv1alpha1.PerfRun{}
	if err := k8s.Get(ctx, client.ObjectKey{Namespace: "default", Name: "profiled"}, r); err != nil {
		t.Fatal(err)
	}
	start := metav1.NewTime(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	doc, _, err := document.Read(ctx, k8s, r)
	if err != nil {
		t.Fatal(err)
	}
	profiled := perfv1alpha1.NewResultDocument(r, doc.Result, nil, &perfv1alpha1.ProfilesStatus{ConfigMap: cm.Name, Generation: r.Generation, Sidecars: []perfv1alpha1.SidecarProfile{
		{Role: perfv1alpha1.ProfileServerSidecar, Start: &start, Seconds: 5, Bytes: int64(len(data)), Key: "serverSidecar.pprof", Digest: document.Digest(data)},
		{Role: perfv1alpha1.ProfileClientSidecar, Seconds: 5, Failure: "not captured: connection refused"},
	}})
	r.Status.Result = keepGivenDocument(t, r, &profiled)
	if err := k8s.Status().Update(ctx, r); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, err := run(t, "report", "profiled", "--dir", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"daprd CPU profiles:",
		"daprd-server: the target's daprd (server), 1s of CPU over a 5s window from 2026-05-01 12:00:00 UTC",
		"top 10 by flat CPU",
		"top 10 by cumulative CPU",
		"daprd-client: no profile of the load tester's daprd (client): not captured: connection refused",
		"daprd-server.pprof",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not say %q:\n%s", want, out)
		}
	}
	// Flat: syscall 60%, the handler 39%; cum: main 100%, serve 99%.
	flat := out[strings.Index(out, "by flat CPU"):strings.Index(out, "by cumulative CPU")]
	if !strings.Contains(squeeze(flat), "600ms 60.0% 600ms 60.0% syscall.Syscall") ||
		!strings.Contains(squeeze(flat), "390ms 39.0% 390ms 39.0% github.com/dapr/dapr/pkg/api/http.(*api).onDirectMessage") {
		t.Errorf("flat table:\n%s", flat)
	}
	cum := out[strings.Index(out, "by cumulative CPU"):]
	if !strings.Contains(squeeze(cum), "0s 0.0% 1s 100.0% main.main") || !strings.Contains(squeeze(cum), "0s 0.0% 990ms 99.0% net/http.(*conn).serve") {
		t.Errorf("cumulative table:\n%s", cum)
	}
	written, err := os.ReadFile(filepath.Join(dir, "daprd-server.pprof"))
	if err != nil || !bytes.Equal(written, data) {
		t.Fatalf("daprd-server.pprof is not the profile as stored: %v", err)
	}
	if _, err := cpuprofile.Parse(written); err != nil {
		t.Errorf("go tool pprof could not read it: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "daprd-client.pprof")); !os.IsNotExist(err) {
		t.Errorf("a client profile was written though none was stored: %v", err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{`<section id="profiles">`, `id="chart-daprd-server-flame"`, "<rect", "syscall.Syscall", "&lt;script&gt;"} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(html, "<script>") {
		t.Error("a function name ran as script in report.html")
	}

	// The ConfigMap rewritten (a later generation's profile, or anyone who may write
	// ConfigMaps there): the report does not show it as this result's.
	cm.BinaryData["serverSidecar.pprof"] = daprdLikeProfile(t)[:len(data)-1]
	if err := k8s.Update(ctx, cm); err != nil {
		t.Fatal(err)
	}
	out, err = run(t, "report", "profiled", "--dir", t.TempDir())
	if err != nil || strings.Contains(out, "top 10 by flat CPU") ||
		!strings.Contains(out, "daprd-server: the stored profile of the target's daprd (server) is not the one this result names") {
		t.Errorf("a profile that is not the document's: %v\n%s", err, out)
	}
}

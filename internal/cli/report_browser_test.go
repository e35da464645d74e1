//go:build browser

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
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// make test-report-browser: report.html as a reader sees it, in headless Chromium (Debian's
// package; hack/toolchain/chromium.sh installs it and prints its path into CHROMIUM). The
// reports are those of testdata's finished run and sweep, written by `kubectl daprbench
// report` from the API server. Without a browser the test fails: the target exists to run it.

// chromiumBinary is $CHROMIUM, which must run.
func chromiumBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("CHROMIUM")
	if bin == "" {
		t.Fatal("CHROMIUM is not set: run `make test-report-browser` (hack/toolchain/chromium.sh installs Debian's chromium and prints its path)")
	}
	if _, err := exec.LookPath(bin); err != nil {
		t.Fatalf("CHROMIUM=%s: %v", bin, err)
	}
	return bin
}

// browse opens page in headless Chromium with args and returns what it printed. The browser
// resolves no host name: whatever the page shows, it holds.
func browse(t *testing.T, bin, page string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + t.TempDir(),
		"--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1200,3000"}, args...)
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+page)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// screenshot checks that Chromium paints page: the PNG decodes to the window's size, a
// good part of it is not white (text, tables), and enough of it is strongly coloured (the
// charts' lines: nothing else on the page is).
func screenshot(t *testing.T, bin, page string, minColoured int) {
	t.Helper()
	shot := filepath.Join(t.TempDir(), "report.png")
	browse(t, bin, page, "--screenshot="+shot, "--hide-scrollbars")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	b := img.Bounds()
	if b.Dx() != 1200 || b.Dy() != 3000 {
		t.Errorf("screenshot is %dx%d, want 1200x3000", b.Dx(), b.Dy())
	}
	inked, coloured := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r < 235 || g < 235 || bl < 235 {
				inked++
			}
			if max(r, g, bl)-min(r, g, bl) > 100 {
				coloured++
			}
		}
	}
	// A blank page is all white; a page of tables inks a few percent of its pixels.
	if total := b.Dx() * b.Dy(); inked < total/50 {
		t.Errorf("the screenshot is nearly blank: %d of %d pixels not white", inked, total)
	}
	if coloured < minColoured {
		t.Errorf("%d strongly coloured pixels, want at least %d: the charts were not painted", coloured, minColoured)
	}
	t.Logf("%d pixels not white, %d strongly coloured", inked, coloured)
}

// domOf is the DOM Chromium built from page, and its tables by id.
func domOf(t *testing.T, bin, page string) (string, map[string][][]string) {
	t.Helper()
	dom := string(browse(t, bin, page, "--dump-dom"))
	if !strings.Contains(dom, "</html>") {
		t.Fatalf("--dump-dom printed no document:\n%s", dom)
	}
	return dom, htmlTables(t, dom)
}

// svgCharts counts the <svg> elements Chromium put in <figure>s, and which of them drew
// lines (a <path> with data).
func svgCharts(t *testing.T, dom string) (figures []string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *html.Node, figure string)
	walk = func(n *html.Node, figure string) {
		if n.Type == html.ElementNode && n.Data == "figure" {
			figure = attr(n, "id")
		}
		if n.Type == html.ElementNode && n.Data == "svg" && figure != "" {
			paths := 0
			var count func(*html.Node)
			count = func(m *html.Node) {
				if m.Type == html.ElementNode && m.Data == "path" && attr(m, "d") != "" {
					paths++
				}
				for c := m.FirstChild; c != nil; c = c.NextSibling {
					count(c)
				}
			}
			count(n)
			if paths > 10 {
				figures = append(figures, figure)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, figure)
		}
	}
	walk(doc, "")
	return figures
}

func TestReportInABrowser(t *testing.T) {
	bin := chromiumBinary(t)

	t.Run("run", func(t *testing.T) {
		createFixtureRun(t, "browser-run")
		_, _, dir := reportOf(t, "browser-run")
		page := filepath.Join(dir, "report.html")
		dom, tables := domOf(t, bin, page)
		if got := svgCharts(t, dom); strings.Join(got, ",") != "chart-latency-distribution" {
			t.Errorf("the browser's DOM has charts %v, want the latency distribution", got)
		}
		wantRow(t, tables, "versions", "Dapr", "1.16.0")
		wantRow(t, tables, "versions", "Kubernetes", "v1.36.3")
		wantRow(t, tables, "versions", "daprbench manager", "v0.4.0 (commit 3f9c2e1)")
		wantRow(t, tables, "versions", "Sidecar image (measured)", "ghcr.io/dapr/daprd:1.16.0")
		wantRow(t, tables, "identity", "Started", "2026-11-22 03:00:04 UTC")
		wantRow(t, tables, "latency-figures", "added by Dapr", "12.1ms 95%: 11.8ms – 12.4ms")
		wantRow(t, tables, "latency-figures", "dapr", "13.7ms repetitions 13.4ms – 14.1ms")
		wantRow(t, tables, "variant-figures", "api-logging", "1.2ms 95%: 610µs – 1.8ms")
		wantRow(t, tables, "condition-table", "Succeeded", "True", "Succeeded")
		if !strings.Contains(dom, "dapr.io/enable-api-logging") {
			t.Error("the browser's DOM lacks the spec")
		}
		screenshot(t, bin, page, 1500)
	})

	t.Run("sweep", func(t *testing.T) {
		createFixtureSweep(t, "browser-sweep")
		_, _, dir := reportOf(t, "perfsweep/browser-sweep")
		page := filepath.Join(dir, "report.html")
		dom, tables := domOf(t, bin, page)
		if got := svgCharts(t, dom); strings.Join(got, ",") != "chart-latency-vs-connections,chart-added-vs-connections" {
			t.Errorf("the browser's DOM has charts %v, want latency and added latency by connections", got)
		}
		wantRow(t, tables, "identity", "Sweep", "default/browser-sweep")
		wantRow(t, tables, "point-figures", "0", "16", "2.51ms 95%: 2.38ms – 2.64ms")
		wantRow(t, tables, "point-figures", "1", "1", "1.28ms 95%: 1.2ms – 1.36ms")
		screenshot(t, bin, page, 3000)
	})
}

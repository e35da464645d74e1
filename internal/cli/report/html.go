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

package report

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	assessed "github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/assess/thresholds"
	"github.com/daprbench/daprbench/internal/cli/compare"
	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
	"github.com/daprbench/daprbench/internal/contract/roles"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/kit/version"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// report.html is one self-contained file a reader can forward: who ran what, where and
// when (the run's identity, the versions and images it found, its spec), its figures as
// tables with their intervals, and every chart that has data inline as SVG. Nothing in it
// is fetched: no script, stylesheet, font or image from elsewhere.
//
// Every string comes from the object's spec or status, which anyone who may edit the
// object wrote: html/template escapes it for where it lands, and textfmt.HTMLText drops the
// controls and bidirectional overrides first (cleanStrings walks the whole document, so a
// field added later is covered too).

// writeReport renders the charts that have data into dir (name.png and name.svg, as
// before) and writes report.html with obj's identity and figures and every chart inline.
// obj is the document.Run or sweep.Measured the report is of; nil for a schedule's history, whose
// report is its text and charts. It returns the files written, report.html last.
// sections (a run's profiles) come after the charts.
func writeReport(dir, title string, obj client.Object, text string, figures []plots.Chart, sections ...htmlSection) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var doc htmlDoc
	switch o := obj.(type) {
	case document.Run:
		doc = runDoc(o)
	case sweep.Measured:
		doc = sweepDoc(o)
	default:
		doc = htmlDoc{Title: title, TextOpen: true}
	}
	doc.Text = text
	doc.Footer = fmt.Sprintf("Written %s by kubectl-daprbench %s.", time.Now().UTC().Format(reportTime), version.Get())
	charts := doc.section(chartsID)
	var files []string
	for _, c := range figures {
		if !c.HasData() {
			charts.Notes = append(charts.Notes, fmt.Sprintf("%s: not drawn, no point has a value for it.", c.Title))
			continue
		}
		written, err := c.Render(dir)
		files = append(files, written...)
		if err != nil {
			return files, err
		}
		svg, err := os.ReadFile(filepath.Join(dir, c.Name+".svg"))
		if err != nil {
			return files, err
		}
		inline, err := inlineSVG(svg, c.Title)
		if err != nil {
			return files, fmt.Errorf("%s: %w", c.Name, err)
		}
		chart := htmlChart{Name: c.Name, Title: c.Title, SVG: inline}
		for _, f := range written {
			chart.Files = append(chart.Files, filepath.Base(f))
		}
		charts.Charts = append(charts.Charts, chart)
	}
	doc.Sections = append(doc.Sections, sections...)
	page, err := renderHTML(doc)
	if err != nil {
		return files, err
	}
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		return files, err
	}
	return append(files, path), nil
}

// reportTime is how the report writes a time: in UTC, to the second.
const reportTime = "2006-01-02 15:04:05 UTC"

// htmlDoc is what report.html shows.
type htmlDoc struct {
	Title   string
	Verdict string
	Passed  bool
	// Sections in order; the one of ID chartsID holds the charts, and a section with
	// nothing in it is left out.
	Sections  []htmlSection
	SpecTitle string
	Spec      string
	// Text is the tables as the terminal prints them; TextOpen shows them unfolded (a
	// schedule's history has nothing else).
	Text     string
	TextOpen bool
	Footer   string
}

type htmlSection struct {
	ID, Title string
	Notes     []string
	Tables    []htmlTable
	Charts    []htmlChart
}

// chartsID is the section of the charts: a run's and a sweep's report place it after their
// figures; a schedule's history gets it last.
const chartsID = "charts"

// section is the section of id, added last when the document has none.
func (d *htmlDoc) section(id string) *htmlSection {
	for i := range d.Sections {
		if d.Sections[i].ID == id {
			return &d.Sections[i]
		}
	}
	d.Sections = append(d.Sections, htmlSection{ID: id, Title: "Charts"})
	return &d.Sections[len(d.Sections)-1]
}

// htmlTable is a table of cells; a keyed one heads each row with its first cell.
type htmlTable struct {
	ID, Caption string
	Keyed       bool
	Header      []string
	Rows        [][]htmlCell
	Notes       []string
}

// htmlCell is a figure and, beneath it in smaller type, what qualifies it: its interval,
// or its range over repetitions.
type htmlCell struct {
	Text, Detail string
}

type htmlChart struct {
	Name, Title string
	SVG         template.HTML
	Files       []string
}

func (t *htmlTable) add(cells ...htmlCell) { t.Rows = append(t.Rows, cells) }

// addText adds a row of plain cells.
func (t *htmlTable) addText(cells ...string) {
	row := make([]htmlCell, len(cells))
	for i, c := range cells {
		row[i] = htmlCell{Text: c}
	}
	t.add(row...)
}

func (s *htmlSection) table(t htmlTable) {
	if len(t.Rows) > 0 {
		s.Tables = append(s.Tables, t)
	}
}

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{"join": strings.Join}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>daprbench: {{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}
.verdict{font-weight:600;padding:.4em .6em;border-radius:4px;display:inline-block}
.passed{background:#e6f4ea;color:#1e6b34}.failed{background:#fdecea;color:#a12622}
.table{overflow-x:auto}table{border-collapse:collapse;margin:.8em 0;font-size:12px}
caption{text-align:left;font-weight:600;padding:.3em 0}
th,td{border:1px solid #ddd;padding:.25em .45em;text-align:left;vertical-align:top}
thead th{background:#f3f3f3}tbody th{background:#fafafa;font-weight:600;white-space:nowrap}td:first-child{white-space:nowrap}
td small{color:#555}
.note{color:#444;font-size:13px;max-width:60em}
figure{margin:1.5em 0}figure svg{width:100%;max-width:56em;height:auto;display:block}figcaption{font-size:13px;color:#444}
pre{font-size:12px;background:#f7f7f7;padding:1em;overflow:auto}
footer{margin-top:3em;font-size:12px;color:#666}
</style></head><body>
<header><h1>daprbench: {{.Title}}</h1>
{{with .Verdict}}<p class="verdict {{if $.Passed}}passed{{else}}failed{{end}}">{{.}}</p>{{end}}
</header>
{{range .Sections}}{{if or .Notes .Tables .Charts}}<section id="{{.ID}}"><h2>{{.Title}}</h2>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{range .Tables}}{{template "table" .}}{{end}}{{range .Charts}}<figure id="chart-{{.Name}}">{{.SVG}}<figcaption>{{.Title}} (also beside this file: {{join .Files ", "}})</figcaption></figure>
{{end}}</section>
{{end}}{{end}}{{with .Spec}}<section id="spec"><h2>Spec</h2><details><summary>{{$.SpecTitle}}</summary><pre>{{.}}</pre></details></section>
{{end}}{{with .Text}}<section id="text"><h2>As the terminal prints it</h2>{{if $.TextOpen}}<pre>{{.}}</pre>{{else}}<details><summary>The tables above, as plain text</summary><pre>{{.}}</pre></details>{{end}}</section>
{{end}}<footer>{{.Footer}}</footer>
</body></html>
{{define "table"}}<div class="table"><table{{with .ID}} id="{{.}}"{{end}}>{{with .Caption}}<caption>{{.}}</caption>{{end}}
{{if .Header}}<thead><tr>{{range .Header}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
{{end}}<tbody>
{{range .Rows}}<tr>{{range $i, $c := .}}{{if and $.Keyed (eq $i 0)}}<th scope="row">{{$c.Text}}</th>{{else}}<td>{{$c.Text}}{{with $c.Detail}}<br><small>{{.}}</small>{{end}}</td>{{end}}{{end}}</tr>
{{end}}</tbody></table></div>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{end}}`))

// renderHTML writes doc as report.html, every string cleaned of controls first.
func renderHTML(doc htmlDoc) ([]byte, error) {
	cleanStrings(reflect.ValueOf(&doc).Elem())
	var b bytes.Buffer
	if err := htmlTemplate.Execute(&b, doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// cleanStrings replaces every string reachable from v with textfmt.HTMLText of it, but the charts'
// SVG, which gonum wrote (escaping each text it drew) and inlineSVG checked.
func cleanStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.Type() != reflect.TypeFor[template.HTML]() && v.CanSet() {
			v.SetString(textfmt.HTMLText(v.String()))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			cleanStrings(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			cleanStrings(v.Index(i))
		}
	}
}

var (
	svgOpen  = regexp.MustCompile(`<svg\b[^>]*>`)
	svgAttrs = regexp.MustCompile(`\b(width|height|viewBox)="([^"]*)"`)
	// svgForbidden are the elements and attributes that would make a chart run code or fetch
	// something: gonum draws none of them, so one present means the SVG is not what gonum
	// wrote. (Text is escaped: no tag can start inside it.)
	svgForbidden = regexp.MustCompile(`(?i)<(script|foreignobject|image|style|a|use)\b|<[^>]*(\son[a-z]+\s*=|href\s*=|url\()`)
)

// inlineSVG turns a chart's SVG file into an element for the HTML body: the XML prologue
// and comment go, the namespaces too (HTML puts <svg> in SVG's own), the element gets an
// accessible name, and controls in its text go as everywhere else in the page.
func inlineSVG(svg []byte, title string) (template.HTML, error) {
	s := textfmt.HTMLText(string(svg))
	open := svgOpen.FindStringIndex(s)
	if open == nil {
		return "", fmt.Errorf("no <svg> element")
	}
	if svgForbidden.MatchString(s) {
		return "", fmt.Errorf("the SVG holds a script, an event handler or a reference")
	}
	var attrs []string
	for _, m := range svgAttrs.FindAllStringSubmatch(s[open[0]:open[1]], -1) {
		attrs = append(attrs, fmt.Sprintf(`%s="%s"`, m[1], template.HTMLEscapeString(m[2])))
	}
	head := fmt.Sprintf(`<svg %s role="img" aria-label="%s">`, strings.Join(attrs, " "), template.HTMLEscapeString(textfmt.HTMLText(title)))
	return template.HTML(head + s[open[1]:]), nil // gonum's SVG, checked above
}

// The run's report.

func runDoc(run document.Run) htmlDoc {
	doc := htmlDoc{Title: fmt.Sprintf("PerfRun %s/%s", run.Namespace, run.Name), SpecTitle: "The run's spec (YAML)"}
	outcome := verdict.RunOutcome(run.PerfRun, false)
	doc.Verdict, doc.Passed = outcome.Reason, outcome.Code == verdict.ExitPassed
	st := run.Status

	id := htmlSection{ID: "run", Title: "Run"}
	facts := htmlTable{ID: "identity", Keyed: true}
	facts.addText("Run", run.Namespace+"/"+run.Name)
	facts.addText("UID", textfmt.OrDash(string(run.UID)))
	generation := fmt.Sprint(run.Generation)
	if res := st.Result; res != nil && res.Generation != run.Generation {
		generation += fmt.Sprintf(" (the result is generation %d's)", res.Generation)
	}
	facts.addText("Generation", generation)
	facts.addText("Scenario", string(run.Spec.Scenario))
	facts.addText("Phase", textfmt.OrDash(string(st.Phase)))
	facts.addText("Created", when(&run.CreationTimestamp))
	facts.addText("Started", when(st.StartTime))
	facts.addText("Finished", when(st.CompletionTime))
	if took := between(st.StartTime, st.CompletionTime); took != "" {
		facts.addText("Took", took)
	}
	if st.QueueWait != nil {
		facts.addText("Queued for", textfmt.Dur(st.QueueWait))
	}
	if s := run.Labels[perfv1alpha1.LabelSchedule]; s != "" {
		facts.addText("Schedule", s+" (scheduled "+textfmt.OrDash(run.Annotations[perfv1alpha1.AnnotationScheduledTime])+")")
	}
	if s := run.Labels[perfv1alpha1.LabelSweep]; s != "" {
		facts.addText("Sweep", s)
	}
	if st.RegressionBaseline != "" {
		facts.addText("Regression baseline", st.RegressionBaseline)
	}
	id.table(facts)
	doc.Sections = append(doc.Sections, id, environmentSection(run), thresholdsSection(run))
	doc.Sections = append(doc.Sections, resultSections(run)...)
	doc.Sections = append(doc.Sections, publishedSection(run), conditionsSection(st.Conditions))
	doc.Spec = specYAML(run.Spec)
	return doc
}

// environmentSection: the versions and images the run found and used, where it ran, and
// each node's calibration.
func environmentSection(run document.Run) htmlSection {
	s := htmlSection{ID: "environment", Title: "Environment"}
	env := run.Status.Environment
	if env == nil {
		s.Notes = append(s.Notes, "The run recorded no environment: it has not started, or it failed before it read the cluster.")
		env = &perfv1alpha1.Environment{}
	}
	t := htmlTable{ID: "versions", Caption: "Versions and images", Keyed: true}
	t.addText("Dapr", textfmt.OrDash(env.DaprVersion))
	t.addText("Kubernetes", textfmt.OrDash(env.KubernetesVersion))
	t.addText("daprbench manager", textfmt.OrDash(env.ManagerVersion))
	t.addText("Sidecar image (measured)", textfmt.OrDash(env.SidecarImage))
	if env.Store != "" {
		label := storeLabel(run.PerfRun) // no target app: its load ends at the store (State's, Configuration's) or the broker
		t.addText(strings.ToUpper(label[:1])+label[1:], env.Store)
	} else {
		t.addText("Target image", imageOrDefault(run.Spec.Target.Image))
	}
	t.addText("Load-tester image", imageOrDefault(run.Spec.LoadTester.Image))
	for _, v := range run.Spec.Variants {
		image := v.SidecarImage
		if image == "" {
			image = "the injector's"
		}
		t.addText("Variant "+v.Name+" sidecar image", image)
	}
	for _, c := range env.DaprConfigurations {
		t.addText("Dapr Configuration", c.Describe())
	}
	for _, r := range env.DaprResiliencies {
		t.addText("Dapr Resiliency", r.Describe())
	}
	if env.DaprInstalled != nil {
		t.addText("Dapr installed", yesNo(*env.DaprInstalled))
	}
	if env.MTLS != nil || run.Spec.Dapr.MTLS != "" {
		found := "-"
		if env.MTLS != nil {
			found = map[bool]string{true: "enabled", false: "disabled"}[*env.MTLS]
		}
		t.addText("mTLS", fmt.Sprintf("%s (the spec expects %s)", found, textfmt.OrDash(string(run.Spec.Dapr.MTLS))))
	}
	if sc := run.Spec.Dapr.Sidecar; sc.CPULimit != nil || sc.CPURequest != nil || sc.MemoryLimit != nil || sc.MemoryRequest != nil {
		t.addText("Sidecar resources", fmt.Sprintf("CPU request %s, limit %s; memory request %s, limit %s",
			textfmt.Qty(sc.CPURequest), textfmt.Qty(sc.CPULimit), textfmt.Qty(sc.MemoryRequest), textfmt.Qty(sc.MemoryLimit)))
	}
	s.table(t)

	nodes := htmlTable{ID: "placement", Caption: "Placement", Keyed: true}
	if run.Spec.Placement != "" {
		nodes.addText("Placement asked", string(run.Spec.Placement))
	}
	if env.TargetNode != "" {
		nodes.addText(map[bool]string{false: "Target node", true: "Store node"}[env.Store != ""], env.TargetNode)
	}
	if len(env.LoadTesterNodes) > 0 {
		nodes.addText("Load-tester nodes", strings.Join(env.LoadTesterNodes, ", "))
	} else if env.LoadTesterNode != "" {
		nodes.addText("Load-tester node", env.LoadTesterNode)
	}
	if env.SameNode != nil {
		nodes.addText("Load tester on the target's node", yesNo(*env.SameNode))
	}
	if env.BaselinePod != "" {
		nodes.addText("Baseline pod", env.BaselinePod)
	}
	s.table(nodes)

	cal := htmlTable{ID: "calibration", Caption: "Node calibration (units of daprbench's calibration workload per second)",
		Header: []string{"Node", "Single", "Parallel", "Per CPU-second", "Slow windows", "CPU limit", "Workload"}}
	for _, c := range env.Calibration {
		slow := fmt.Sprintf("%d%%", c.SlowWindowsPercent)
		if c.SlowWindowsPercent > 50 {
			slow += " (score not used)"
		}
		cal.addText(c.Node, c.Single, fmt.Sprintf("%s (%d goroutines)", c.Parallel, c.Parallelism), textfmt.OrDash(c.PerCPUSecond), slow, textfmt.Qty(c.CPULimit), textfmt.OrDash(c.Workload))
	}
	s.table(cal)
	return s
}

func imageOrDefault(image string) string {
	if image == "" {
		return "the operator's own image (default)"
	}
	return image
}

func yesNo(b bool) string { return map[bool]string{true: "yes", false: "no"}[b] }

// thresholdsSection: each gate of spec.thresholds with what was measured.
func thresholdsSection(run document.Run) htmlSection {
	s := htmlSection{ID: "thresholds", Title: "Thresholds"}
	v, ok := thresholds.EvaluateRun(&run.Spec, run.Result())
	if !ok {
		return s
	}
	t := htmlTable{ID: "threshold-checks", Header: []string{"Threshold", "Measured", "Limit", "Outcome"}}
	for _, c := range v.Checks {
		t.addText(c.Name, c.Measured, c.Limit, string(c.Outcome))
	}
	s.table(t)
	s.Notes = append(s.Notes, "Overall: "+string(v.Outcome)+". A limit inside the measurement's interval or spread is inconclusive.")
	return s
}

// resultSections: latency with its intervals and spread, the requests' accounting, the
// variants, the load-tester pods, CPU and resources, and disturbances.
func resultSections(run document.Run) []htmlSection {
	res := run.Result()
	lat := htmlSection{ID: "latency", Title: "Latency"}
	if res == nil {
		lat.Notes = append(lat.Notes, "No result yet.")
		return []htmlSection{lat, {ID: chartsID, Title: "Charts"}}
	}
	lat.Notes = append(lat.Notes, fmt.Sprintf("%d requests at %s of %d qps requested, %d errors; latencies to %d significant digits. "+
		"Latency is timed from each request's scheduled send to its completion, nothing taken off; service time from its actual send. "+
		"Beneath a figure: the lowest and highest of the repetitions, or the added latency's confidence interval.",
		res.Requests, textfmt.OrDash(res.ActualQPS), res.RequestedQPS, res.Errors, res.LatencySignificantDigits))
	t := htmlTable{ID: "latency-figures", Header: []string{"Path"}}
	for _, f := range perfv1alpha1.LatencyFigures {
		t.Header = append(t.Header, f.Name)
	}
	row := func(name string, l *perfv1alpha1.LatencySummary, detail func(f perfv1alpha1.LatencyFigure) string) {
		if l == nil {
			return
		}
		cells := []htmlCell{{Text: name}}
		for _, f := range perfv1alpha1.LatencyFigures {
			c := htmlCell{Text: textfmt.Dur(f.Of(l))}
			if detail != nil && f.Of(l) != nil {
				c.Detail = detail(f)
			}
			cells = append(cells, c)
		}
		t.add(cells...)
	}
	spread := func(r *perfv1alpha1.LatencyRange) func(perfv1alpha1.LatencyFigure) string {
		if r == nil {
			return nil
		}
		return func(f perfv1alpha1.LatencyFigure) string {
			lo, hi := f.Of(&r.Min), f.Of(&r.Max)
			if lo == nil || hi == nil {
				return ""
			}
			return "repetitions " + textfmt.Dur(lo) + " – " + textfmt.Dur(hi)
		}
	}
	var measuredSpread, baselineSpread *perfv1alpha1.LatencyRange
	if res.Spread != nil {
		measuredSpread, baselineSpread = res.Spread.Latency, res.Spread.Baseline
	}
	measured := "dapr"
	if !run.Spec.DaprEnabled() {
		measured = "direct (no Dapr)"
	}
	row(measured, res.Latency, spread(measuredSpread))
	row("dapr service time", res.ServiceTime, nil)
	row("dapr send lag", res.SendLag, nil)
	row("load tester's lag", res.TesterLag, nil)
	row("baseline (no sidecar)", res.Baseline, spread(baselineSpread))
	row("baseline service time", res.BaselineServiceTime, nil)
	row("baseline send lag", res.BaselineSendLag, nil)
	added := "added by Dapr"
	if res.AddedLimitBound {
		added += " (limit-bound)"
	}
	row(added, res.Added, latencyIntervalDetail(res.AddedInterval))
	lat.table(t)
	if len(t.Rows) == 0 {
		lat.Notes = append(lat.Notes, "The result holds no latency.")
	}
	lat.Notes = append(lat.Notes, intervalNotes("The added latency's", res.AddedInterval)...)
	if res.AddedLimitBound {
		lat.Notes = append(lat.Notes, "The added latency is that of a sidecar held at its CPU limit at the requested rate (the Dapr path could not carry it): a queue's, not Dapr's work alone.")
	}
	for _, s := range res.Saturated {
		who := "the path could not carry the rate"
		if assessed.TesterLate(s) {
			who = "the load tester fell behind its schedule"
		}
		lat.Notes = append(lat.Notes, fmt.Sprintf("Saturated: the %s path (repetition %d) achieved %s qps, the load tester's own lag p99 %s against a bound of %s: %s.",
			s.Path, s.Repetition, s.ActualQPS, textfmt.Dur(s.TesterLagP99), textfmt.Dur(s.TesterLagBound), who))
	}
	if e := assessed.ErrorMessage(res); e != "" {
		lat.Notes = append(lat.Notes, "Errors: "+e)
	}
	if res.AddedNotClaimed != "" {
		lat.Notes = append(lat.Notes, "No added latency: "+res.AddedNotClaimed+".")
	}
	paths := htmlTable{ID: "paths", Caption: "Every scheduled request, per path",
		Header: []string{"Path", "Scheduled", "Sent", "Completed", "Failed", "Never sent", "Load tester's lag p99"}}
	for _, p := range res.Paths {
		paths.addText(p.Path, fmt.Sprint(p.Scheduled), fmt.Sprint(p.Sent), fmt.Sprint(p.Completed), fmt.Sprint(p.Failed), fmt.Sprint(p.Unsent), textfmt.Dur(p.TesterLagP99))
	}
	lat.table(paths)
	return []htmlSection{lat, outcomeSection(res), {ID: chartsID, Title: "Charts"}, attributionSection(res), variantsSection(res), resourcesSection(res, run.Status.Disturbances)}
}

// variantsSection: each sidecar variant's figures and its difference from the first, with
// the difference's interval.
func variantsSection(res *perfv1alpha1.Result) htmlSection {
	s := htmlSection{ID: "variants", Title: "Sidecar variants"}
	t := htmlTable{ID: "variant-figures", Header: []string{"Variant", "QPS", "Errors", "p50", "p90", "p99", "Added p90",
		"Sidecar CPU / 1000 rps", "Difference p50", "Difference p90", "Difference p99", "Beyond noise"}}
	policies := underResiliency(res.Variants)
	if policies {
		t.Header = append(t.Header, "Resiliency")
	}
	for _, v := range res.Variants {
		l := pickOrEmpty(v.Latency)
		cpu := "-"
		if v.Resources != nil && v.Resources.SidecarPer1kQPS != nil {
			cpu = textfmt.Qty(v.Resources.SidecarPer1kQPS.CPU)
		}
		cell := func(l *perfv1alpha1.LatencySummary, in *perfv1alpha1.LatencyInterval, f perfv1alpha1.LatencyFigure) htmlCell {
			c := htmlCell{Text: textfmt.Dur(f.Of(l))}
			if d := intervalDetail(in); d != nil && f.Of(l) != nil {
				c.Detail = d(f)
			}
			return c
		}
		beyond := strings.Join(v.BeyondNoise, ", ")
		if v.Difference == nil {
			beyond = "- (the first: the others' reference)"
		} else if beyond == "" {
			beyond = "none"
		}
		row := []htmlCell{{Text: v.Name}, {Text: textfmt.OrDash(v.ActualQPS)}, {Text: fmt.Sprint(v.Errors)},
			{Text: textfmt.Dur(l.P50)}, {Text: textfmt.Dur(l.P90)}, {Text: textfmt.Dur(l.P99)},
			cell(v.Added, v.AddedInterval, perfv1alpha1.FigureP90), {Text: cpu},
			cell(v.Difference, v.DifferenceInterval, perfv1alpha1.FigureP50), cell(v.Difference, v.DifferenceInterval, perfv1alpha1.FigureP90),
			cell(v.Difference, v.DifferenceInterval, perfv1alpha1.FigureP99), {Text: beyond}}
		if policies {
			row = append(row, htmlCell{Text: resiliencyOf(v)})
		}
		t.add(row...)
	}
	s.table(t)
	if len(t.Rows) > 0 {
		s.Notes = append(s.Notes, "Difference: this variant's latency minus the first's, from the repetitions that measured both; beyond noise where its interval excludes zero.")
	}
	return s
}

// resourcesSection: load-tester pods, CPU and throttling, each sidecar's cost, resources
// per role, and what disturbed the run's pods.
func resourcesSection(res *perfv1alpha1.Result, disturbances []perfv1alpha1.Disturbance) htmlSection {
	s := htmlSection{ID: "resources", Title: "Load, CPU and resources"}
	lt := htmlTable{ID: "load-testers", Caption: "Load-tester pods (the latencies are every pod's requests together)",
		Header: []string{"Pod", "Node", "QPS share", "QPS achieved"}}
	for _, p := range res.LoadTesters {
		lt.addText(fmt.Sprint(p.Index), textfmt.OrDash(p.Node), p.RequestedQPS, p.ActualQPS)
	}
	s.table(lt)
	if res.CPU != nil {
		cpu := htmlTable{ID: "cpu", Caption: "CPU and throttling (" + res.CPU.Source + ")",
			Header: []string{"Phases", "Role", "CPU", "Throttled", "Of periods", "Stalled", "Node busy", "Seconds"}}
		for _, row := range cpuRows(res.CPU) {
			cpu.addText(row...)
		}
		s.table(cpu)
	}
	cost := htmlTable{ID: "sidecar-cost", Caption: "Sidecar CPU per request",
		Header: []string{"Role", "CPU per request", "From", "daprd's own counter, over repetitions", "The kubelet's cross-check", "Idle floor", "Marginal", "Measured at",
			"The CPU limit would carry at 80% (qps, projected)", "Node"}}
	for _, c := range res.SidecarCost {
		own, idle, marginal := "-", "-", "-"
		if d := c.Daprd; d != nil {
			own = assessed.DaprdCostWithInterval(d)
			if d.IdleCPU != nil {
				idle = d.IdleCPU.String()
			}
			if d.MarginalPerRequest != nil {
				marginal = d.MarginalPerRequest.Duration.String()
			}
		}
		kubelet := "-"
		if c.KubeletCPUPerRequest != nil {
			kubelet = c.KubeletCPUPerRequest.Duration.String()
		}
		cost.addText(c.Role, c.CPUPerRequest.Duration.String(), textfmt.OrDash(string(c.Source)), own, kubelet, idle, marginal, compare.CostTags(c),
			textfmt.OrDash(c.LimitProjectedQPS), textfmt.OrDash(c.Node))
	}
	s.table(cost)
	if len(res.FirstRepetitions) > 0 {
		first := htmlTable{ID: "first-repetition", Caption: "First repetition against the later ones (did the warm-up warm?)",
			Header: []string{"Path", "First p50", "Later p50s", "Cold"}}
		for _, f := range res.FirstRepetitions {
			first.addText(f.Path, f.P50.Duration.String(), f.LaterP50Min.Duration.String()+" – "+f.LaterP50Max.Duration.String(), map[bool]string{true: "yes", false: "no"}[f.Cold])
		}
		s.table(first)
	}
	for _, part := range []struct {
		id, caption string
		u           *perfv1alpha1.ResourceUsage
	}{{"resources-measured", "Resources during the measured runs", res.Resources}, {"resources-baseline", "Resources during the baseline runs", res.BaselineResources}} {
		if part.u == nil {
			continue
		}
		t := htmlTable{ID: part.id, Caption: part.caption, Header: []string{"Role", "CPU avg", "CPU max", "Memory avg", "Memory max", "Samples"}}
		accounting.EachRole(part.u, func(role roles.Role, ru *perfv1alpha1.RoleUsage) {
			if ru != nil {
				t.addText(string(role), textfmt.Qty(ru.CPUAvg), textfmt.Qty(ru.CPUMax), textfmt.Qty(ru.MemoryAvg), textfmt.Qty(ru.MemoryMax), fmt.Sprint(ru.Samples))
			}
		})
		for _, c := range part.u.ControlPlane {
			t.addText(c.Component, textfmt.Qty(c.Usage.CPUAvg), textfmt.Qty(c.Usage.CPUMax), textfmt.Qty(c.Usage.MemoryAvg), textfmt.Qty(c.Usage.MemoryMax), fmt.Sprint(c.Usage.Samples))
		}
		if p := part.u.SidecarPer1kQPS; p != nil {
			t.Notes = append(t.Notes, fmt.Sprintf("Server sidecar per 1000 rps: CPU %s, memory %s.", textfmt.Qty(p.CPU), textfmt.Qty(p.Memory)))
		}
		if len(t.Rows) == 0 && len(t.Notes) > 0 {
			s.Notes = append(s.Notes, t.Notes...)
		}
		s.table(t)
	}
	dt := htmlTable{ID: "disturbances", Caption: "Pods disturbed while the load ran",
		Header: []string{"Time", "What", "Role", "Pod", "Container", "Part of the load", "Detail"}}
	for _, d := range disturbances {
		dt.addText(d.Time.UTC().Format(reportTime), string(d.Kind), d.Role, d.Pod, textfmt.OrDash(d.Container), textfmt.OrDash(d.Phase), textfmt.OrDash(d.Detail))
	}
	s.table(dt)
	if len(s.Tables) == 0 && len(s.Notes) == 0 {
		s.Notes = append(s.Notes, "The result holds no resource figures.")
	}
	return s
}

// conditionsSection: every condition, as kubectl describe shows them.
func conditionsSection(conds []metav1.Condition) htmlSection {
	s := htmlSection{ID: "conditions", Title: "Conditions"}
	t := htmlTable{ID: "condition-table", Header: []string{"Type", "Status", "Reason", "Message", "Since", "Generation"}}
	for _, c := range conds {
		t.addText(c.Type, string(c.Status), c.Reason, c.Message, when(&c.LastTransitionTime), fmt.Sprint(c.ObservedGeneration))
	}
	s.table(t)
	if len(t.Rows) == 0 {
		s.Notes = append(s.Notes, "No conditions yet.")
	}
	return s
}

// The sweep's report.

func sweepDoc(sw sweep.Measured) htmlDoc {
	doc := htmlDoc{Title: fmt.Sprintf("PerfSweep %s/%s", sw.Namespace, sw.Name), SpecTitle: "The sweep's spec: the template run and its points (YAML)"}
	outcome := verdict.SweepOutcome(sw.PerfSweep)
	doc.Verdict, doc.Passed = outcome.Reason, outcome.Code == verdict.ExitPassed
	st := sw.Status
	id := htmlSection{ID: "sweep", Title: "Sweep"}
	facts := htmlTable{ID: "identity", Keyed: true}
	facts.addText("Sweep", sw.Namespace+"/"+sw.Name)
	facts.addText("UID", textfmt.OrDash(string(sw.UID)))
	facts.addText("Generation", fmt.Sprint(sw.Generation))
	facts.addText("Scenario", string(sw.Spec.Template.Spec.Scenario))
	facts.addText("Phase", textfmt.OrDash(string(st.Phase)))
	facts.addText("Created", when(&sw.CreationTimestamp))
	facts.addText("Started", when(st.StartTime))
	facts.addText("Finished", when(st.CompletionTime))
	if took := between(st.StartTime, st.CompletionTime); took != "" {
		facts.addText("Took", took)
	}
	facts.addText("Points measured", fmt.Sprintf("%d of %d", st.Measured, len(st.Points)))
	if p := sw.Spec.Points; p != nil {
		facts.addText("Swept", sweptValues(p))
	}
	if s := sw.Spec.Search; s != nil {
		facts.addText("Search", fmt.Sprintf("from %d qps up to %d, at most %d steps, to within %d%%", s.StartQPS, s.MaxQPS, s.MaxSteps, s.PrecisionPercent))
		if st.MaxSustainableQPS != nil {
			facts.addText("Highest rate meeting the objective", fmt.Sprintf("%d qps", *st.MaxSustainableQPS))
		}
		if st.FirstFailingQPS != nil {
			facts.addText("First failing rate", fmt.Sprintf("%d qps", *st.FirstFailingQPS))
		}
	}
	tpl := sw.Spec.Template.Spec
	facts.addText("Target image", imageOrDefault(tpl.Target.Image))
	facts.addText("Load-tester image", imageOrDefault(tpl.LoadTester.Image))
	id.table(facts)
	id.Notes = append(id.Notes, "Each point is a PerfRun of its own: its Dapr and Kubernetes versions, sidecar image and nodes are in its report (kubectl daprbench report RUN).")

	points := htmlSection{ID: "points", Title: "Points"}
	t := htmlTable{ID: "point-figures", Header: []string{"Step", "Connections", "QPS", "Payload", "Setting", "Run", "Phase", "Actual QPS", "Errors",
		"p50", "p90", "p99", "Baseline p90", "Added p50", "Added p90", "Added p99", "Sidecar CPU / 1000 rps", "Objective"}}
	for _, p := range sw.Points {
		l, base := pick(p.Latency), pick(p.Baseline)
		payload := "-"
		if p.PayloadBytes != nil {
			payload = fmt.Sprintf("%d B", *p.PayloadBytes)
		}
		objective := textfmt.OrDash(p.Message)
		if p.Passed != nil {
			objective = map[bool]string{true: "met", false: "missed"}[*p.Passed]
			if p.Message != "" {
				objective += ": " + p.Message
			}
		}
		addedCell := func(f perfv1alpha1.LatencyFigure) htmlCell {
			c := htmlCell{Text: textfmt.Dur(f.OfPoint(p.Added))}
			if lo, hi := f.OfPoint(p.AddedLow), f.OfPoint(p.AddedHigh); f.OfPoint(p.Added) != nil && lo != nil && hi != nil {
				c.Detail = "95%: " + textfmt.Dur(lo) + " – " + textfmt.Dur(hi)
			}
			return c
		}
		row := []htmlCell{{Text: fmt.Sprint(p.Step)}, {Text: textfmt.OrDash(intOrEmpty(p.Connections))}, {Text: fmt.Sprint(p.QPS)}, {Text: payload},
			{Text: textfmt.OrDash(p.Setting)}, {Text: textfmt.OrDash(p.Run)}, {Text: textfmt.OrDash(string(p.Phase))}, {Text: textfmt.OrDash(p.ActualQPS)}, {Text: fmt.Sprint(p.Errors)},
			{Text: textfmt.Dur(l.P50)}, {Text: textfmt.Dur(l.P90)}, {Text: textfmt.Dur(l.P99)}, {Text: textfmt.Dur(base.P90)},
			addedCell(perfv1alpha1.FigureP50), addedCell(perfv1alpha1.FigureP90), addedCell(perfv1alpha1.FigureP99),
			{Text: textfmt.Qty(p.SidecarCPUPer1kQPS)}, {Text: objective}}
		t.add(row...)
	}
	points.table(t)
	if len(t.Rows) == 0 {
		points.Notes = append(points.Notes, "No point measured yet.")
	}
	doc.Sections = append(doc.Sections, id, points)
	if s, ok := settingsSection(sw); ok {
		doc.Sections = append(doc.Sections, s)
	}
	doc.Sections = append(doc.Sections, htmlSection{ID: chartsID, Title: "Charts"}, conditionsSection(st.Conditions))
	doc.Spec = specYAML(sw.Spec)
	return doc
}

// sweptValues lists the values each swept dimension takes.
func sweptValues(p *perfv1alpha1.SweepPoints) string {
	var parts []string
	for _, d := range []struct {
		name string
		v    []int32
	}{{"connections", p.Connections}, {"qps", p.QPS}, {"payloadBytes", p.PayloadBytes}} {
		if len(d.v) > 0 {
			parts = append(parts, fmt.Sprintf("%s %v", d.name, d.v))
		}
	}
	if len(p.Settings) > 0 {
		var names []string
		for _, s := range p.Settings {
			names = append(names, s.Name)
		}
		parts = append(parts, fmt.Sprintf("settings %v", names))
	}
	return strings.Join(parts, " × ")
}

// specYAML is v as YAML, or why it could not be written.
func specYAML(v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		return "the spec could not be written as YAML: " + err.Error()
	}
	return string(b)
}

// when writes a time in UTC; "-" for none.
func when(t *metav1.Time) string {
	if t == nil || t.IsZero() {
		return "-"
	}
	return t.UTC().Format(reportTime)
}

// between is the time from start to end, to the second; empty unless both are known.
func between(start, end *metav1.Time) string {
	if start == nil || end == nil || start.IsZero() || end.IsZero() || end.Before(start) {
		return ""
	}
	return end.Sub(start.Time).Round(time.Second).String()
}

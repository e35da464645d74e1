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
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/cpuprofile"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/document"
)

// profileTopN is how many functions the report lists by flat and by cumulative CPU.
const profileTopN = 10

// profileFileBase names a sidecar's files in the report's folder.
func profileFileBase(role perfv1alpha1.ProfileRole) string {
	if role == perfv1alpha1.ProfileServerSidecar {
		return "daprd-server"
	}
	return "daprd-client"
}

func profileTitle(role perfv1alpha1.ProfileRole) string {
	if role == perfv1alpha1.ProfileServerSidecar {
		return "the target's daprd (server)"
	}
	return "the load tester's daprd (client)"
}

// Profiles writes each stored daprd CPU profile of run (spec.profiling) into dir as
// daprd-<server|client>.pprof, for go tool pprof, with its flame graph as an SVG beside it,
// and returns the top functions as text and the report's section. A run without profiles
// gives nothing; a missing or unreadable one is said in a note.
func Profiles(ctx context.Context, c client.Reader, run document.Run, dir string) (string, *Part) {
	var st *perfv1alpha1.ProfilesStatus
	if run.Doc != nil {
		st = run.Doc.Profiles
	}
	if st == nil {
		return "", nil
	}
	part := &Part{Section: htmlSection{ID: "profiles", Title: "daprd CPU profiles"}}
	var text strings.Builder
	text.WriteString("\ndaprd CPU profiles")
	if st.Generation != run.Generation {
		fmt.Fprintf(&text, " (of generation %d's load)", st.Generation)
	}
	text.WriteString(":\n")
	var cm *corev1.ConfigMap
	if st.ConfigMap != "" {
		cm = &corev1.ConfigMap{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: st.ConfigMap}, cm); err != nil {
			note := fmt.Sprintf("the profiles' ConfigMap %s cannot be read: %v", st.ConfigMap, err)
			fmt.Fprintf(&text, "  %s\n", note)
			part.Section.Notes = append(part.Section.Notes, note)
			cm = nil
		}
	}
	for _, sp := range st.Sidecars {
		name := profileFileBase(sp.Role)
		if sp.Failure != "" || sp.Key == "" || cm == nil {
			why := sp.Failure
			if why == "" {
				why = "not stored"
			}
			note := fmt.Sprintf("%s: no profile of %s: %s", name, profileTitle(sp.Role), why)
			fmt.Fprintf(&text, "  %s\n", note)
			part.Section.Notes = append(part.Section.Notes, note)
			continue
		}
		data := cm.BinaryData[sp.Key]
		if document.Digest(data) != sp.Digest {
			note := fmt.Sprintf("%s: the stored profile of %s is not the one this result names (its digest differs): "+
				"a later generation's, or changed since the operator wrote it", name, profileTitle(sp.Role))
			fmt.Fprintf(&text, "  %s\n", note)
			part.Section.Notes = append(part.Section.Notes, note)
			continue
		}
		t, files, err := oneProfile(dir, name, sp, data, &part.Section)
		part.Files = append(part.Files, files...)
		if err != nil {
			note := fmt.Sprintf("%s: the profile of %s is not shown: %v", name, profileTitle(sp.Role), err)
			fmt.Fprintf(&text, "  %s\n", note)
			part.Section.Notes = append(part.Section.Notes, note)
			continue
		}
		text.WriteString(t)
	}
	return text.String(), part
}

// oneProfile writes one sidecar's profile and flame graph into dir, adds its tables and
// flame graph to section and returns its text.
func oneProfile(dir, name string, sp perfv1alpha1.SidecarProfile, data []byte, section *htmlSection) (string, []string, error) {
	p, err := cpuprofile.Parse(data)
	if err != nil {
		return "", nil, err
	}
	pprofFile := filepath.Join(dir, name+".pprof")
	if err := os.WriteFile(pprofFile, data, 0o644); err != nil {
		return "", nil, err
	}
	files := []string{pprofFile}
	top := cpuprofile.TopFunctions(p, profileTopN)
	head := fmt.Sprintf("%s, %s of CPU over a %s window", profileTitle(sp.Role), top.Total.Round(time.Millisecond), window(sp, top))
	if sp.Start != nil {
		head += " from " + sp.Start.UTC().Format(reportTime)
	}
	head += fmt.Sprintf(" (%d bytes; go tool pprof -http=: %s.pprof)", len(data), name)
	var b strings.Builder
	fmt.Fprintf(&b, "  %s: %s\n", name, head)
	section.Notes = append(section.Notes, name+": "+head)
	for _, by := range []struct {
		title string
		rows  []cpuprofile.Function
	}{{"by flat CPU (in the function itself)", top.Flat}, {"by cumulative CPU (the function and what it calls)", top.Cum}} {
		fmt.Fprintf(&b, "  top %d %s:\n", profileTopN, by.title)
		b.WriteString(topTable(by.rows))
		t := htmlTable{ID: name + "-" + strings.Fields(by.title)[1], Caption: fmt.Sprintf("%s: top %d %s", name, profileTopN, by.title),
			Header: []string{"Function", "Flat", "Flat %", "Cum", "Cum %"}}
		for _, f := range by.rows {
			t.addText(f.Name, f.Flat.Round(time.Millisecond).String(), fmt.Sprintf("%.1f%%", f.FlatPercent),
				f.Cum.Round(time.Millisecond).String(), fmt.Sprintf("%.1f%%", f.CumPercent))
		}
		section.table(t)
	}
	title := fmt.Sprintf("Flame graph of %s (frames under %.1f%% of the CPU left out)", profileTitle(sp.Role), cpuprofile.MinFlameShare*100)
	svg := flameSVG(cpuprofile.FlameGraph(p))
	svgFile := filepath.Join(dir, name+"-flame.svg")
	if err := os.WriteFile(svgFile, svg, 0o644); err != nil {
		return "", files, err
	}
	files = append(files, svgFile)
	inline, err := inlineSVG(svg, title)
	if err != nil {
		return "", files, err
	}
	section.Charts = append(section.Charts, htmlChart{Name: name + "-flame", Title: title, SVG: inline,
		Files: []string{filepath.Base(pprofFile), filepath.Base(svgFile)}})
	return b.String(), files, nil
}

// window is the profile's own duration, else the one the status records.
func window(sp perfv1alpha1.SidecarProfile, top cpuprofile.Top) time.Duration {
	if top.Window > 0 {
		return top.Window.Round(100 * time.Millisecond)
	}
	return time.Duration(sp.Seconds) * time.Second
}

func topTable(rows []cpuprofile.Function) string {
	var b bytes.Buffer
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "    FLAT\tFLAT%\tCUM\tCUM%\t \tFUNCTION\t")
	for _, f := range rows {
		fmt.Fprintf(w, "    %s\t%.1f%%\t%s\t%.1f%%\t \t%s\t\n", f.Flat.Round(time.Millisecond), f.FlatPercent,
			f.Cum.Round(time.Millisecond), f.CumPercent, textfmt.ForTerminal(f.Name))
	}
	_ = w.Flush()
	return b.String()
}

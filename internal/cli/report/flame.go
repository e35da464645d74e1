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
	"hash/fnv"
	"html"
	"time"

	"github.com/daprbench/daprbench/internal/assess/cpuprofile"
)

// Flame graph geometry, in SVG units: an icicle (the root on top, callees below it), each
// frame as wide as its share of the CPU.
const (
	flameWidth     = 1200.0
	flameRowHeight = 16.0
	flameCharWidth = 6.6 // of the 11px monospace labels
)

// flameSVG draws a flame graph (cpuprofile.FlameGraph, bounded there) as a plain SVG: rects,
// clipped labels and a <title> on each frame that a browser shows on hover. Every name is
// escaped: a profile is anyone's who may edit the run's ConfigMaps.
func flameSVG(root *cpuprofile.Frame) []byte {
	rows := depth(root)
	height := float64(rows) * flameRowHeight
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="monospace" font-size="11">`+"\n",
		flameWidth, height, flameWidth, height)
	if root.CPU > 0 {
		drawFrame(&b, root, root.CPU, 0, 0)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func drawFrame(b *bytes.Buffer, f *cpuprofile.Frame, total time.Duration, x float64, row int) {
	w := float64(f.CPU) / float64(total) * flameWidth
	y := float64(row) * flameRowHeight
	name := html.EscapeString(f.Name)
	fmt.Fprintf(b, `<g><title>%s: %s, %.2f%%</title><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s" stroke="#fff" stroke-width="0.5"/>`,
		name, f.CPU.Round(time.Millisecond), float64(f.CPU)*100/float64(total), x, y, w, flameRowHeight-1, frameColour(f.Name))
	if chars := int((w - 4) / flameCharWidth); chars >= 3 {
		label := f.Name
		if r := []rune(label); len(r) > chars {
			label = string(r[:chars-2]) + ".."
		}
		fmt.Fprintf(b, `<text x="%.2f" y="%.1f">%s</text>`, x+2, y+flameRowHeight-4, html.EscapeString(label))
	}
	b.WriteString("</g>\n")
	for _, c := range f.Children {
		drawFrame(b, c, total, x, row+1)
		x += float64(c.CPU) / float64(total) * flameWidth
	}
}

func depth(f *cpuprofile.Frame) int {
	d := 0
	for _, c := range f.Children {
		d = max(d, depth(c))
	}
	return d + 1
}

// frameColour is a warm colour fixed by the name, so a function has one colour in both
// sidecars' graphs.
func frameColour(name string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	v := h.Sum32()
	return fmt.Sprintf("rgb(%d,%d,%d)", 205+v%50, 80+(v>>8)%130, 40+(v>>16)%50)
}

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

package cpuprofile

import (
	"cmp"
	"slices"
	"time"

	"github.com/google/pprof/profile"
)

// Frame is a node of a flame graph: a function called along one path from the root, with
// the CPU time of the samples under it.
type Frame struct {
	Name     string
	CPU      time.Duration
	Children []*Frame
}

// Flame bounds: a frame below MinFlameShare of the total is dropped with everything under
// it (too narrow to see or read, and it is most of a profile's frames), and the graph is
// cut at MaxFlameDepth frames, so the report's SVG stays a few hundred KiB at most.
const (
	MinFlameShare = 0.005
	MaxFlameDepth = 40
)

// FlameGraph is p's stacks merged into a tree from a root frame named "all", bounded as
// MinFlameShare and MaxFlameDepth say. Children are ordered by name, as flame graphs are.
func FlameGraph(p *profile.Profile) *Frame {
	cpu := cpuIndex(p)
	root := &Frame{Name: "all"}
	index := map[*Frame]map[string]*Frame{}
	for _, s := range p.Sample {
		v := time.Duration(s.Value[cpu])
		root.CPU += v
		at := root
		for depth, name := range frames(s) {
			if depth >= MaxFlameDepth {
				break
			}
			kids := index[at]
			if kids == nil {
				kids = map[string]*Frame{}
				index[at] = kids
			}
			next := kids[name]
			if next == nil {
				next = &Frame{Name: name}
				kids[name] = next
				at.Children = append(at.Children, next)
			}
			next.CPU += v
			at = next
		}
	}
	prune(root, time.Duration(float64(root.CPU)*MinFlameShare))
	return root
}

// prune drops the frames below least and orders the rest by name.
func prune(f *Frame, least time.Duration) {
	f.Children = slices.DeleteFunc(f.Children, func(c *Frame) bool { return c.CPU < least || c.CPU == 0 })
	slices.SortFunc(f.Children, func(a, b *Frame) int { return cmp.Compare(a.Name, b.Name) })
	for _, c := range f.Children {
		prune(c, least)
	}
}

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

package loadgen

import "fmt"

// join is the phase the incarnation id of pod starts at: 0 for the pod's first, and for a
// replacement the phase after the last one its predecessor started (or the phase its
// predecessor was waiting at, whose barrier then waits for the replacement instead). Asking
// again with the same id gives the same answer.
func (c *coordinator) join(pod int, id string) (int, error) {
	if pod <= 0 || pod >= c.size {
		return 0, fmt.Errorf("pod %d is not a peer in a group of %d", pod, c.size)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := c.joins[pod]
	if from, ok := seen[id]; ok {
		return from, nil
	}
	from := 0
	if len(seen) > 0 {
		from = c.resumeAt(pod)
	}
	if seen == nil {
		seen = map[string]int{}
		c.joins[pod] = seen
	}
	seen[id] = from
	return from, nil
}

// errNotJoined refuses a peer that meets at a barrier without having joined this leader:
// the leader pod was replaced mid-run (a drain evicts it; the Job of a run that kills a
// load tester replaces evicted pods), and a group cannot go on without the pod that holds
// its clock and the others' measurements.
func errNotJoined(pod int) error {
	return fmt.Errorf("pod %d never joined this leader pod: the leader was replaced mid-run, and the group cannot go on without the measurements it held", pod)
}

// resumeAt is where a replacement of pod takes over: after the last phase pod started, or
// at the phase it was waiting at, its arrival there forgotten (the barrier would otherwise
// open without the replacement, which would then run the phase late). Called with c.mu held.
func (c *coordinator) resumeAt(pod int) int {
	last := -1
	for phase, b := range c.phases {
		if b.arrived[pod] && phase > last {
			last = phase
		}
	}
	if last < 0 {
		return 0
	}
	select {
	case <-c.phases[last].open:
		return last + 1
	default:
		delete(c.phases[last].arrived, pod)
		return last
	}
}

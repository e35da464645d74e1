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

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// podDeliveries are one pod's measurements as they came: its runs and their recordings,
// the digest of each part (a retry of it is no second one) and of its last delivery.
type podDeliveries struct {
	runs       []result.Run
	recordings map[string]wireRecording
	parts      map[string][sha256.Size]byte
	last       *[sha256.Size]byte
}

// deliver files a pod's measurements: each run once (a retry of the same body is accepted
// again), and the pod's last delivery once; a pod's failure aborts the group.
func (c *coordinator) deliver(m podMeasurements, digest [sha256.Size]byte) error {
	if m.Pod <= 0 || m.Pod >= c.size {
		return fmt.Errorf("pod %d is not a peer in a group of %d", m.Pod, c.size)
	}
	if m.Error == "" {
		if err := checkMeasurements(m, c.plan); err != nil {
			return &refusal{fmt.Errorf("pod %d: %w", m.Pod, err)}
		}
	}
	if m.Part && (len(m.Runs) != 1 || m.Error != "") {
		return &refusal{fmt.Errorf("pod %d: a part holds one run, and no error", m.Pod)}
	}
	c.mu.Lock()
	if len(c.joins[m.Pod]) == 0 {
		c.mu.Unlock()
		return errNotJoined(m.Pod) // its measurements went to the leader this one replaced
	}
	d := c.pods[m.Pod]
	if d == nil {
		d = &podDeliveries{recordings: map[string]wireRecording{}, parts: map[string][sha256.Size]byte{}}
		c.pods[m.Pod] = d
	}
	if err := d.add(m, digest); err != nil {
		c.mu.Unlock()
		if errors.Is(err, errRetried) {
			return nil
		}
		return &refusal{fmt.Errorf("pod %d %w", m.Pod, err)}
	}
	c.mu.Unlock()
	if m.Error != "" {
		c.abort(fmt.Errorf("load-tester pod %d failed: %s", m.Pod, m.Error))
	}
	select {
	case c.received <- struct{}{}:
	default:
	}
	return nil
}

// errRetried is a delivery taken already: the same body again.
var errRetried = errors.New("delivered this already")

// add files m, unless it repeats what the pod delivered.
func (d *podDeliveries) add(m podMeasurements, digest [sha256.Size]byte) error {
	if m.Part {
		if first, ok := d.parts[recordingKey(keyOf(m.Runs[0]))]; ok && first == digest {
			return errRetried
		}
		if d.last != nil {
			return errors.New("has ended its deliveries")
		}
	} else if d.last != nil {
		if *d.last == digest {
			return errRetried
		}
		return errors.New("has delivered its measurements already")
	}
	for _, r := range m.Runs {
		if slices.ContainsFunc(d.runs, func(o result.Run) bool { return keyOf(o) == keyOf(r) }) {
			return fmt.Errorf("has delivered its measurements of %s, repetition %d, already", r.Variant, r.Rep)
		}
	}
	d.runs = append(d.runs, m.Runs...)
	maps.Copy(d.recordings, m.Recordings)
	if m.Part {
		d.parts[recordingKey(keyOf(m.Runs[0]))] = digest
	} else {
		d.last = &digest
	}
	return nil
}

// gather waits until every peer has made its last delivery, for at most wait, and returns
// each peer's measurements, in pod order.
func (c *coordinator) gather(ctx context.Context, wait time.Duration) ([]podMeasurements, error) {
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	for {
		c.mu.Lock()
		var missing []int
		for pod := 1; pod < c.size; pod++ {
			if d := c.pods[pod]; d == nil || d.last == nil {
				missing = append(missing, pod)
			}
		}
		if len(missing) == 0 {
			out := make([]podMeasurements, 0, c.size-1)
			for pod := 1; pod < c.size; pod++ {
				d := c.pods[pod] // copies: a forged late part must not write what the leader reads
				out = append(out, podMeasurements{Pod: pod, Runs: slices.Clone(d.runs), Recordings: maps.Clone(d.recordings)})
			}
			c.mu.Unlock()
			return out, nil
		}
		c.mu.Unlock()
		select {
		case <-c.received:
		case <-c.aborted:
			return nil, c.abortErr
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timeout.C:
			return nil, fmt.Errorf("load-tester pods %v sent no measurements within %v", missing, wait)
		}
	}
}

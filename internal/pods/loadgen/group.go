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
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Group is one load-tester pod's place among the parallel pods of a run
// (spec.loadTester.replicas). Each pod sends its share of the rate over its share of the
// connections; the pods meet at a barrier before every measured phase so that their
// phases start together (and the interleaving B D B D stays aligned across pods), and
// after the last phase every pod sends its runs and exact histograms to the leader (pod 0),
// which merges them into the one summary of the run: percentiles of the merged
// distribution, never averages of per-pod percentiles.
type Group struct {
	// Index of this pod, from 0; pod 0 leads.
	Index int
	// Size is the number of pods.
	Size int
	// LeaderURL is the leader's coordinator, e.g. http://run-loadtester-0.run-loadtester:8079.
	LeaderURL string
	// Listen is the leader's listen address, e.g. :8079.
	Listen string
	// Wait bounds every wait for the other pods: at a barrier, and the leader's for results.
	Wait time.Duration
	// Token is the run's secret, presented by every pod to the leader: a pod outside the run
	// cannot meet at the barrier, deliver measurements or abort the group.
	Token string
}

// minTokenLength is the shortest token a group accepts (the operator makes 64 hex digits).
const minTokenLength = 32

// Leads reports whether this pod is the leader.
func (g *Group) Leads() bool { return g.Index == 0 }

// Validate checks a group's settings.
func (g *Group) Validate() error {
	var errs []error
	if g.Size < 2 {
		errs = append(errs, fmt.Errorf("--group-size must be >= 2 for a group, got %d", g.Size))
	}
	if g.Index < 0 || g.Index >= g.Size {
		errs = append(errs, fmt.Errorf("--group-index must be in [0, %d), got %d", g.Size, g.Index))
	}
	if u, err := url.Parse(g.LeaderURL); !g.Leads() && (err != nil || u.Scheme != "http" || u.Host == "") {
		errs = append(errs, fmt.Errorf("--group-leader must be an http://HOST:PORT URL, got %q", g.LeaderURL))
	}
	if g.Leads() && g.Listen == "" {
		errs = append(errs, errors.New("--group-listen is needed by the leader (pod 0)"))
	}
	if len(g.Token) < minTokenLength {
		errs = append(errs, fmt.Errorf("--group-token (DAPRBENCH_GROUP_TOKEN) must have at least %d characters: the leader admits only pods that present it", minTokenLength))
	}
	if g.Wait <= 0 {
		errs = append(errs, fmt.Errorf("--group-wait must be > 0, got %v", g.Wait))
	}
	return errors.Join(errs...)
}

// ShareQPS is this pod's part of the rate: an equal split.
func (g *Group) ShareQPS(total float64) float64 { return total / float64(g.Size) }

// ShareConnections is this pod's part of the connections: an equal split, the remainder
// going to the lowest indices.
func (g *Group) ShareConnections(total int) int {
	n := total / g.Size
	if g.Index < total%g.Size {
		n++
	}
	return n
}

// follower is a non-leader pod's side of the group's protocol: HTTP calls to the leader.
type follower struct {
	g      *Group
	client *http.Client
	id     string // this incarnation of the pod: its replacement has another
}

// arrive blocks until every pod has reached phase, retrying while the leader cannot be
// reached (it may start later than this pod), for at most g.Wait.
func (p *follower) arrive(ctx context.Context, phase int) error {
	ctx, cancel := context.WithTimeout(ctx, p.g.Wait)
	defer cancel()
	u := fmt.Sprintf("%s%s?phase=%d&pod=%d", p.g.LeaderURL, pathArrive, phase, p.g.Index)
	last, err := poll(ctx, func(ctx context.Context) error { return p.post(ctx, u, nil) })
	if err != nil {
		return fmt.Errorf("waiting for the other load-tester pods at phase %d (at most %v): %s", phase, p.g.Wait, last)
	}
	return nil
}

// joinAnswer is the leader's answer to a pod starting: the phase it starts at (above 0 for
// the replacement of a pod killed by the run's fault).
type joinAnswer struct {
	From int `json:"from"`
}

// join tells the leader this pod has started and learns the phase it starts at, retrying
// while the leader cannot be reached, for at most g.Wait.
func (p *follower) join(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, p.g.Wait)
	defer cancel()
	u := fmt.Sprintf("%s%s?pod=%d&id=%s", p.g.LeaderURL, pathJoin, p.g.Index, url.QueryEscape(p.id))
	var ans joinAnswer
	last, err := poll(ctx, func(ctx context.Context) error {
		body, err := p.call(ctx, u, nil)
		if err == nil {
			if err = json.Unmarshal(body, &ans); err != nil {
				err = permanent{fmt.Errorf("the leader's answer: %w", err)}
			}
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("waiting for the leader load-tester pod (pod 0) to answer (at most %v): %s", p.g.Wait, last)
	}
	return ans.From, nil
}

// send hands this pod's measurements (or its failure) to the leader.
func (p *follower) send(ctx context.Context, m podMeasurements) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, p.g.Wait)
	defer cancel()
	last, err := poll(ctx, func(ctx context.Context) error { return p.post(ctx, p.g.LeaderURL+pathResult, body) })
	if err != nil {
		return fmt.Errorf("sending the measurements to the leader pod (at most %v): %s", p.g.Wait, last)
	}
	return nil
}

// post makes one call; a refusal by the leader (409: the group was aborted) is permanent.
func (p *follower) post(ctx context.Context, u string, body []byte) error {
	_, err := p.call(ctx, u, body)
	return err
}

// call makes one call and returns the answer's body.
func (p *follower) call(ctx context.Context, u string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, permanent{err}
	}
	req.Header.Set("Authorization", "Bearer "+p.g.Token)
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	switch {
	case resp.StatusCode == http.StatusConflict:
		return nil, permanent{fmt.Errorf("the leader pod gave up: %s", bytes.TrimSpace(msg))}
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusUnprocessableEntity:
		return nil, permanent{fmt.Errorf("the leader pod refused this pod: %s", bytes.TrimSpace(msg))}
	case resp.StatusCode/100 != 2:
		return nil, fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	return msg, nil
}

const (
	pathJoin   = "/v1/join"
	pathArrive = "/v1/arrive"
	pathResult = "/v1/result"
)

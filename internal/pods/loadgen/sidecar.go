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
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Sidecar is the load tester's own Dapr sidecar, reached on its HTTP port.
type Sidecar struct {
	// BaseURL is e.g. http://localhost:3500.
	BaseURL string
	Client  *http.Client
}

// WaitReady polls the sidecar's outbound health endpoint until it answers 2xx, for at most
// bound. The outbound check (not plain healthz) says the sidecar can reach other apps.
func (s *Sidecar) WaitReady(ctx context.Context, bound time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	url := s.BaseURL + "/v1.0/healthz/outbound"
	last, err := poll2xx(ctx, s.client(), func(ctx context.Context) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	})
	if err != nil {
		return fmt.Errorf("dapr sidecar at %s not healthy after %v (last: %s)", s.BaseURL, bound, last)
	}
	return nil
}

// Shutdown asks the sidecar to stop so the Job's pod can complete.
func (s *Sidecar) Shutdown(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.BaseURL+"/v1.0/shutdown", nil)
	if err != nil {
		return err
	}
	resp, err := s.client().Do(req)
	if err != nil {
		return fmt.Errorf("stopping dapr sidecar: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("stopping dapr sidecar: %s", resp.Status)
	}
	return nil
}

// WaitDown waits, for at most bound, until the sidecar no longer accepts connections on its
// API port: a run hosting actors (a Scheduler run's reminders) keeps its app server up until
// daprd has deactivated them through it (daprd exits 1 when its app is gone first). It dials
// and closes, holding no connection open that daprd's shutdown would wait for.
func (s *Sidecar) WaitDown(ctx context.Context, bound time.Duration) {
	u, err := url.Parse(s.BaseURL)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", u.Host)
		if err != nil {
			return // refused (down), or the bound passed
		}
		_ = conn.Close()
		select {
		case <-ctx.Done():
			return
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (s *Sidecar) client() *http.Client {
	if s.Client != nil {
		return s.Client
	}
	return &http.Client{Timeout: 5 * time.Second}
}

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
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"fortio.org/fortio/fhttp"
	"fortio.org/fortio/periodic"
	"github.com/google/uuid"
)

// httpPaths are targets called over HTTP with fortio's own HTTP runner, the URL as given:
// an invocation through daprd's HTTP API, or the app called directly.
type httpPaths struct{}

func (httpPaths) schemes() map[string]endpointKind {
	return map[string]endpointKind{"http": viaHTTP, "https": viaHTTP}
}

func (httpPaths) parse(string, *url.URL) (endpoint, error) { return endpoint{kind: viaHTTP}, nil }

func (httpPaths) host(*appServer, endpoint, time.Duration, time.Duration) {}

// ready sends the run's request until the target answers 2xx (no wait when bound is 0).
func (httpPaths) ready(ctx context.Context, p path, bound time.Duration, _ int) error {
	if bound <= 0 {
		return nil
	}
	t := p.target
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	method := http.MethodGet
	if len(p.body) > 0 {
		method = http.MethodPost
	}
	last, err := poll2xx(ctx, &http.Client{Timeout: 5 * time.Second}, func(ctx context.Context) (*http.Request, error) {
		url := strings.ReplaceAll(t.URL, "{uuid}", uuid.NewString())
		req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(p.body))
		if err == nil && t.DaprAPIToken != "" {
			req.Header.Set(daprAPITokenHeader, t.DaprAPIToken)
		}
		return req, err
	})
	if err != nil {
		return fmt.Errorf("%s target %s did not answer 2xx within %v (last: %s)", t.Variant, t.URL, bound, last)
	}
	return nil
}

func (httpPaths) run(opts *periodic.RunnerOptions, p path, timeout time.Duration, _ string) (outcome, any, error) {
	res, err := runHTTP(*opts, p.target, p.body, timeout)
	if err != nil {
		return outcome{}, nil, err
	}
	return outcome{RunnerResults: res.RunnerResults, RetCodes: res.RetCodes}, res, nil
}

// runHTTP is fortio's own HTTP runner.
func runHTTP(opts periodic.RunnerOptions, t Target, body []byte, timeout time.Duration) (*fhttp.HTTPRunnerResults, error) {
	h := fhttp.HTTPRunnerOptions{RunnerOptions: opts}
	h.HTTPOptions.Init(t.URL)
	if t.DaprAPIToken != "" {
		if err := h.AddAndValidateExtraHeader(daprAPITokenHeader + ": " + t.DaprAPIToken); err != nil {
			return nil, fmt.Errorf("the dapr api token: %w", err)
		}
	}
	h.Payload = body
	h.HTTPReqTimeOut = timeout
	return fhttp.RunHTTPTest(&h)
}

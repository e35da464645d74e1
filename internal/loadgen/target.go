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
	"strings"
	"time"

	"github.com/google/uuid"
)

// waitForTarget sends the run's own request (its method and body; a fresh id for {uuid})
// until the target answers 2xx, for at most bound, so that no measured or warm-up request
// meets a route that is not programmed yet.
func waitForTarget(ctx context.Context, t Target, body []byte, bound time.Duration) error {
	if bound <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	method := http.MethodGet
	if len(body) > 0 {
		method = http.MethodPost
	}
	last, err := poll2xx(ctx, &http.Client{Timeout: 5 * time.Second}, func(ctx context.Context) (*http.Request, error) {
		url := strings.ReplaceAll(t.URL, "{uuid}", uuid.NewString())
		return http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	})
	if err != nil {
		return fmt.Errorf("%s target %s did not answer 2xx within %v (last: %s)", t.Variant, t.URL, bound, last)
	}
	return nil
}

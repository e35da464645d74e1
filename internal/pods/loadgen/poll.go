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
	"errors"
	"io"
	"net/http"
	"time"
)

// pollInterval is how often a readiness check is repeated.
const pollInterval = 250 * time.Millisecond

// poll2xx sends the request newRequest builds until one is answered 2xx or ctx ends. It
// returns nil on success; otherwise ctx's error and the last answer or error seen, for the
// caller's message.
func poll2xx(ctx context.Context, client *http.Client, newRequest func(context.Context) (*http.Request, error)) (last string, err error) {
	return poll(ctx, func(ctx context.Context) error {
		req, err := newRequest(ctx)
		if err != nil {
			return permanent{err} // a malformed URL will not heal
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			return errors.New(resp.Status)
		}
		return nil
	})
}

// permanent marks an attempt's error that repeating cannot cure: poll returns it at once.
type permanent struct{ error }

// poll repeats attempt every pollInterval until it succeeds or ctx ends; then it returns
// ctx's error and the last attempt's, for the caller's message.
func poll(ctx context.Context, attempt func(context.Context) error) (last string, err error) {
	for {
		err := attempt(ctx)
		if err == nil {
			return "", nil
		}
		if p, ok := err.(permanent); ok {
			return p.Error(), p.error
		}
		last = err.Error()
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}

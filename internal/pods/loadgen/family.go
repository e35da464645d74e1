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
	"fmt"
	"net/url"
	"time"

	"fortio.org/fortio/periodic"
)

// pathFamily is one kind of measured path: the URL schemes it reads, what it asks of the
// run's app server, how it waits for its target, and how one fortio run drives it. A new kind
// of path is a new family beside its neighbours, listed in families; outside the families
// only a kind's own traits are asked (isPubSub, onActors), never a chain of kinds.
type pathFamily interface {
	// schemes are the URL schemes the family reads, each with the kind it makes.
	schemes() map[string]endpointKind
	// parse reads a URL of one of the family's schemes.
	parse(raw string, u *url.URL) (endpoint, error)
	// host readies the run's app server for a path of the family; nothing for a path whose
	// outcome is its own answer. wait is the readiness wait, repetition a measured
	// repetition's length.
	host(app *appServer, ep endpoint, wait, repetition time.Duration)
	// ready waits until the path can be measured: its target answers the run's own request,
	// its keys are written, or a probe is delivered, triggered or completed; for at most bound
	// (a family whose readiness needs more than an answer waits at least its own minimum).
	ready(ctx context.Context, p path, bound time.Duration, conns int) error
	// run makes one fortio run of the path, its outcomes tagged with phase; full is what
	// cfg.FortioJSON receives of it.
	run(opts *periodic.RunnerOptions, p path, timeout time.Duration, phase string) (out outcome, full any, err error)
}

// families are every kind of path the load tester drives.
var families = []pathFamily{httpPaths{}, grpcPaths{}, statePaths{}, pubsubPaths{}, workflowPaths{}, schedulerPaths{}, configurationPaths{}}

// path is one target as a family drives it: the target, its URL read, the run's body and
// the run's app server (nil when no path needs one).
type path struct {
	target Target
	ep     endpoint
	body   []byte
	app    *appServer
}

// familyOfScheme is the family that reads scheme (nil: none).
func familyOfScheme(scheme string) pathFamily {
	for _, f := range families {
		if _, ok := f.schemes()[scheme]; ok {
			return f
		}
	}
	return nil
}

// family is the family that made ep.
func (ep endpoint) family() pathFamily {
	for _, f := range families {
		for _, k := range f.schemes() {
			if k == ep.kind {
				return f
			}
		}
	}
	panic(fmt.Sprintf("endpoint kind %d has no family", ep.kind))
}

// errUsage is a family's answer to a URL of its scheme it cannot read: parseEndpoint then
// gives the full usage.
var errUsage = errors.New("not a target URL")

// parseEndpoint reads a target URL with the family of its scheme.
func parseEndpoint(raw string) (endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return endpoint{}, err
	}
	if f := familyOfScheme(u.Scheme); f != nil {
		ep, err := f.parse(raw, u)
		if !errors.Is(err, errUsage) {
			return ep, err
		}
	}
	return endpoint{}, fmt.Errorf("%q: want http(s)://…, dapr-grpc://HOST:PORT/APPID/METHOD, grpc://HOST:PORT/METHOD, "+
		"dapr-state+http|grpc://HOST:PORT/STORE?op=…&keys=…, redis://HOST:PORT/?op=…&keys=…, "+
		"dapr-pubsub+http|grpc://HOST:PORT/PUBSUB/TOPIC, redis-stream://HOST:PORT/STREAM "+
		"dapr-workflow+http|grpc://HOST:PORT/PATTERN?activities=…, dapr-jobs+http://HOST:PORT/?due=…, "+
		"dapr-reminders|timers+http://HOST:PORT/ACTORTYPE?due=…&actors=…, "+
		"dapr-configuration+http|grpc://HOST:PORT/STORE?keys=… or redis-configuration://HOST:PORT/?keys=…", raw)
}

// waitForTarget waits until t answers the run's own request (its method and body; a fresh
// id for {uuid}), so that no measured or warm-up request meets a route that is not
// programmed yet.
func waitForTarget(ctx context.Context, t Target, body []byte, bound time.Duration, conns int, app *appServer) error {
	ep, err := t.endpoint()
	if err != nil {
		return err
	}
	return ep.family().ready(ctx, path{target: t, ep: ep, body: body, app: app}, bound, conns)
}

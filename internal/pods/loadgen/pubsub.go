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
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"github.com/redis/go-redis/v9"

	"fortio.org/fortio/periodic"

	"github.com/daprbench/daprbench/internal/pods/latency"
)

// A PubSub run's paths (the operator writes their URLs, see workload's pubsubSide):
//
//	dapr-pubsub+http://localhost:3500/PUBSUB/TOPIC   publish through daprd's HTTP API
//	dapr-pubsub+grpc://localhost:50001/PUBSUB/TOPIC  through its gRPC API
//	redis-stream://HOST:PORT/TOPIC                    XADD to the stream itself (the baseline)
//
// ?raw=true publishes raw payloads (no CloudEvent envelope); ?subscription=declared: a
// Subscription object subscribes the load tester, which then declares none itself;
// ?maxlen=N trims the baseline's stream to about N entries, as the Component trims daprd's;
// ?bulk=N publishes N messages a request in one bulk call (daprd's bulk publish API, one
// pipeline of XADDs on the stream); ?batch=N&awaitMs=M subscribes in bulk, N messages a
// delivery at most, after at most M ms (the baseline reads batches of N); ?hold=D holds each
// delivery through daprd D before its receipt is taken (the known answer). Every message
// carries its phase, its number and the slot its request was due in; the load
// tester subscribes to what it publishes (its own daprd delivers to its subscriber; the
// baseline's stream is read by its own consumer group), so each message's delivery is timed
// on the one clock of this process (see deliveryBook).

// publisher is one connection's way to publish a request's messages: one, or a bulk.
type publisher interface {
	publish(ctx context.Context, msgs [][]byte) error
	close()
}

// isPubSub is whether ep is a PubSub path: its family sets its own settings.
func (ep endpoint) isPubSub() bool { return ep.pubsub != nil }

// pubsubPaths are a PubSub run's paths: a publish through daprd's HTTP or gRPC API, its
// messages delivered by the load tester's own daprd to its app server, or a Redis stream
// written and read with Redis' client (the baseline).
type pubsubPaths struct{}

func (pubsubPaths) schemes() map[string]endpointKind {
	return map[string]endpointKind{"dapr-pubsub+http": viaDaprPublishHTTP, "dapr-pubsub+grpc": viaDaprPublishGRPC, "redis-stream": viaRedisStream}
}

// host has the app server read a baseline's stream, or take the Dapr path's deliveries: its
// subscription (unless a Subscription object declares it), batches and known-answer hold.
func (pubsubPaths) host(app *appServer, ep endpoint, _, _ time.Duration) {
	if ep.kind == viaRedisStream {
		app.streams = append(app.streams, ep)
		return
	}
	app.servesDapr = true
	app.bulk = ep.pubsub.batch > 0
	app.drain = DeliveryDrain + time.Duration(ep.pubsub.awaitMs)*time.Millisecond
	app.hold = ep.pubsub.hold
	if !ep.pubsub.declared {
		sub := map[string]any{"pubsubname": ep.method, "topic": ep.pubsub.topic, "route": deliveryRoute}
		if ep.pubsub.raw {
			sub["metadata"] = map[string]string{"rawPayload": "true"}
		}
		if ep.pubsub.batch > 0 {
			sub["bulkSubscribe"] = bulkSubscription(ep)
		}
		app.subscriptions = append(app.subscriptions, sub)
	}
}

// ready publishes until a message is delivered: the broker reachable, daprd's Component
// loaded and its subscription made (at least 30 s).
func (pubsubPaths) ready(ctx context.Context, p path, bound time.Duration, _ int) error {
	bound = max(bound, 30*time.Second)
	if last, err := waitForDelivery(ctx, p.ep, p.app, bound); err != nil {
		return fmt.Errorf("%s path %s: no message delivered within %v (last: %s)", p.target.Variant, p.target.URL, bound, last)
	}
	return nil
}

func (pubsubPaths) run(opts *periodic.RunnerOptions, p path, timeout time.Duration, phase string) (outcome, any, error) {
	if p.app == nil {
		return outcome{}, nil, errors.New("a pub/sub path needs the run's app server")
	}
	out, err := runPubSub(opts, p.ep, p.body, timeout, p.app.book, phase)
	return out, out, err
}

func (f pubsubPaths) parse(raw string, u *url.URL) (endpoint, error) {
	q := u.Query()
	ep := endpoint{kind: f.schemes()[u.Scheme], addr: u.Host,
		pubsub: &pubsubEndpoint{raw: q.Get("raw") == "true", declared: q.Get("subscription") == "declared"}}
	if h := q.Get("hold"); h != "" {
		d, err := time.ParseDuration(h)
		if err != nil || d <= 0 || d > time.Second {
			return endpoint{}, fmt.Errorf("%q: hold must be a duration above 0 and at most 1s", raw)
		}
		ep.pubsub.hold = d
	}
	for _, p := range []struct {
		name     string
		into     *int64
		at, most int64
	}{{"maxlen", &ep.pubsub.maxLen, 1, 1 << 40}, {"bulk", &ep.pubsub.bulkPublish, 1, 100}, {"batch", &ep.pubsub.batch, 1, 1000}, {"awaitMs", &ep.pubsub.awaitMs, 1, 60000}} {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < p.at || n > p.most {
				return endpoint{}, fmt.Errorf("%q: %s must be a number from %d to %d", raw, p.name, p.at, p.most)
			}
			*p.into = n
		}
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch {
	case u.Port() == "":
		return endpoint{}, fmt.Errorf("%q: the address needs a port", raw)
	case ep.kind == viaRedisStream && len(parts) == 1 && parts[0] != "":
		ep.pubsub.topic = parts[0]
	case ep.kind != viaRedisStream && len(parts) == 2 && parts[0] != "" && parts[1] != "":
		ep.method, ep.pubsub.topic = parts[0], parts[1]
	default:
		return endpoint{}, fmt.Errorf("%q: want dapr-pubsub+http|grpc://HOST:PORT/PUBSUB/TOPIC or redis-stream://HOST:PORT/STREAM", raw)
	}
	return ep, nil
}

// pubConn is a fortio thread's connection: each call publishes the next message (or bulk of
// messages) of its phase.
type pubConn struct {
	pub   publisher
	book  *deliveryBook
	phase string
	pad   string
	seqs  []uint64 // a request's messages' numbers, reused
	msgs  [][]byte
}

func (c *pubConn) call(ctx context.Context) error {
	phase, due := phaseAndSlot(ctx, c.phase)
	at := c.book.offset(due)
	for i := range c.seqs {
		c.seqs[i] = c.book.next(phase)
		c.msgs[i] = encodeMessage(message{Nonce: c.book.nonce, Phase: phase, Seq: c.seqs[i], Due: at, Pad: c.pad})
	}
	err := c.pub.publish(ctx, c.msgs)
	if err == nil { // a failed bulk publishes none as far as the book knows: any delivered is unacknowledged
		for _, seq := range c.seqs {
			c.book.published(phase, seq, at)
		}
	}
	return err
}

// warmPhase tags the messages of the connections' warm-up calls: a phase never opened.
const warmPhase = "warm"

// phaseAndSlot is what a request whose outcome comes back later (a message, a workflow, a
// trigger) is tagged with: its phase (a connection's warm-up call is no phase's) and the slot
// it was due in, from which the outcome is timed.
func phaseAndSlot(ctx context.Context, phase string) (string, time.Time) {
	if warming(ctx) {
		phase = warmPhase // the connection's warm-up call: no slot of the phase, never counted in it
	}
	due, paced := latency.DueOf(ctx)
	if !paced {
		due = time.Now() // fortio's own pacing: no slot is known, the send is the best there is
	}
	return phase, due
}

func (c *pubConn) close() { c.pub.close() }

// runPubSub makes one fortio run of a pub/sub path, its messages tagged with phase.
func runPubSub(opts *periodic.RunnerOptions, ep endpoint, body []byte, timeout time.Duration, book *deliveryBook, phase string) (outcome, error) {
	pad := lettersOf(body)
	return runThreads(opts, timeout, stateStatusOf, func() (threadConn, error) {
		p, err := dialPublisher(ep)
		if err != nil {
			return nil, err
		}
		n := max(1, int(ep.pubsub.bulkPublish))
		return &pubConn{pub: p, book: book, phase: phase, pad: pad, seqs: make([]uint64, n), msgs: make([][]byte, n)}, nil
	})
}

func dialPublisher(ep endpoint) (publisher, error) {
	switch ep.kind {
	case viaDaprPublishHTTP:
		api := "v1.0/publish"
		if ep.pubsub.bulkPublish > 0 {
			api = "v1.0-alpha1/publish/bulk"
		}
		u := fmt.Sprintf("http://%s/%s/%s/%s", ep.addr, api, url.PathEscape(ep.method), url.PathEscape(ep.pubsub.topic))
		if ep.pubsub.raw {
			u += "?metadata.rawPayload=true"
		}
		return &daprHTTPPublisher{url: u, bulk: ep.pubsub.bulkPublish > 0,
			client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}}}, nil
	case viaDaprPublishGRPC:
		conn, err := dialGRPC(ep.addr)
		if err != nil {
			return nil, fmt.Errorf("dialling %s: %w", ep.addr, err)
		}
		var md map[string]string
		if ep.pubsub.raw {
			md = map[string]string{"rawPayload": "true"}
		}
		return &daprGRPCPublisher{conn: conn, client: runtimev1.NewDaprClient(conn), pubsub: ep.method, topic: ep.pubsub.topic,
			metadata: md, bulk: ep.pubsub.bulkPublish > 0}, nil
	default:
		return &streamPublisher{client: newRedisClient(ep, 1), stream: ep.pubsub.topic, maxLen: ep.pubsub.maxLen}, nil
	}
}

// newRedisClient is a client of ep's Redis, presenting ep's password.
func newRedisClient(ep endpoint, pool int) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: ep.addr, Password: ep.password, PoolSize: pool, MinIdleConns: 1, Protocol: 2, DisableIdentity: true})
}

// daprHTTPPublisher publishes through daprd's HTTP API on one keep-alive connection: its
// single publish API, or its bulk one (see bulkBody).
type daprHTTPPublisher struct {
	url    string
	client *http.Client
	bulk   bool
}

func (d *daprHTTPPublisher) publish(ctx context.Context, msgs [][]byte) error {
	body := msgs[0]
	if d.bulk {
		body = bulkBody(msgs)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	body, code, err := readAnswer(d.client, req)
	switch {
	case err != nil:
		return err
	case code != http.StatusNoContent && code != http.StatusOK:
		return statusError{code, string(body)}
	}
	return nil
}

func (d *daprHTTPPublisher) close() { d.client.CloseIdleConnections() }

// daprGRPCPublisher publishes through daprd's gRPC API on one connection.
type daprGRPCPublisher struct {
	conn          interface{ Close() error }
	client        runtimev1.DaprClient
	pubsub, topic string
	metadata      map[string]string
	bulk          bool
}

func (d *daprGRPCPublisher) publish(ctx context.Context, msgs [][]byte) error {
	if d.bulk {
		return d.publishBulk(ctx, msgs)
	}
	_, err := d.client.PublishEvent(ctx, &runtimev1.PublishEventRequest{PubsubName: d.pubsub, Topic: d.topic, Data: msgs[0],
		DataContentType: "application/json", Metadata: d.metadata})
	return err
}

func (d *daprGRPCPublisher) close() { _ = d.conn.Close() }

// streamPublisher is the baseline's publish: what Dapr's pubsub.redis does for one message
// (XADD of a "data" field, trimmed to about maxLen entries when set, as the Component the run
// deploys sets maxLenApprox), minus Dapr.
type streamPublisher struct {
	client *redis.Client
	stream string
	maxLen int64
}

func (s *streamPublisher) publish(ctx context.Context, msgs [][]byte) error {
	if len(msgs) == 1 {
		return s.client.XAdd(ctx, s.entry(msgs[0])).Err()
	}
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, m := range msgs {
			p.XAdd(ctx, s.entry(m))
		}
		return nil
	})
	return err
}

func (s *streamPublisher) entry(msg []byte) *redis.XAddArgs {
	return &redis.XAddArgs{Stream: s.stream, MaxLen: s.maxLen, Approx: s.maxLen > 0, Values: []any{"data", msg}}
}

func (s *streamPublisher) close() { _ = s.client.Close() }

// waitForDelivery publishes a probe message on ep every half second until one is delivered,
// for at most bound: the broker is reachable, daprd's Component loaded and the subscription
// made. Probes are their own phase, never counted in a measured one.
func waitForDelivery(ctx context.Context, ep endpoint, app *appServer, bound time.Duration) (last string, err error) {
	if app == nil {
		return "no app server", errors.New("no app server")
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	p, err := dialPublisher(ep)
	if err != nil {
		return err.Error(), err
	}
	defer p.close()
	phase := "probe-" + ep.pubsub.topic
	app.book.begin(phase)
	defer app.book.close(phase, time.Time{})
	last = "nothing published yet"
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		if app.book.deliveredCount(phase) > 0 {
			return "", nil
		}
		pctx, pcancel := context.WithTimeout(ctx, 5*time.Second)
		err := p.publish(pctx, [][]byte{encodeMessage(message{Nonce: app.book.nonce, Phase: phase, Seq: app.book.next(phase), Due: app.book.offset(time.Now())})})
		pcancel()
		if err != nil {
			last = err.Error()
		} else {
			last = "published, not delivered yet"
		}
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case <-tick.C:
		}
	}
}

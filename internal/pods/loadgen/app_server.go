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
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/pods/fineclock"
)

// deliveryRoute is where the load tester's daprd delivers a PubSub run's messages.
const deliveryRoute = "/deliver"

// appServer is the load tester's app: it receives a run's asynchronous outcomes into its
// book. A PubSub run's messages come over HTTP from the load tester's own daprd (the Dapr
// path) and from the broker with its own client (the baseline); a Scheduler run's triggers
// from its daprd; a Workflow run's completions through its workflow host.
type appServer struct {
	book   *deliveryBook
	log    io.Writer
	server *http.Server
	// subscriptions is what GET /dapr/subscribe answers: the Dapr path's topic
	// (programmatic), or nothing when a Subscription object declares it.
	subscriptions []map[string]any
	bulk          bool          // daprd delivers in batches (bulk subscribe)
	hold          time.Duration // each delivery through daprd waits this long before its receipt (the known answer)
	drain         time.Duration // how long a phase waits for its last messages (DeliveryDrain + a batch's wait)
	// actorType is the actor type a Scheduler run's reminders are registered on: the load
	// tester hosts it (GET /dapr/config names it) and takes its reminders (empty: none).
	actorType string
	// workflows hosts a Workflow run's workflows and awaits its instances (nil otherwise).
	workflows *workflowHost
	// servesDapr: a daprd calls the app server (deliveries, triggers); it listens.
	servesDapr bool
	// streams are the baseline streams it consumes itself, as Dapr's pubsub.redis would.
	streams []endpoint
	wg      sync.WaitGroup
	cancel  context.CancelFunc
}

// startAppServer readies what the targets' families ask of it (family.host): it serves
// daprd's deliveries and triggers on listen, consumes each baseline stream and hosts the
// workflows; nil when no target asks for anything. stop ends it all. wait is the
// readiness wait and repetition a measured repetition's length: together with the drain they
// bound how long a workflow's completion is awaited.
func startAppServer(ctx context.Context, targets []Target, listen string, wait, repetition time.Duration, log io.Writer) (*appServer, error) {
	s := &appServer{book: newDeliveryBook(), log: log, drain: DeliveryDrain}
	for _, t := range targets {
		if ep, err := t.endpoint(); err == nil {
			ep.family().host(s, ep, wait, repetition)
		}
	}
	if !s.servesDapr && len(s.streams) == 0 && s.workflows == nil {
		return nil, nil
	}
	ctx, s.cancel = context.WithCancel(ctx)
	if s.servesDapr {
		if err := s.serve(listen); err != nil {
			s.cancel()
			return nil, err
		}
	}
	for _, ep := range s.streams {
		if err := s.consume(ctx, ep, max(wait, 30*time.Second)); err != nil {
			s.stop()
			return nil, err
		}
	}
	return s, nil
}

// serve answers daprd: its subscription query and its deliveries.
func (s *appServer) serve(listen string) error {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("the app server cannot listen on %s: %w", listen, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /dapr/subscribe", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(append([]map[string]any{}, s.subscriptions...))
	})
	mux.HandleFunc("POST "+deliveryRoute, func(w http.ResponseWriter, r *http.Request) {
		limit := int64(16 << 20)
		if s.bulk {
			limit = 128 << 20 // up to 1000 messages of 64 KiB, base64 when raw
		}
		if s.hold > 0 {
			fineclock.Sleep(s.hold) // as if daprd had taken this much longer to deliver; the pacer's fine clock, not a timer's late wake-up
		}
		arrived := s.book.arrival() // before the body is read: reading and decoding it are the receipt lag
		body, err := io.ReadAll(io.LimitReader(r.Body, limit))
		w.Header().Set("Content-Type", "application/json")
		if err == nil && s.bulk {
			_, _ = w.Write(deliverBulk(body, arrived, s.book))
			return
		}
		if m, derr := decodeMessage(body); err == nil && derr == nil {
			s.book.delivered(m, arrived)
		}
		// SUCCESS whatever it was: a message this subscriber cannot read is not one to retry.
		_, _ = io.WriteString(w, `{"status":"SUCCESS"}`)
	})
	s.serveTriggers(mux)
	s.server = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	server := s.server
	go func() { // not in wg: an actor host's server outlives stop (see actorHostGrace)
		if err := server.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logf(s.log, "app server: %v", err)
		}
	}()
	return nil
}

// consume reads ep's stream as Dapr's pubsub.redis does — a consumer group, entries read in
// batches and acknowledged — minus Dapr: each entry is delivered to the book as it is read.
// The group is this process's own (another run on the same stream reads all of it too). A
// broker that is not up yet is waited for, up to bound.
func (s *appServer) consume(ctx context.Context, ep endpoint, bound time.Duration) error {
	client := newRedisClient(ep, 2)
	group := "daprbench-direct-" + s.book.nonce
	cctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	if last, err := poll(cctx, func(ctx context.Context) error { return createGroup(ctx, client, ep.pubsub.topic, group) }); err != nil {
		_ = client.Close()
		return fmt.Errorf("creating the baseline's consumer group on stream %s at %s within %v: %s", ep.pubsub.topic, ep.addr, bound, last)
	}
	// Acknowledged apart, as Dapr's component does, so the next read never waits on the
	// last batch's XACK round trip.
	acks := make(chan []string, 64)
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		defer client.Close() // once the reader is done and the last acks are sent
		for ids := range acks {
			_ = client.XAck(context.WithoutCancel(ctx), ep.pubsub.topic, group, ids...).Err()
		}
	}()
	go func() {
		defer s.wg.Done()
		defer close(acks)
		for ctx.Err() == nil {
			streams, err := client.XReadGroup(ctx, &redis.XReadGroupArgs{Group: group, Consumer: "loadtester",
				Streams: []string{ep.pubsub.topic, ">"}, Count: cmp.Or(ep.pubsub.batch, 100), Block: time.Second}).Result()
			arrived := s.book.arrival() // the batch's entries all arrived now: decoding them is their receipt lag
			if err != nil {
				if !errors.Is(err, redis.Nil) && ctx.Err() == nil {
					logf(s.log, "baseline consumer on %s: %v", ep.pubsub.topic, err)
					if strings.HasPrefix(err.Error(), "NOGROUP") {
						_ = createGroup(ctx, client, ep.pubsub.topic, group) // a broker restarted empty
					}
					time.Sleep(100 * time.Millisecond) // a broker away: try again, the phase counts what is lost
				}
				continue
			}
			for _, st := range streams {
				ids := make([]string, 0, len(st.Messages))
				for _, x := range st.Messages {
					if data, ok := x.Values["data"].(string); ok {
						if m, err := decodeMessage([]byte(data)); err == nil {
							s.book.delivered(m, arrived)
						}
					}
					ids = append(ids, x.ID)
				}
				if len(ids) > 0 {
					acks <- ids
				}
			}
		}
	}()
	return nil
}

// createGroup creates group on stream (and the stream), reading from its end; one that
// exists already is fine.
func createGroup(ctx context.Context, client *redis.Client, stream, group string) error {
	err := client.XGroupCreateMkStream(ctx, stream, group, "$").Err()
	if err != nil && strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return nil
	}
	return err
}

// stop ends the server and the consumers.
func (s *appServer) stop() {
	if s == nil {
		return
	}
	s.cancel()
	s.workflows.stop()
	if s.server != nil && s.actorType != "" {
		// An actor host answers daprd's deactivations while daprd shuts down, after the run
		// (daprd exits 1 when its app refuses them): the load tester waits for daprd to go
		// (Sidecar.WaitDown) and ends, or the server closes after the grace.
		server := s.server
		time.AfterFunc(actorHostGrace+15*time.Second, func() { _ = server.Close() }) // past the shutdown call and WaitDown
		s.server = nil
	}
	if s.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = s.server.Shutdown(ctx)
		cancel()
	}
	s.wg.Wait()
}

// actorHostGrace bounds how long the app server of a run hosting actors (a Scheduler run's
// reminders) keeps answering after the run, and how long the load tester waits for its daprd
// to go: daprd's shutdown, asked right after the run, deactivates every actor through the
// app server (it exits 1 when the app is gone by then).
const actorHostGrace = time.Minute

// subscriberListen is where the subscriber listens by default: the port the operator gives
// the load tester's daprd as its app port, on loopback, where daprd's app channel calls it
// (no other pod can post it deliveries).
func subscriberListen() string { return fmt.Sprintf("127.0.0.1:%d", ls.SubscriberPort) }

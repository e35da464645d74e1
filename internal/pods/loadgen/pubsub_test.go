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
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"google.golang.org/grpc"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// pubsubStandIn is a TEST-ONLY stand-in for daprd's publish API and its delivery to the app:
// every published message is wrapped in a CloudEvent (as daprd does; a raw payload
// base64-encoded in data_base64, as daprd delivers one to a rawPayload subscription) and POSTed
// to the subscriber after delay, on a goroutine of its own. It measures nothing of Dapr; it
// gives the load tester's delivery timing a known answer, and it can lose or double messages
// on purpose.
type pubsubStandIn struct {
	subscriberURL string
	delay         time.Duration
	dropEvery     int64 // every n-th message is never delivered (0: none)
	doubleEvery   int64 // every n-th message is delivered twice (0: none)
	n             atomic.Int64
	subscribed    atomic.Bool
	wg            sync.WaitGroup
	// bulk: the subscription is a bulk one, and each bulk publish is delivered as one bulk
	// delivery; bulkCalls counts bulk publishes, bulkEntries their entries, answered the
	// statuses the subscriber gave back.
	bulk                             bool
	bulkCalls, bulkEntries, answered atomic.Int64
	// redeliverEvery: every n-th message is delivered once more redeliverAfter after its
	// first delivery, as a broker redelivers one after its processing timeout (0: none).
	redeliverEvery int64
	redeliverAfter time.Duration
	// delivered counts every delivery posted.
	delivered atomic.Int64
}

func (s *pubsubStandIn) serve(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1.0-alpha1/publish/bulk/pubsub/orders", s.publishBulk)
	mux.HandleFunc("POST /v1.0/publish/pubsub/orders", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := s.subscribe(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		n := s.n.Add(1)
		copies := 1
		if s.dropEvery > 0 && n%s.dropEvery == 0 {
			copies = 0
		} else if s.doubleEvery > 0 && n%s.doubleEvery == 0 {
			copies = 2
		}
		event, _ := json.Marshal(map[string]any{"specversion": "1.0", "id": fmt.Sprint(n), "data": json.RawMessage(body)})
		if r.URL.Query().Get("metadata.rawPayload") == "true" {
			event, _ = json.Marshal(map[string]any{"specversion": "1.0", "id": fmt.Sprint(n), "data_base64": body})
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			time.Sleep(s.delay)
			post := func() {
				s.delivered.Add(1)
				if resp, err := http.Post(s.subscriberURL+deliveryRoute, "application/cloudevents+json", bytes.NewReader(event)); err == nil {
					resp.Body.Close()
				}
			}
			for range copies {
				post()
			}
			if s.redeliverEvery > 0 && n%s.redeliverEvery == 0 && copies > 0 {
				time.Sleep(s.redeliverAfter)
				post()
			}
		}()
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); s.wg.Wait() })
	return strings.TrimPrefix(srv.URL, "http://")
}

// subscribe asks the app for its subscriptions, once, as daprd does once the app listens.
func (s *pubsubStandIn) subscribe() error {
	if s.subscribed.Load() {
		return nil
	}
	resp, err := http.Get(s.subscriberURL + "/dapr/subscribe")
	if err != nil {
		return err
	}
	var subs []map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&subs)
	resp.Body.Close()
	if len(subs) != 1 || subs[0]["topic"] != "orders" || subs[0]["route"] != deliveryRoute || (subs[0]["bulkSubscribe"] != nil) != s.bulk {
		return fmt.Errorf("subscriptions %v", subs)
	}
	s.subscribed.Store(true)
	return nil
}

// publishBulk takes a bulk publish and delivers its entries as one bulk delivery: CloudEvents,
// or raw messages base64-encoded, as daprd posts a bulk subscriber.
func (s *pubsubStandIn) publishBulk(w http.ResponseWriter, r *http.Request) {
	var entries []struct {
		EntryID string          `json:"entryId"`
		Event   json.RawMessage `json:"event"`
	}
	if err := json.NewDecoder(r.Body).Decode(&entries); err != nil || len(entries) == 0 {
		http.Error(w, fmt.Sprintf("bad body: %v", err), http.StatusBadRequest)
		return
	}
	if err := s.subscribe(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.bulkCalls.Add(1)
	s.bulkEntries.Add(int64(len(entries)))
	delivery := make([]map[string]any, len(entries))
	for i, e := range entries {
		event := any(map[string]any{"specversion": "1.0", "id": e.EntryID, "data": e.Event})
		if r.URL.Query().Get("metadata.rawPayload") == "true" {
			event = []byte(e.Event) // JSON-encoded as base64
		}
		delivery[i] = map[string]any{"entryId": fmt.Sprint(i), "event": event}
	}
	body, _ := json.Marshal(map[string]any{"entries": delivery})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		resp, err := http.Post(s.subscriberURL+deliveryRoute, "application/json", bytes.NewReader(body))
		if err != nil {
			return
		}
		defer resp.Body.Close()
		var answer struct {
			Statuses []struct{ EntryID, Status string } `json:"statuses"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&answer)
		for _, st := range answer.Statuses {
			if st.Status == "SUCCESS" {
				s.answered.Add(1)
			}
		}
	}()
	w.WriteHeader(http.StatusNoContent)
}

// The known answer: a delivery held 20 ms behind its publish reads at least 20 ms at every
// percentile and within a few ms of it at the median; the publish call's own latency does
// not include it. The baseline, on a real stream (miniredis), has its delivery figures too,
// and Dapr's added delivery latency is about the delay.
func TestADeliveryDelayIsRecoveredAsDeliveryLatency(t *testing.T) {
	store := miniredis.RunT(t)
	listen := freeAddr(t)
	dapr := &pubsubStandIn{subscriberURL: "http://" + listen, delay: 20 * time.Millisecond}
	r := runCLI(t, "--qps=200", "--connections=4", "--duration=1s", "--warmup=200ms", "--repetitions=2",
		"--payload-bytes=256", "--target-wait=5s", "--subscriber-listen="+listen,
		"--baseline-url=redis-stream://"+store.Addr()+"/orders", "--dapr-url=dapr-pubsub+http://"+dapr.serve(t)+"/pubsub/orders")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	d := r.summary.Delivery
	if d == nil {
		t.Fatalf("no delivery figures in %+v", r.summary)
	}
	for _, v := range []result.Variant{result.Baseline, result.Dapr} {
		p, ok := d.PathOf(v)
		if !ok || p.Messages.Published < 300 || p.Messages.Lost != 0 || p.Messages.Duplicated != 0 || p.Messages.Delivered != p.Messages.Published {
			t.Errorf("%s: %+v: want every one of ~400 published messages delivered once", v, p.Messages)
		}
	}
	for _, v := range []result.Variant{result.Baseline, result.Dapr} {
		var requests int64
		for _, run := range r.summary.Runs {
			if run.Variant == v {
				requests += run.Requests - run.Errors
			}
		}
		if p, _ := d.PathOf(v); p.Messages.Published != requests {
			t.Errorf("%s: %d published in the measured phases, %d successful requests: the connections' warm-up calls are no phase's", v, p.Messages.Published, requests)
		}
	}
	dp, _ := d.PathOf(result.Dapr)
	p50, _ := dp.Latency(50)
	p0 := dp.Percentiles[0].Us
	if p50 < 20000 || p50 > 30000 || p0 < 20000 {
		t.Errorf("Dapr path delivery p50 %d µs (first percentile %d): want 20-30 ms for a 20 ms delay", p50, p0)
	}
	if m, _ := r.summary.MergedOf(result.Dapr); m.Percentiles[0].Us >= 20000 {
		t.Errorf("the publish call's own p50 is %d µs: it must not wait for the delivery", m.Percentiles[0].Us)
	}
	if d.Added == nil {
		t.Fatal("no added delivery latency with a baseline")
	}
	if a, _ := d.Added.At(50); a.Us < 15000 || a.Us > 30000 || a.LowUs > a.Us || a.HighUs < a.Us {
		t.Errorf("added delivery p50 %+v: want about 20 ms, inside its interval", a)
	}
}

// The known answer's knob: a hold of 20 ms on the Dapr path's deliveries reads as at least
// 20 ms more delivery latency there, and none on the baseline.
func TestAHeldDeliveryReadsAsThatMuchMoreDeliveryLatency(t *testing.T) {
	store := miniredis.RunT(t)
	listen := freeAddr(t)
	dapr := &pubsubStandIn{subscriberURL: "http://" + listen}
	r := runCLI(t, "--qps=100", "--connections=2", "--duration=1s", "--warmup=0s", "--repetitions=1",
		"--payload-bytes=64", "--target-wait=5s", "--subscriber-listen="+listen,
		"--baseline-url=redis-stream://"+store.Addr()+"/orders", "--dapr-url=dapr-pubsub+http://"+dapr.serve(t)+"/pubsub/orders?hold=20ms")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	dp, _ := r.summary.Delivery.PathOf(result.Dapr)
	bp, _ := r.summary.Delivery.PathOf(result.Baseline)
	if p0 := dp.Percentiles[0].Us; p0 < 20000 {
		t.Errorf("the Dapr path's lowest delivery percentile %d µs: want at least the 20 ms hold", p0)
	}
	if p50, _ := bp.Latency(50); p50 >= 20000 {
		t.Errorf("the baseline's delivery p50 %d µs: it was held too", p50)
	}
}

// Messages lost or delivered twice are counted, each exactly, and a lost one never stalls the
// run beyond the drain; raw payloads (data_base64) are read as CloudEvents' data are.
func TestLostAndDuplicatedMessagesAreCounted(t *testing.T) {
	t.Parallel()
	listen := freeAddr(t)
	dapr := &pubsubStandIn{subscriberURL: "http://" + listen, dropEvery: 10, doubleEvery: 7}
	r := runCLI(t, "--qps=100", "--connections=2", "--duration=1s", "--warmup=0s", "--repetitions=1",
		"--payload-bytes=16", "--target-wait=5s", "--subscriber-listen="+listen,
		"--dapr-url=dapr-pubsub+http://"+dapr.serve(t)+"/pubsub/orders?raw=true")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	p, ok := r.summary.Delivery.PathOf(result.Dapr)
	if !ok {
		t.Fatalf("no Dapr path delivery: %+v", r.summary.Delivery)
	}
	// The stand-in numbers every message it was given, the readiness probes' first; count
	// this phase's own from what was published.
	n := p.Messages
	if n.Published < 90 || n.Lost+n.Delivered != n.Published || n.Lost < n.Published/10-2 || n.Lost > n.Published/10+2 {
		t.Errorf("%+v: want about a tenth of the published lost, the rest delivered", n)
	}
	if n.Duplicated < n.Published/7-3 || n.Duplicated > n.Published/7+2 {
		t.Errorf("%+v: want about a seventh delivered twice", n)
	}
}

// A bulk publish puts bulk messages in one call on each path, each message is counted and
// delivered once through a bulk subscription (CloudEvents and raw), and the subscriber
// answers every entry SUCCESS.
func TestBulkPublishAndBulkSubscribeCountEveryMessage(t *testing.T) {
	t.Parallel()
	for _, raw := range []bool{false, true} {
		t.Run(fmt.Sprintf("raw %v", raw), func(t *testing.T) {
			store := miniredis.RunT(t)
			listen := freeAddr(t)
			dapr := &pubsubStandIn{subscriberURL: "http://" + listen, bulk: true}
			q := fmt.Sprintf("?bulk=5&batch=5&awaitMs=100&raw=%v", raw)
			r := runCLI(t, "--qps=100", "--connections=2", "--duration=500ms", "--warmup=0s", "--repetitions=1",
				"--payload-bytes=64", "--target-wait=5s", "--subscriber-listen="+listen,
				"--baseline-url=redis-stream://"+store.Addr()+"/orders?bulk=5&batch=5", "--dapr-url=dapr-pubsub+http://"+dapr.serve(t)+"/pubsub/orders"+q)
			if r.code != 0 {
				t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
			}
			for _, v := range []result.Variant{result.Baseline, result.Dapr} {
				var requests int64
				for _, run := range r.summary.Runs {
					if run.Variant == v {
						requests += run.Requests - run.Errors
					}
				}
				p, ok := r.summary.Delivery.PathOf(v)
				if !ok || requests < 40 || p.Messages.Published != 5*requests || p.Messages.Delivered != p.Messages.Published || p.Messages.Lost != 0 {
					t.Errorf("%s: %d requests, %+v: want 5 messages a request, each delivered", v, requests, p.Messages)
				}
			}
			if calls, entries := dapr.bulkCalls.Load(), dapr.bulkEntries.Load(); calls < 40 || entries < 5*(calls-3) {
				t.Errorf("%d bulk publishes of %d entries: want 5 entries in each (the probes' 1)", calls, entries)
			}
			dapr.wg.Wait()
			if dapr.answered.Load() != dapr.bulkEntries.Load() {
				t.Errorf("%d entries answered SUCCESS of %d delivered", dapr.answered.Load(), dapr.bulkEntries.Load())
			}
		})
	}
}

// The book counts on its own clock: a fake clock gives exact latencies; a message lost is in
// the latency at the least it waited; a message of a phase never measured, or of another
// process, is never a phase's; one delivered after its phase's close is that phase's late
// message (still lost) or duplicate.
func TestTheDeliveryBookTimesOnItsOwnClock(t *testing.T) {
	t.Parallel()
	b := newDeliveryBook()
	var now time.Duration
	b.now = func() time.Duration { return now }
	b.begin("d-0")
	for seq := uint64(1); seq <= 4; seq++ {
		if got := b.next("d-0"); got != seq {
			t.Fatalf("next = %d, want %d", got, seq)
		}
	}
	b.next("d-0") // 5: its publish call failed, and nothing of it arrived by the close
	b.published("d-0", 1, 0)
	b.published("d-0", 3, int64(2*time.Second)) // never delivered
	deliver := func(seq uint64, due, at time.Duration) {
		now = at
		b.delivered(message{Nonce: b.nonce, Phase: "d-0", Seq: seq, Due: int64(due)}, at)
	}
	deliver(1, 0, 3*time.Millisecond)
	deliver(2, time.Second, time.Second+5*time.Millisecond) // delivered before its publish call returned
	b.published("d-0", 2, int64(time.Second))
	deliver(2, time.Second, time.Second+9*time.Millisecond)   // a redelivery
	deliver(4, 2*time.Second, 2*time.Second+time.Millisecond) // its publish call failed
	b.delivered(message{Nonce: b.nonce, Phase: "warm", Seq: 1}, now)
	b.delivered(message{Nonce: "another run", Phase: "d-0", Seq: 3}, now)
	now = 2*time.Second + 7*time.Millisecond
	rec, n, _ := b.close("d-0", time.Time{})
	if n.ReceiptLag == nil || *n.ReceiptLag != (result.ReceiptLag{}) {
		t.Errorf("receipt lag %+v: want none on a clock that did not move between arrival and booking", n.ReceiptLag)
	}
	n.ReceiptLag = nil
	want := result.Messages{Published: 3, Delivered: 3, Lost: 1, Duplicated: 1, Unacknowledged: 1}
	if n != want {
		t.Errorf("counts %+v, want %+v", n, want)
	}
	b.delivered(message{Nonce: b.nonce, Phase: "d-0", Seq: 3}, now) // after the drain: late
	b.delivered(message{Nonce: b.nonce, Phase: "d-0", Seq: 1}, now) // a redelivery after the close
	b.delivered(message{Nonce: b.nonce, Phase: "d-0", Seq: 3}, now) // and of the late one
	b.delivered(message{Nonce: b.nonce, Phase: "d-0", Seq: 5}, now) // never published: not late, never lost
	now += 40 * time.Second
	late := b.lateSince()["d-0"]
	if late.Late != 1 || late.Duplicated != 2 || late.WatchedMs == nil || *late.WatchedMs != 40000 {
		t.Errorf("after the close %+v: want 1 late, 2 duplicated, watched 40 s", late)
	}
	if rec.Latency.TotalCount() != 4 || rec.Latency.Min() != 1000 || !rec.Latency.ValuesAreEquivalent(rec.Latency.Max(), 7000) || len(rec.Blocks) != 3 {
		t.Errorf("latency: %d values, min %d, max %d, %d blocks; want 4 values (the lost one at the 7 ms it waited), 1000-7000 µs, 3 one-second blocks",
			rec.Latency.TotalCount(), rec.Latency.Min(), rec.Latency.Max(), len(rec.Blocks))
	}
	if stray, foreign := b.strays(); stray != 1 || foreign != 1 {
		t.Errorf("strays %d, foreign %d; want 1 (the warm-up's) and 1", stray, foreign)
	}
}

// A message reads the same as published, raw, and inside daprd's CloudEvent.
func TestAMessageDecodesRawAndInsideItsCloudEvent(t *testing.T) {
	t.Parallel()
	raw := encodeMessage(message{Phase: "b-1", Seq: 42, Due: 7, Pad: "abc"})
	event, _ := json.Marshal(map[string]any{"specversion": "1.0", "type": "com.dapr.event.sent", "data": json.RawMessage(raw)})
	// daprd delivers a raw payload to a rawPayload subscription base64-encoded in data_base64.
	rawEvent, _ := json.Marshal(map[string]any{"specversion": "1.0", "datacontenttype": "application/octet-stream", "data_base64": raw})
	for name, b := range map[string][]byte{"raw": raw, "cloudevent": event, "raw payload in a cloudevent": rawEvent} {
		m, err := decodeMessage(b)
		if err != nil || m.Phase != "b-1" || m.Seq != 42 || m.Due != 7 {
			t.Errorf("%s: %+v, %v", name, m, err)
		}
	}
	if _, err := decodeMessage([]byte(`{"specversion":"1.0","data":{"order":1}}`)); err == nil {
		t.Error("a message of someone else's read as daprbench's")
	}
}

// Pub/sub URLs are checked before any load, and one load-tester pod measures them.
func TestPubSubURLsAreCheckedBeforeAnyLoad(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"dapr-pubsub+http://localhost:3500/pubsub",          // no topic
		"dapr-pubsub+grpc://localhost/pubsub/orders",        // no port
		"redis-stream://broker:6379/",                       // no stream
		"redis-stream://broker:6379/a/b",                    // a path, not a stream
		"dapr-pubsub+http://localhost:3500/pubsub/orders/x", // too much
	} {
		if _, err := parseEndpoint(raw); err == nil {
			t.Errorf("%s: accepted", raw)
		}
	}
	for _, raw := range []string{
		"dapr-pubsub+http://localhost:3500/pubsub/orders?bulk=0",   // a bulk of none
		"dapr-pubsub+http://localhost:3500/pubsub/orders?bulk=101", // past daprbench's bound
		"redis-stream://broker:6379/orders?batch=x",                // not a number
	} {
		if _, err := parseEndpoint(raw); err == nil {
			t.Errorf("%s: accepted", raw)
		}
	}
	ep, err := parseEndpoint("dapr-pubsub+grpc://localhost:50001/pubsub/orders?raw=true&subscription=declared")
	if err != nil || ep.kind != viaDaprPublishGRPC || ep.method != "pubsub" || ep.pubsub.topic != "orders" || !ep.pubsub.raw || !ep.pubsub.declared {
		t.Errorf("gRPC URL -> %+v, %v", ep, err)
	}
	cfg := Config{Targets: []Target{{Variant: result.Dapr, URL: "dapr-pubsub+http://localhost:3500/pubsub/orders"}},
		QPS: 10, Connections: 2, Duration: time.Second, Repetitions: 1, Resolution: 0.001,
		Group: &Group{Size: 2, Index: 0, Listen: ":0", Token: "t", Wait: time.Second}}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "one load-tester pod") {
		t.Errorf("a pub/sub path split over two pods: %v", err)
	}
}

// bulkPublishStandIn is a TEST-ONLY stand-in for daprd's gRPC bulk publish: it keeps what it
// was given and fails the entries named in fail.
type bulkPublishStandIn struct {
	runtimev1.UnimplementedDaprServer
	got  *runtimev1.BulkPublishRequest
	fail string
}

func (s *bulkPublishStandIn) BulkPublishEventAlpha1(_ context.Context, req *runtimev1.BulkPublishRequest) (*runtimev1.BulkPublishResponse, error) {
	s.got = req
	resp := &runtimev1.BulkPublishResponse{}
	if s.fail != "" {
		resp.FailedEntries = []*runtimev1.BulkPublishResponseFailedEntry{{EntryId: s.fail, Error: "the broker refused it"}}
	}
	return resp, nil
}

// Over gRPC a bulk is one BulkPublishEventAlpha1 call, its entries numbered, each the message
// as JSON; an entry daprd reports failed fails the request, in daprd's words.
func TestAGRPCBulkPublishIsOneCallAndAFailedEntryFailsIt(t *testing.T) {
	t.Parallel()
	dapr := &bulkPublishStandIn{}
	s := grpc.NewServer()
	runtimev1.RegisterDaprServer(s, dapr)
	p, err := dialPublisher(endpoint{kind: viaDaprPublishGRPC, addr: serveGRPC(t, s), method: "pubsub",
		pubsub: &pubsubEndpoint{topic: "orders", bulkPublish: 3, raw: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	msgs := [][]byte{[]byte(`{"n":1}`), []byte(`{"n":2}`), []byte(`{"n":3}`)}
	if err := p.publish(context.Background(), msgs); err != nil {
		t.Fatal(err)
	}
	g := dapr.got
	if g.GetPubsubName() != "pubsub" || g.GetTopic() != "orders" || len(g.GetEntries()) != 3 || g.GetMetadata()["rawPayload"] != "true" ||
		g.GetEntries()[2].GetEntryId() != "2" || string(g.GetEntries()[2].GetEvent()) != `{"n":3}` {
		t.Errorf("daprd was given %v", g)
	}
	dapr.fail = "1"
	if err := p.publish(context.Background(), msgs); err == nil || !strings.Contains(err.Error(), "the broker refused it") {
		t.Errorf("a failed entry: %v", err)
	}
}

// A phase waits for its last messages 10 s, and a bulk subscription's batch wait on top: a
// batch may hold them that long.
func TestABulkSubscriptionsBatchWaitIsAddedToTheDrain(t *testing.T) {
	t.Parallel()
	for query, want := range map[string]time.Duration{"": DeliveryDrain, "?batch=100&awaitMs=2500": DeliveryDrain + 2500*time.Millisecond} {
		s, err := startAppServer(context.Background(), []Target{{Variant: result.Dapr, URL: "dapr-pubsub+http://localhost:3500/pubsub/orders" + query}},
			freeAddr(t), time.Second, time.Second, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if s.drain != want {
			t.Errorf("%q: drain %v, want %v", query, s.drain, want)
		}
		s.stop()
	}
}

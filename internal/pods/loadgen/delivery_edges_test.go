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
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// The known answer: a delivery whose body trickles in over 100 ms is timed to its arrival,
// and the 100 ms reads as the subscriber's receipt lag, not as delivery latency.
func TestADeliveryIsTimedFromItsArrivalAndItsReadingIsReceiptLag(t *testing.T) {
	listen := freeAddr(t)
	target := Target{Variant: result.Dapr, URL: "dapr-pubsub+http://127.0.0.1:1/pubsub/orders"}
	sub, err := startAppServer(context.Background(), []Target{target}, listen, time.Second, time.Second, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.stop()
	sub.book.begin("dapr-0")
	seq := sub.book.next("dapr-0")
	due := sub.book.offset(time.Now())
	sub.book.published("dapr-0", seq, due)
	body := encodeMessage(message{Nonce: sub.book.nonce, Phase: "dapr-0", Seq: seq, Due: due})

	conn, err := net.Dial("tcp", listen)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: app\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", deliveryRoute, len(body), body[:5])
	time.Sleep(100 * time.Millisecond) // the rest of the body arrives late
	_, _ = conn.Write(body[5:])
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	rec, n, _ := sub.book.close("dapr-0", time.Time{})
	if n.Delivered != 1 || n.ReceiptLag == nil {
		t.Fatalf("counts %+v: want the one message delivered, with its receipt lag", n)
	}
	if got := rec.Latency.Max(); got >= 50000 {
		t.Errorf("delivery latency %d µs: want it to end at the arrival, before the 100 ms body", got)
	}
	if n.ReceiptLag.MaxUs < 100000 {
		t.Errorf("receipt lag %+v: want at least the 100 ms the body took", n.ReceiptLag)
	}
}

// A redelivery after its phase closed (a broker's, after its processing timeout) is that
// phase's duplicate, and the result says how long the phases were watched for one.
func TestARedeliveryAfterItsPhaseClosedIsCounted(t *testing.T) {
	t.Parallel()
	listen := freeAddr(t)
	dapr := &pubsubStandIn{subscriberURL: "http://" + listen, redeliverEvery: 5, redeliverAfter: 1500 * time.Millisecond}
	r := runCLI(t, "--qps=100", "--connections=2", "--duration=1s", "--warmup=0s", "--repetitions=2",
		"--payload-bytes=16", "--target-wait=5s", "--subscriber-listen="+listen,
		"--dapr-url=dapr-pubsub+http://"+dapr.serve(t)+"/pubsub/orders")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	p, ok := r.summary.Delivery.PathOf(result.Dapr)
	if !ok {
		t.Fatalf("no Dapr path delivery: %+v", r.summary.Delivery)
	}
	// Every redelivery comes 1.5 s after its message, later than its 1 s phase's close:
	// the first phase's early messages' come back while the second runs.
	n := p.Messages
	if n.Duplicated < 5 || n.Lost != 0 {
		t.Errorf("%+v: want the first phase's redeliveries (about 10) counted duplicated, none lost", n)
	}
	if n.WatchedMs == nil || *n.WatchedMs > 1000 {
		t.Errorf("watched %v ms: want the last phase's short watch stated", n.WatchedMs)
	}
}

// The daprd CPU of a phase is read through its drain: delivering the phase's last messages
// is its work. The stand-in's counter advances 1 ms per delivery, and deliveries come 300 ms
// behind their publish, so a third of the phase's arrive after its load ended.
func TestADaprdsCPUWindowIncludesItsPhasesDrain(t *testing.T) {
	listen := freeAddr(t)
	dapr := &pubsubStandIn{subscriberURL: "http://" + listen, delay: 300 * time.Millisecond}
	metrics := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "process_cpu_seconds_total %.3f\n", float64(dapr.delivered.Load())/1000)
	}))
	defer metrics.Close()
	r := runCLI(t, "--qps=100", "--connections=2", "--duration=1s", "--warmup=0s", "--repetitions=1",
		"--payload-bytes=16", "--target-wait=5s", "--subscriber-listen="+listen, "--daprd-metrics-client-url="+metrics.URL,
		"--dapr-url=dapr-pubsub+http://"+dapr.serve(t)+"/pubsub/orders")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	p, _ := r.summary.Delivery.PathOf(result.Dapr)
	cpu := r.summary.Runs[0].DaprdCPU
	if cpu == nil || cpu.ClientMs == nil {
		t.Fatalf("no daprd CPU read: %+v", r.summary.Runs[0])
	}
	if *cpu.ClientMs < p.Messages.Delivered {
		t.Errorf("daprd CPU %d ms over a phase of %d deliveries at 1 ms each: the drain's deliveries were left out", *cpu.ClientMs, p.Messages.Delivered)
	}
}

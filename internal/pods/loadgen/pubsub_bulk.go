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
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
)

// Bulk publish and bulk subscribe, both alpha in Dapr: a request's messages go to daprd in
// one call, and daprd delivers messages to the subscriber in batches.

// bulkBody is daprd's HTTP bulk publish body: each message an entry, numbered in the
// request, its event the message itself (JSON, so daprd wraps it in a CloudEvent unless raw).
func bulkBody(msgs [][]byte) []byte {
	var b []byte
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"entryId":"`+strconv.Itoa(i)+`","contentType":"application/json","event":`...)
		b = append(append(b, m...), '}')
	}
	return append(b, ']')
}

func (d *daprGRPCPublisher) publishBulk(ctx context.Context, msgs [][]byte) error {
	entries := make([]*runtimev1.BulkPublishRequestEntry, len(msgs))
	for i, m := range msgs {
		entries[i] = &runtimev1.BulkPublishRequestEntry{EntryId: strconv.Itoa(i), Event: m, ContentType: "application/json"}
	}
	resp, err := d.client.BulkPublishEventAlpha1(ctx, &runtimev1.BulkPublishRequest{PubsubName: d.pubsub, Topic: d.topic,
		Entries: entries, Metadata: d.metadata})
	if err != nil {
		return err
	}
	if failed := resp.GetFailedEntries(); len(failed) > 0 {
		return statusError{code: http.StatusInternalServerError,
			body: fmt.Sprintf("%d of %d entries failed, the first: %s", len(failed), len(msgs), failed[0].GetError())}
	}
	return nil
}

// bulkDelivery is what daprd posts a bulk subscriber: entries of CloudEvents, or of the
// raw messages base64-encoded (a JSON string) when rawPayload is set.
type bulkDelivery struct {
	Entries []struct {
		EntryID string          `json:"entryId"`
		Event   json.RawMessage `json:"event"`
	} `json:"entries"`
}

// deliverBulk reads a bulk delivery that arrived at arrived into the book and answers
// daprd's statuses: SUCCESS for every entry, as the single delivery does (a message this
// subscriber cannot read is not one to retry).
func deliverBulk(body []byte, arrived time.Duration, book *deliveryBook) []byte {
	var d bulkDelivery
	_ = json.Unmarshal(body, &d)
	statuses := make([]map[string]string, 0, len(d.Entries))
	for _, e := range d.Entries {
		event := []byte(e.Event)
		if strings.HasPrefix(string(event), `"`) { // a raw message: base64 in a JSON string
			var raw []byte
			if json.Unmarshal(event, &raw) == nil {
				event = raw
			}
		}
		if m, err := decodeMessage(event); err == nil {
			book.delivered(m, arrived)
		}
		statuses = append(statuses, map[string]string{"entryId": e.EntryID, "status": "SUCCESS"})
	}
	answer, _ := json.Marshal(map[string]any{"statuses": statuses})
	return answer
}

// bulkSubscription is a programmatic subscription's bulkSubscribe, Dapr's field names.
func bulkSubscription(ep endpoint) map[string]any {
	return map[string]any{"enabled": true, "maxMessagesCount": ep.pubsub.batch, "maxAwaitDurationMs": ep.pubsub.awaitMs}
}

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

	commonv1 "github.com/dapr/dapr/pkg/proto/common/v1"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"github.com/redis/go-redis/v9"
)

// The bulk operations, one call each on every path. daprd's state.redis has no bulk read or
// write of its own: daprd runs a BulkGet's reads and a BulkSave's writes in parallel, one
// store round trip each, and a Transaction as one MULTI/EXEC. The baseline does what a
// direct client would: a BulkGet's reads and a BulkSave's writes in one pipeline (one round
// trip), a Transaction's writes in one MULTI/EXEC. So a bulk operation's added latency
// includes that difference of method as well as Dapr's own work, and says so.

// bulkItemError is one key of a bulk answer that daprd reports failed, in its words.
func bulkItemError(key, message string) error {
	return statusError{code: http.StatusInternalServerError, body: fmt.Sprintf("key %s: %s", key, message)}
}

// bulkAnswerError is a bulk answer with another number of keys than asked.
func bulkAnswerError(got, want int) error {
	return statusError{code: http.StatusBadGateway, body: fmt.Sprintf("daprd answered %d keys of %d", got, want)}
}

func (d *daprHTTPState) bulkGet(ctx context.Context, keys []int) error {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = stateKey(k)
	}
	payload, _ := json.Marshal(map[string][]string{"keys": names})
	body, err := d.post(ctx, "/bulk", payload, http.StatusOK)
	if err != nil {
		return err
	}
	var items []struct {
		Key   string          `json:"key"`
		Data  json.RawMessage `json:"data"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal(body, &items); err != nil {
		return statusError{code: http.StatusBadGateway, body: "daprd's bulk answer: " + err.Error()}
	}
	if len(items) != len(keys) {
		return bulkAnswerError(len(items), len(keys))
	}
	for _, it := range items {
		switch {
		case it.Error != "":
			return bulkItemError(it.Key, it.Error)
		case len(it.Data) == 0:
			return errKeyMissing
		}
	}
	return nil
}

func (d *daprHTTPState) bulkSave(ctx context.Context, keys []int, value []byte) error {
	payload := make([]byte, 0, len(keys)*(len(value)+32)+2)
	payload = append(payload, '[')
	for i, k := range keys {
		if i > 0 {
			payload = append(payload, ',')
		}
		payload = append(payload, `{"key":"`+stateKey(k)+`","value":`...)
		payload = append(append(payload, value...), '}')
	}
	_, err := d.post(ctx, "", append(payload, ']'), http.StatusNoContent)
	return err
}

func (d *daprHTTPState) transact(ctx context.Context, keys []int, value []byte) error {
	payload := make([]byte, 0, len(keys)*(len(value)+64)+20)
	payload = append(payload, `{"operations":[`...)
	for i, k := range keys {
		if i > 0 {
			payload = append(payload, ',')
		}
		payload = append(payload, `{"operation":"upsert","request":{"key":"`+stateKey(k)+`","value":`...)
		payload = append(append(payload, value...), "}}"...)
	}
	_, err := d.post(ctx, "/transaction", append(payload, "]}"...), http.StatusNoContent)
	return err
}

func (d *daprGRPCState) bulkGet(ctx context.Context, keys []int) error {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = stateKey(k)
	}
	resp, err := d.client.GetBulkState(ctx, &runtimev1.GetBulkStateRequest{StoreName: d.store, Keys: names})
	if err != nil {
		return err
	}
	if len(resp.GetItems()) != len(keys) {
		return bulkAnswerError(len(resp.GetItems()), len(keys))
	}
	for _, it := range resp.GetItems() {
		switch {
		case it.GetError() != "":
			return bulkItemError(it.GetKey(), it.GetError())
		case len(it.GetData()) == 0:
			return errKeyMissing
		}
	}
	return nil
}

func (d *daprGRPCState) bulkSave(ctx context.Context, keys []int, value []byte) error {
	items := make([]*commonv1.StateItem, len(keys))
	for i, k := range keys {
		items[i] = &commonv1.StateItem{Key: stateKey(k), Value: value}
	}
	_, err := d.client.SaveState(ctx, &runtimev1.SaveStateRequest{StoreName: d.store, States: items})
	return err
}

func (d *daprGRPCState) transact(ctx context.Context, keys []int, value []byte) error {
	ops := make([]*runtimev1.TransactionalStateOperation, len(keys))
	for i, k := range keys {
		ops[i] = &runtimev1.TransactionalStateOperation{OperationType: "upsert",
			Request: &commonv1.StateItem{Key: stateKey(k), Value: value}}
	}
	_, err := d.client.ExecuteStateTransaction(ctx, &runtimev1.ExecuteStateTransactionRequest{StoreName: d.store, Operations: ops})
	return err
}

func (r *redisState) bulkGet(ctx context.Context, keys []int) error {
	cmds := make([]*redis.MapStringStringCmd, len(keys))
	if _, err := r.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, k := range keys {
			cmds[i] = p.HGetAll(ctx, directKeyPrefix+stateKey(k))
		}
		return nil
	}); err != nil {
		return err
	}
	for _, c := range cmds {
		if c.Val()["data"] == "" {
			return errKeyMissing
		}
	}
	return nil
}

func (r *redisState) bulkSave(ctx context.Context, keys []int, value []byte) error {
	_, err := r.client.Pipelined(ctx, func(p redis.Pipeliner) error { return r.queueWrites(ctx, p, keys, value) })
	return err
}

func (r *redisState) transact(ctx context.Context, keys []int, value []byte) error {
	_, err := r.client.TxPipelined(ctx, func(p redis.Pipeliner) error { return r.queueWrites(ctx, p, keys, value) })
	return err
}

// queueWrites queues one hash write per key, as the single save writes it.
func (r *redisState) queueWrites(ctx context.Context, p redis.Pipeliner, keys []int, value []byte) error {
	for _, k := range keys {
		p.HSet(ctx, directKeyPrefix+stateKey(k), "data", value, "version", 1)
	}
	return nil
}

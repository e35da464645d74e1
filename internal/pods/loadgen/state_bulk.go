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

// bulkItem is one key of daprd's bulk answer, over HTTP or gRPC alike.
type bulkItem struct {
	key, err string
	found    bool
}

// checkBulkAnswer fails a bulk read whose answer holds another number of keys than asked, a
// key daprd reports failed (in its words), or a key without a value.
func checkBulkAnswer(items []bulkItem, asked int) error {
	if len(items) != asked {
		return statusError{code: http.StatusBadGateway, body: fmt.Sprintf("daprd answered %d keys of %d", len(items), asked)}
	}
	for _, it := range items {
		switch {
		case it.err != "":
			return bulkItemError(it.key, it.err)
		case !it.found:
			return errKeyMissing
		}
	}
	return nil
}

// stateKeys are the keys' names as every path writes them.
func stateKeys(keys []int) []string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = stateKey(k)
	}
	return names
}

func (d *daprHTTPState) bulkGet(ctx context.Context, keys []int) error {
	payload, _ := json.Marshal(map[string][]string{"keys": stateKeys(keys)})
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
	answer := make([]bulkItem, len(items))
	for i, it := range items {
		answer[i] = bulkItem{key: it.Key, err: it.Error, found: len(it.Data) > 0}
	}
	return checkBulkAnswer(answer, len(keys))
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
	resp, err := d.client.GetBulkState(ctx, &runtimev1.GetBulkStateRequest{StoreName: d.store, Keys: stateKeys(keys)})
	if err != nil {
		return err
	}
	answer := make([]bulkItem, len(resp.GetItems()))
	for i, it := range resp.GetItems() {
		answer[i] = bulkItem{key: it.GetKey(), err: it.GetError(), found: len(it.GetData()) > 0}
	}
	return checkBulkAnswer(answer, len(keys))
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

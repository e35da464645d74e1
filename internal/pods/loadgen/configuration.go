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
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"fortio.org/fortio/periodic"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"github.com/redis/go-redis/v9"
)

// configurationPaths are a Configuration run's paths, each request reading one item of
// keys, drawn uniformly at random:
//
//	dapr-configuration+http://localhost:3500/STORE?keys=N   daprd's HTTP configuration API
//	dapr-configuration+grpc://localhost:50001/STORE?keys=N  its gRPC API (GetConfiguration)
//	redis-configuration://HOST:PORT/?keys=N                  the store itself, one GET (the baseline)
//
// The baseline writes every item before the load, as Dapr's configuration.redis keeps them
// ("value||version"); the Dapr path is ready when its daprd reads one back.
type configurationPaths struct{}

func (configurationPaths) schemes() map[string]endpointKind {
	return map[string]endpointKind{"dapr-configuration+http": viaDaprConfigHTTP, "dapr-configuration+grpc": viaDaprConfigGRPC, "redis-configuration": viaRedisConfig}
}

func (f configurationPaths) parse(raw string, u *url.URL) (endpoint, error) {
	ep := endpoint{kind: f.schemes()[u.Scheme], addr: u.Host, method: strings.Trim(u.Path, "/"), configuration: &configurationEndpoint{}}
	keys, err := strconv.Atoi(u.Query().Get("keys"))
	switch {
	case u.Port() == "":
		return endpoint{}, fmt.Errorf("%q: the address needs a port", raw)
	case ep.kind != viaRedisConfig && (ep.method == "" || strings.Contains(ep.method, "/")):
		return endpoint{}, fmt.Errorf("%q: want the configuration store's name as the path", raw)
	case err != nil || keys < 1:
		return endpoint{}, fmt.Errorf("%q: keys must be a positive number", raw)
	}
	ep.configuration.keys = keys
	return ep, nil
}

func (configurationPaths) host(*appServer, endpoint, time.Duration, time.Duration) {}

// ready: the baseline writes every item (the store up and its password taken); the Dapr
// path reads one back (daprd up, its Component loaded, the items written), at least 30 s.
func (configurationPaths) ready(ctx context.Context, p path, bound time.Duration, _ int) error {
	bound = max(bound, 30*time.Second)
	wctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	last, err := poll(wctx, func(ctx context.Context) error {
		if p.ep.kind == viaRedisConfig {
			return seedConfiguration(ctx, p.ep, p.body) // up to 64 MiB of items: bounded by the wait alone
		}
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		c, err := dialConfiguration(p.ep)
		if err != nil {
			return err
		}
		defer c.close()
		return c.get(ctx, configurationKey(0))
	})
	if err != nil {
		return fmt.Errorf("%s path %s: not ready within %v (last: %s); the baseline writes the items the Dapr path reads", p.target.Variant, p.target.URL, bound, last)
	}
	return nil
}

func (configurationPaths) run(opts *periodic.RunnerOptions, p path, timeout time.Duration, _ string) (outcome, any, error) {
	out, err := runThreads(opts, timeout, stateStatusOf, func() (threadConn, error) {
		c, err := dialConfiguration(p.ep)
		if err != nil {
			return nil, err
		}
		return &configurationConn{client: c, keys: p.ep.configuration.keys, rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}, nil
	})
	return out, out, err
}

// configurationKey is item i's key in the store, as both paths read it.
func configurationKey(i int) string { return "daprbench-item-" + strconv.Itoa(i) }

// configurationValue is what the baseline writes of every item: the payload as letters,
// then configuration.redis's separator and a version.
func configurationValue(body []byte) string { return lettersOf(body) + "||1" }

// seedConfiguration writes every item of ep's store in one pipelined round trip per 100.
func seedConfiguration(ctx context.Context, ep endpoint, body []byte) error {
	client := newRedisClient(ep, 1)
	defer client.Close()
	value := configurationValue(body)
	for start := 0; start < ep.configuration.keys; start += 100 {
		pipe := client.Pipeline()
		for i := start; i < min(start+100, ep.configuration.keys); i++ {
			pipe.Set(ctx, configurationKey(i), value, 0)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return fmt.Errorf("writing the items: %w", err)
		}
	}
	return nil
}

// configurationClient reads one item a call, on one connection.
type configurationClient interface {
	get(ctx context.Context, key string) error
	close()
}

func dialConfiguration(ep endpoint) (configurationClient, error) {
	switch ep.kind {
	case viaDaprConfigHTTP:
		return &daprHTTPConfiguration{url: fmt.Sprintf("http://%s/v1.0/configuration/%s?key=", ep.addr, url.PathEscape(ep.method)),
			client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}}}, nil
	case viaDaprConfigGRPC:
		conn, err := dialGRPC(ep.addr)
		if err != nil {
			return nil, fmt.Errorf("dialling %s: %w", ep.addr, err)
		}
		return &daprGRPCConfiguration{conn: conn, client: runtimev1.NewDaprClient(conn), store: ep.method}, nil
	default:
		return &redisConfiguration{client: newRedisClient(ep, 1)}, nil
	}
}

// configurationConn is a fortio thread's connection: each call reads a random item.
type configurationConn struct {
	client configurationClient
	keys   int
	rng    *rand.Rand
}

func (c *configurationConn) call(ctx context.Context) error {
	return c.client.get(ctx, configurationKey(c.rng.IntN(c.keys)))
}

func (c *configurationConn) close() { c.client.close() }

// daprHTTPConfiguration is daprd's HTTP configuration API on one keep-alive connection: an
// item missing from its answer (204 when it has none) is a missing key, as State counts one.
type daprHTTPConfiguration struct {
	url    string
	client *http.Client
}

func (d *daprHTTPConfiguration) get(ctx context.Context, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.url+url.QueryEscape(key), nil)
	if err != nil {
		return err
	}
	body, code, err := readAnswer(d.client, req)
	if err != nil {
		return err
	}
	switch {
	case code == http.StatusNoContent: // daprd's answer when the store has none of the keys
		return errKeyMissing
	case code != http.StatusOK:
		return statusError{code, string(body)}
	}
	var items map[string]json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		return fmt.Errorf("daprd's answer: %w", err)
	}
	if _, ok := items[key]; !ok {
		return errKeyMissing
	}
	return nil
}

func (d *daprHTTPConfiguration) close() { d.client.CloseIdleConnections() }

// daprGRPCConfiguration is daprd's gRPC configuration API (GetConfiguration) on one connection.
type daprGRPCConfiguration struct {
	conn   interface{ Close() error }
	client runtimev1.DaprClient
	store  string
}

func (d *daprGRPCConfiguration) get(ctx context.Context, key string) error {
	resp, err := d.client.GetConfiguration(ctx, &runtimev1.GetConfigurationRequest{StoreName: d.store, Keys: []string{key}})
	if err != nil {
		return err
	}
	if _, ok := resp.GetItems()[key]; !ok {
		return errKeyMissing
	}
	return nil
}

func (d *daprGRPCConfiguration) close() { _ = d.conn.Close() }

// redisConfiguration is the baseline: the store itself, one GET an item, as
// configuration.redis makes for a request of one key.
type redisConfiguration struct{ client *redis.Client }

func (r *redisConfiguration) get(ctx context.Context, key string) error {
	err := r.client.Get(ctx, key).Err()
	if errors.Is(err, redis.Nil) {
		return errKeyMissing
	}
	return err
}

func (r *redisConfiguration) close() { _ = r.client.Close() }

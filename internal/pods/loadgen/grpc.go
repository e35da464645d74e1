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
	"net/http"
	"net/url"
	"strings"
	"time"

	"fortio.org/fortio/periodic"
	commonv1 "github.com/dapr/dapr/pkg/proto/common/v1"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
)

// grpcPaths are invocations over gRPC: through daprd's gRPC API (dapr-grpc://HOST:PORT/APPID/METHOD
// invokes APPID's METHOD) or the app's callback service called directly
// (grpc://HOST:PORT/METHOD), each call on fortio's periodic runner.
type grpcPaths struct{}

func (grpcPaths) schemes() map[string]endpointKind {
	return map[string]endpointKind{"dapr-grpc": viaDaprGRPC, "grpc": viaAppGRPC}
}

func (grpcPaths) parse(_ string, u *url.URL) (endpoint, error) {
	path := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch {
	case u.Scheme == "dapr-grpc" && u.Port() != "" && len(path) == 2 && path[0] != "" && path[1] != "":
		return endpoint{kind: viaDaprGRPC, addr: u.Host, appID: path[0], method: path[1]}, nil
	case u.Scheme == "grpc" && u.Port() != "" && len(path) == 1 && path[0] != "":
		return endpoint{kind: viaAppGRPC, addr: u.Host, method: path[0]}, nil
	}
	return endpoint{}, errUsage
}

func (grpcPaths) host(*appServer, endpoint, time.Duration, time.Duration) {}

// ready makes the run's own call until it succeeds (no wait when bound is 0).
func (grpcPaths) ready(ctx context.Context, p path, bound time.Duration, _ int) error {
	if bound <= 0 {
		return nil
	}
	if last, err := waitForGRPC(ctx, p.ep, p.body, bound); err != nil {
		return fmt.Errorf("%s target %s did not answer OK within %v (last: %s)", p.target.Variant, p.target.URL, bound, last)
	}
	return nil
}

func (grpcPaths) run(opts *periodic.RunnerOptions, p path, timeout time.Duration, _ string) (outcome, any, error) {
	out, err := runGRPC(opts, p.ep, p.body, timeout)
	return out, out, err
}

// grpcCall makes one invocation over conn.
type grpcCall func(ctx context.Context, conn *grpc.ClientConn) error

// newGRPCCall builds the call of a gRPC target: daprd's InvokeService (the caller's sidecar
// forwards it to the app, over the app's protocol) or the app's own OnInvoke (the baseline).
// The request is built once and shared read-only by every call.
func newGRPCCall(ep endpoint, body []byte) grpcCall {
	verb := commonv1.HTTPExtension_GET
	if len(body) > 0 {
		verb = commonv1.HTTPExtension_POST
	}
	msg := &commonv1.InvokeRequest{
		Method:        ep.method,
		Data:          &anypb.Any{Value: body},
		ContentType:   "application/octet-stream",
		HttpExtension: &commonv1.HTTPExtension{Verb: verb},
	}
	if ep.kind == viaDaprGRPC {
		req := &runtimev1.InvokeServiceRequest{Id: ep.appID, Message: msg}
		return func(ctx context.Context, conn *grpc.ClientConn) error {
			_, err := runtimev1.NewDaprClient(conn).InvokeService(ctx, req)
			return err
		}
	}
	return func(ctx context.Context, conn *grpc.ClientConn) error {
		_, err := runtimev1.NewAppCallbackClient(conn).OnInvoke(ctx, msg)
		return err
	}
}

func dialGRPC(addr string) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
}

// grpcConn is one connection of a gRPC target: fortio's thread makes its calls on it.
type grpcConn struct {
	conn *grpc.ClientConn
	do   grpcCall
}

func (g grpcConn) call(ctx context.Context) error { return g.do(ctx, g.conn) }
func (g grpcConn) close()                         { _ = g.conn.Close() }

// runGRPC makes one fortio run of a gRPC target with fortio's periodic runner: fortio paces
// the calls and keeps the histograms, as for HTTP.
func runGRPC(opts *periodic.RunnerOptions, ep endpoint, body []byte, timeout time.Duration) (outcome, error) {
	call := newGRPCCall(ep, body)
	return runThreads(opts, timeout, httpStatusOf, func() (threadConn, error) {
		conn, err := dialGRPC(ep.addr)
		if err != nil {
			return nil, fmt.Errorf("dialling %s: %w", ep.addr, err)
		}
		return grpcConn{conn: conn, do: call}, nil
	})
}

// waitForGRPC makes the run's own call until it succeeds, for at most bound.
func waitForGRPC(ctx context.Context, ep endpoint, body []byte, bound time.Duration) (last string, err error) {
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	conn, err := dialGRPC(ep.addr)
	if err != nil {
		return err.Error(), err
	}
	defer conn.Close()
	call := newGRPCCall(ep, body)
	return poll(ctx, func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return call(ctx, conn)
	})
}

// httpStatusOf maps a call's outcome to the HTTP status an HTTP caller would have seen, so
// both protocols count errors alike (200 is success): gRPC's code → HTTP table, and -1, as
// fortio's HTTP runner reports a socket error, for an error that carries no gRPC status.
func httpStatusOf(err error) int {
	if err == nil {
		return http.StatusOK
	}
	s, ok := status.FromError(err)
	if !ok {
		if errors.Is(err, context.DeadlineExceeded) {
			return http.StatusGatewayTimeout
		}
		return -1
	}
	// grpc-go reports a failed connection as Unavailable "connection error: …": that is a
	// socket error, not an answer.
	if s.Code() == codes.Unavailable && strings.Contains(s.Message(), "connection error") {
		return -1
	}
	if c, found := grpcToHTTP[s.Code()]; found {
		return c
	}
	return http.StatusInternalServerError
}

// grpcToHTTP is the mapping of google.rpc.Code's documentation (as grpc-gateway uses).
var grpcToHTTP = map[codes.Code]int{
	codes.OK:                 http.StatusOK,
	codes.Canceled:           499,
	codes.Unknown:            http.StatusInternalServerError,
	codes.InvalidArgument:    http.StatusBadRequest,
	codes.DeadlineExceeded:   http.StatusGatewayTimeout,
	codes.NotFound:           http.StatusNotFound,
	codes.AlreadyExists:      http.StatusConflict,
	codes.PermissionDenied:   http.StatusForbidden,
	codes.Unauthenticated:    http.StatusUnauthorized,
	codes.ResourceExhausted:  http.StatusTooManyRequests,
	codes.FailedPrecondition: http.StatusBadRequest,
	codes.Aborted:            http.StatusConflict,
	codes.OutOfRange:         http.StatusBadRequest,
	codes.Unimplemented:      http.StatusNotImplemented,
	codes.Internal:           http.StatusInternalServerError,
	codes.Unavailable:        http.StatusServiceUnavailable,
	codes.DataLoss:           http.StatusInternalServerError,
}

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
	"net"
	"sync"
	"testing"

	commonv1 "github.com/dapr/dapr/pkg/proto/common/v1"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/daprbench/daprbench/internal/pods/perfapp"
)

// grpcDaprStandIn is a TEST-ONLY stand-in for daprd's gRPC API (the real daprd runs in the
// e2e suite): InvokeService forwards to the one app it knows over the app's gRPC callback
// service, as daprd does for dapr.io/app-protocol grpc, and answers NotFound for any other
// app id. It records the requests so a test can check what the load tester sent.
type grpcDaprStandIn struct {
	runtimev1.UnimplementedDaprServer
	appID string
	app   runtimev1.AppCallbackClient

	mu   sync.Mutex
	seen []*runtimev1.InvokeServiceRequest
}

func (s *grpcDaprStandIn) InvokeService(ctx context.Context, req *runtimev1.InvokeServiceRequest) (*commonv1.InvokeResponse, error) {
	s.mu.Lock()
	if len(s.seen) < 10 {
		s.seen = append(s.seen, req)
	}
	s.mu.Unlock()
	if req.GetId() != s.appID {
		return nil, status.Errorf(codes.NotFound, "app %q not found", req.GetId())
	}
	return s.app.OnInvoke(ctx, req.GetMessage())
}

// startGRPCPerfapp serves perfapp's gRPC callback service on loopback.
func startGRPCPerfapp(t *testing.T) (*perfapp.App, string) {
	t.Helper()
	app := perfapp.New(perfapp.Config{ResponseBytes: 16})
	return app, serveGRPC(t, app.GRPCServer())
}

// startGRPCDapr serves the stand-in in front of the app at appAddr, known as appID.
func startGRPCDapr(t *testing.T, appID, appAddr string) (*grpcDaprStandIn, string) {
	t.Helper()
	conn, err := dialGRPC(appAddr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	d := &grpcDaprStandIn{appID: appID, app: runtimev1.NewAppCallbackClient(conn)}
	s := grpc.NewServer()
	runtimev1.RegisterDaprServer(s, d)
	return d, serveGRPC(t, s)
}

func serveGRPC(t *testing.T, s *grpc.Server) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(l) }()
	t.Cleanup(s.Stop)
	return l.Addr().String()
}

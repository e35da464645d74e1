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

package perfapp

import (
	"context"
	"net"
	"testing"
	"time"

	commonv1 "github.com/dapr/dapr/pkg/proto/common/v1"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/emptypb"
)

// The app-callback service as daprd drives it for dapr.io/app-protocol grpc, over real
// gRPC on loopback: start-up questions answered with nothing, the invocation method served
// with the configured body, any other method NotFound; then a graceful stop.
func TestAppCallbackOverGRPC(t *testing.T) {
	app := New(Config{ResponseBytes: 5})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeGRPC(ctx, l, app.GRPCServer(), time.Second) }()

	conn, err := grpc.NewClient(l.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := runtimev1.NewAppCallbackClient(conn)
	if subs, err := client.ListTopicSubscriptions(ctx, &emptypb.Empty{}); err != nil || len(subs.GetSubscriptions()) != 0 {
		t.Errorf("ListTopicSubscriptions = %v, %v; want none", subs, err)
	}
	if b, err := client.ListInputBindings(ctx, &emptypb.Empty{}); err != nil || len(b.GetBindings()) != 0 {
		t.Errorf("ListInputBindings = %v, %v; want none", b, err)
	}
	resp, err := client.OnInvoke(ctx, &commonv1.InvokeRequest{Method: InvokeMethod, Data: &anypb.Any{Value: []byte("{}")}})
	if err != nil || string(resp.GetData().GetValue()) != "xxxxx" {
		t.Errorf("OnInvoke(test) = %v, %v; want the 5-byte body", resp, err)
	}
	if _, err := client.OnInvoke(ctx, &commonv1.InvokeRequest{Method: "other"}); status.Code(err) != codes.NotFound {
		t.Errorf("OnInvoke(other) = %v, want NotFound", err)
	}
	if got := app.Stats.Invocations.Load(); got != 1 {
		t.Errorf("invocations = %d, want 1 (the unknown method is not one)", got)
	}
	cancel()
	waitServed(t, served, "ServeGRPC")
}

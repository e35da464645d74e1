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

	commonv1 "github.com/dapr/dapr/pkg/proto/common/v1"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/emptypb"
)

// GRPCServer serves Dapr's app-callback gRPC service: what daprd calls on an app whose
// dapr.io/app-protocol is grpc, and what the baseline calls directly over gRPC. The
// invocation method answers like the HTTP one: the same response body, counted alike.
func (a *App) GRPCServer() *grpc.Server {
	s := grpc.NewServer()
	runtimev1.RegisterAppCallbackServer(s, &appCallback{app: a, response: &anypb.Any{Value: a.response}})
	return s
}

type appCallback struct {
	runtimev1.UnimplementedAppCallbackServer
	app      *App
	response *anypb.Any // built once, shared read-only by every call
}

// OnInvoke answers the invocation method; any other method is NotFound, as an unknown
// HTTP route is 404.
func (c *appCallback) OnInvoke(_ context.Context, req *commonv1.InvokeRequest) (*commonv1.InvokeResponse, error) {
	if req.GetMethod() != InvokeMethod {
		return nil, status.Errorf(codes.NotFound, "method %q not served: only %q", req.GetMethod(), InvokeMethod)
	}
	c.app.Stats.Invocations.Add(1)
	return &commonv1.InvokeResponse{Data: c.response, ContentType: "application/octet-stream"}, nil
}

// ListTopicSubscriptions and ListInputBindings answer daprd's start-up questions: none.
func (c *appCallback) ListTopicSubscriptions(context.Context, *emptypb.Empty) (*runtimev1.ListTopicSubscriptionsResponse, error) {
	return &runtimev1.ListTopicSubscriptionsResponse{}, nil
}

func (c *appCallback) ListInputBindings(context.Context, *emptypb.Empty) (*runtimev1.ListInputBindingsResponse, error) {
	return &runtimev1.ListInputBindingsResponse{}, nil
}

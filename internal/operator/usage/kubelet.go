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

package usage

import (
	"context"
	"fmt"

	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// CounterSource is a node's kubelet /metrics/cadvisor text.
type CounterSource interface {
	Cadvisor(ctx context.Context, node string) ([]byte, error)
	// Describe names where the counters come from, for status.
	Describe() string
}

// NodeProxy reads the kubelet's counters through the API server's node proxy
// (GET nodes/NAME/proxy/metrics/cadvisor; RBAC: get on nodes/proxy). The API server holds
// the kubelet client certificate, so this works wherever kubectl get --raw does; reading the
// kubelet directly (nodes/metrics, a narrower permission) needs a route from the manager's
// pod to every kubelet and trust in its serving certificate, which many clusters lack.
type NodeProxy struct{ Client corev1client.CoreV1Interface }

// Cadvisor returns the node's /metrics/cadvisor.
func (p NodeProxy) Cadvisor(ctx context.Context, node string) ([]byte, error) {
	b, err := p.Client.RESTClient().Get().Resource("nodes").Name(node).SubResource("proxy").Suffix("metrics", "cadvisor").DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading node %s's kubelet counters (nodes/%s/proxy/metrics/cadvisor): %w", node, node, err)
	}
	return b, nil
}

// Describe names the source.
func (NodeProxy) Describe() string {
	return "kubelet /metrics/cadvisor through the API server's node proxy"
}

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

package workload

import (
	"fmt"
	"net"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// AnnotationListenAddresses makes daprd serve its HTTP and gRPC APIs on these addresses
// instead of localhost only (Dapr's default "[::1],127.0.0.1").
const AnnotationListenAddresses = "dapr.io/sidecar-listen-addresses"

// allAddresses is every IPv4 address of the pod: a four-path run's load tester calls the
// target's daprd on the pod's IP. IPv4 only: an IPv6-only cluster cannot measure the
// server-only path (docs/concepts.md).
const allAddresses = "0.0.0.0"

// AnnotationAPITokenSecret makes daprd refuse every call to its HTTP and gRPC APIs that
// does not carry the token of this Secret's key "token" in its dapr-api-token header
// (its health endpoints excepted).
const AnnotationAPITokenSecret = "dapr.io/api-token-secret"

// ExposesSidecar reports whether the run opens the target's daprd API on the pod's
// address: a four-path run's server-only path needs it. Dapr's API token guards it (the
// run's token, which only the run's load tester reads), and the run's NetworkPolicy
// besides, so such a run needs the operator to create policies (preflight refuses it
// otherwise). Admission keeps profiling out of such a run: daprd's profiler, which asks
// for no token, binds wherever its API does.
func ExposesSidecar(run *perfv1alpha1.PerfRun) bool {
	return run.Spec.DaprEnabled() && run.Spec.FourPaths()
}

// exposeSidecarAPI lets the load tester reach the target's daprd on the pod's address, for
// the server-sidecar-only path, for the run's token only.
func exposeSidecarAPI(run *perfv1alpha1.PerfRun, a map[string]string) {
	if ExposesSidecar(run) {
		a[AnnotationListenAddresses] = allAddresses
		a[AnnotationAPITokenSecret] = run.Status.TokenSecret
	}
}

// OnePathSettings are the load tester's URLs of the two one-sidecar paths:
//   - client only: the load tester's daprd invokes the app at appHost as a non-Dapr HTTP
//     endpoint (an http:// URL as the app id: Dapr's own app HTTP client, 64 idle
//     connections a host, where a named HTTPEndpoint would use Go's default of 2 and
//     reconnect under 16 connections' load);
//   - server only: the load tester calls the target's daprd at targetIP, which invokes its
//     own app id — Dapr serves a call to its own app id locally, without mTLS.
func OnePathSettings(run *perfv1alpha1.PerfRun, appHost, targetIP string) []corev1.EnvVar {
	app := "http://" + net.JoinHostPort(appHost, strconv.Itoa(AppPort))
	return []corev1.EnvVar{
		Setting(ls.ClientOnlyURL, fmt.Sprintf("http://localhost:%d/v1.0/invoke/%s/method/%s", SidecarHTTPPort, app, InvokeMethod)),
		Setting(ls.ServerOnlyURL, fmt.Sprintf("http://%s/v1.0/invoke/%s/method/%s",
			net.JoinHostPort(targetIP, strconv.Itoa(SidecarHTTPPort)), NamesFor(run).TargetAppID, InvokeMethod)),
		runTokenEnv(run, ls.DaprAPIToken),
	}
}

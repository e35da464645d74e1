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

// ProfilingPort is where daprd serves net/http/pprof with dapr.io/enable-profiling (Dapr's
// runtime.DefaultProfilePort).
const ProfilingPort = 7777

// profilingAnnotations turn on daprd's profiling server for spec.profiling. daprd binds it
// to the same addresses as its API (dapr v1.16.0 pkg/api/http/server.go:194-204, a
// listener per s.config.APIListenAddresses): localhost unless dapr.io/sidecar-listen-addresses
// says otherwise. The load tester reaches its own sidecar on localhost; the target's
// (server) must listen on the pod's IP, which exposes its API ports too, and the run's
// NetworkPolicy admits only the run's load tester to them and to ProfilingPort.
func profilingAnnotations(run *perfv1alpha1.PerfRun, server bool) map[string]string {
	if run.Spec.Profiling == nil || !run.Spec.DaprEnabled() {
		return nil
	}
	a := map[string]string{"dapr.io/enable-profiling": "true"}
	if server {
		a[AnnotationListenAddresses] = allAddresses
	}
	return a
}

// withProfiling adds profilingAnnotations to a pod's annotations.
func withProfiling(a map[string]string, run *perfv1alpha1.PerfRun, server bool) {
	for k, v := range profilingAnnotations(run, server) {
		a[k] = v
	}
}

// profilingEnv tells the load tester to profile both sidecars: its own on localhost, the
// target's on targetPodIP (empty: the load tester reports the server's profile missing).
func profilingEnv(run *perfv1alpha1.PerfRun, targetPodIP string) []corev1.EnvVar {
	if run.Spec.Profiling == nil || !run.Spec.DaprEnabled() {
		return nil
	}
	port := strconv.Itoa(ProfilingPort)
	env := []corev1.EnvVar{
		setting(ls.ProfileSeconds, strconv.Itoa(int(run.Spec.Profiling.EffectiveSeconds()))),
		setting(ls.ProfileClientURL, fmt.Sprintf("http://%s", net.JoinHostPort("localhost", port))),
	}
	if targetPodIP != "" {
		env = append(env, setting(ls.ProfileServerURL, fmt.Sprintf("http://%s", net.JoinHostPort(targetPodIP, port))))
	}
	return env
}

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

// profilesTarget reports whether the run takes the target daprd's profile.
func profilesTarget(run *perfv1alpha1.PerfRun) bool {
	return run.Spec.Profiling != nil && run.Spec.DaprEnabled()
}

// profilingAnnotations turn on daprd's profiling server for spec.profiling. daprd binds it
// to the same addresses as its API (dapr v1.16.0 pkg/api/http/server.go:194-204, a
// listener per s.config.APIListenAddresses): localhost here, so neither its profiler (which
// asks nobody for a token) nor its API is on the pod's address. The load tester reaches
// its own sidecar's there; the target app takes its own sidecar's (withProfileCapture).
func profilingAnnotations(run *perfv1alpha1.PerfRun) map[string]string {
	if !profilesTarget(run) {
		return nil
	}
	return map[string]string{"dapr.io/enable-profiling": "true"}
}

// withProfiling adds profilingAnnotations to a pod's annotations.
func withProfiling(a map[string]string, run *perfv1alpha1.PerfRun) {
	for k, v := range profilingAnnotations(run) {
		a[k] = v
	}
}

// withProfileCapture lets the target app take its daprd's profile on localhost for whoever
// holds the run's token (the load tester).
func withProfileCapture(c *corev1.Container, run *perfv1alpha1.PerfRun) {
	if !profilesTarget(run) {
		return
	}
	c.Args = append(c.Args, "--daprd-profiler=http://"+net.JoinHostPort("localhost", strconv.Itoa(ProfilingPort)))
	c.Env = append(c.Env, runTokenEnv(run, ls.ProfileToken))
}

// profilingEnv tells the load tester to profile both sidecars: its own on localhost, the
// target's through the target app on targetPodIP (empty: the load tester reports the
// server's profile missing), with the run's token.
func profilingEnv(run *perfv1alpha1.PerfRun, targetPodIP string) []corev1.EnvVar {
	if !profilesTarget(run) {
		return nil
	}
	env := []corev1.EnvVar{
		Setting(ls.ProfileSeconds, strconv.Itoa(int(run.Spec.Profiling.EffectiveSeconds()))),
		Setting(ls.ProfileClientURL, fmt.Sprintf("http://%s", net.JoinHostPort("localhost", strconv.Itoa(ProfilingPort)))),
	}
	if targetPodIP != "" {
		env = append(env,
			Setting(ls.ProfileServerURL, appAddress(targetPodIP)+ls.ProfileCaptureRoot),
			runTokenEnv(run, ls.ProfileToken))
	}
	return env
}

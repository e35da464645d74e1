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
	"crypto/sha256"
	"encoding/hex"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// RunTokenKey is the key of the token in the run's token Secret: the key Dapr's sidecar
// injector reads for dapr.io/api-token-secret.
const RunTokenKey = "token"

// NeedsRunToken reports whether the run's pods present a token to one another: a
// load-tester group's pods to their leader, a four-path run's load tester to the target's
// daprd API (opened on the pod's address), a profiled run's load tester to the target
// app, which takes its daprd's profile on localhost, a fault run's load tester to the
// target app's fault route, and the clients of a store the run deploys (its daprd's
// Component, the baseline) to the store, as its password.
func NeedsRunToken(run *perfv1alpha1.PerfRun) bool {
	return run.Spec.LoadTester.EffectiveReplicas() > 1 || ExposesSidecar(run) || profilesTarget(run) || TakesFaults(run) || DeploysStore(run)
}

// StoreOnlyToken: the run needs its token only as its store's password.
func StoreOnlyToken(run *perfv1alpha1.PerfRun) bool {
	return DeploysStore(run) && run.Spec.LoadTester.EffectiveReplicas() <= 1 && !ExposesSidecar(run) && !profilesTarget(run) && !TakesFaults(run)
}

// storePassworded: the store the run deploys asks for the run's token. Not for a run
// provisioned before stores had passwords: it has no token Secret, or one made before
// (a load-tester group's, a profiled target's) without status.storePassword, and keeps
// running so. A token made for the store alone was always its password, even by the
// manager that did not yet write status.storePassword.
func storePassworded(run *perfv1alpha1.PerfRun) bool {
	return run.Status.TokenSecret != "" && (run.Status.StorePassword || StoreOnlyToken(run))
}

// DeploysStore reports whether the run deploys a store or broker (a Redis of its own)
// rather than calling a Component the user names.
func DeploysStore(run *perfv1alpha1.PerfRun) bool {
	return slices.Contains(WaitedDeployments(run), NamesFor(run).Store)
}

// RunTokenSecret holds the run's token. Its name is the API server's (generateName),
// recorded in status.tokenSecret: only the run's pods read it, as environment variables.
func RunTokenSecret(run *perfv1alpha1.PerfRun, token string) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{GenerateName: run.Name + "-token-", Namespace: run.Namespace, Labels: Labels(run, RoleLoadTester)},
		Type:       corev1.SecretTypeOpaque,
		Data:       map[string][]byte{RunTokenKey: []byte(token)},
	}
}

// TokenDigest is what status.tokenDigest keeps of a token: its SHA-256, in hex.
func TokenDigest(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// runTokenEnv sets a load-tester or app setting to the run's token, from its Secret.
func runTokenEnv(run *perfv1alpha1.PerfRun, name string) corev1.EnvVar {
	return runTokenEnvNamed(run, ls.Env(name))
}

// runTokenEnvNamed is the environment variable env set to the run's token, from its Secret.
func runTokenEnvNamed(run *perfv1alpha1.PerfRun, env string) corev1.EnvVar {
	return corev1.EnvVar{Name: env, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: run.Status.TokenSecret}, Key: RunTokenKey}}}
}

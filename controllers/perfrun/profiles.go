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

package perfrun

import (
	"context"
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/cpuprofile"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// maxProfileFailure bounds a failure's text in the status: it comes from the load tester.
const maxProfileFailure = 256

// keepProfiles copies the daprd CPU profiles (spec.profiling) from the load tester leader's
// log into the ConfigMap <run>-profiles (owned by the run, like the histograms') and records
// each sidecar's window and size, or why it has none, in status.profiles. Only a profile
// pprof's parser reads, within result.MaxProfileBytes, is stored. It reports whether the
// run is done with its profiles; only a log that cannot be read, or a ConfigMap that cannot
// be written, is tried again.
func (r *Reconciler) keepProfiles(ctx context.Context, run *perfv1alpha1.PerfRun, testers []corev1.Pod) bool {
	if run.Spec.Profiling == nil || !run.Spec.DaprEnabled() || r.Logs == nil ||
		(run.Status.Profiles != nil && run.Status.Profiles.Generation == run.Generation) {
		return true
	}
	_, raw, ok := r.leaderLog(ctx, run, testers, "profiles")
	if !ok {
		return false
	}
	found, bad := result.FindProfiles(raw)
	status, data := profilesStatus(run, found, bad)
	if len(data) > 0 {
		name := workload.NamesFor(run).Profiles
		if err := r.apply(ctx, run, profilesConfigMap(run, name, data)); err != nil {
			log.FromContext(ctx).Info("Cannot keep the profiles", "configMap", name, "error", err.Error())
			return false
		}
		status.ConfigMap = name
	}
	run.Status.Profiles = status
	return true
}

// profilesLost records, for a run concluded without reading its profiles (the leader's log
// unreadable, or its pod gone, through every retry), why each sidecar has none.
func profilesLost(run *perfv1alpha1.PerfRun) {
	if run.Spec.Profiling == nil || !run.Spec.DaprEnabled() ||
		(run.Status.Profiles != nil && run.Status.Profiles.Generation == run.Generation) {
		return
	}
	status := &perfv1alpha1.ProfilesStatus{Generation: run.Generation}
	for _, role := range []perfv1alpha1.ProfileRole{perfv1alpha1.ProfileServerSidecar, perfv1alpha1.ProfileClientSidecar} {
		status.Sidecars = append(status.Sidecars, perfv1alpha1.SidecarProfile{Role: role, Seconds: run.Spec.Profiling.EffectiveSeconds(),
			Failure: fmt.Sprintf("the load tester leader's log could not be read in %d tries (its pod gone, or the kubelet unreachable)", HistogramsRetries+1)})
	}
	run.Status.Profiles = status
}

// profilesStatus is what status.profiles says of the profiles found in the log, and the
// ConfigMap's binaryData of those stored.
func profilesStatus(run *perfv1alpha1.PerfRun, found []result.Profile, bad int) (*perfv1alpha1.ProfilesStatus, map[string][]byte) {
	byRole := map[string]result.Profile{}
	for _, p := range found {
		byRole[p.Role] = p
	}
	status := &perfv1alpha1.ProfilesStatus{Generation: run.Generation}
	data := map[string][]byte{}
	for _, role := range []perfv1alpha1.ProfileRole{perfv1alpha1.ProfileServerSidecar, perfv1alpha1.ProfileClientSidecar} {
		sp := perfv1alpha1.SidecarProfile{Role: role, Seconds: run.Spec.Profiling.EffectiveSeconds()}
		p, ok := byRole[string(role)]
		switch {
		case !ok:
			sp.Failure = "the load tester's log holds no profile of it"
			if bad > 0 {
				sp.Failure += fmt.Sprintf(" (%d profile lines did not read)", bad)
			}
		case p.Error != "":
			sp.Failure = "not captured: " + p.Error
		default:
			if _, err := cpuprofile.Parse(p.Pprof); err != nil {
				sp.Failure = "not stored: " + err.Error()
				break
			}
			sp.Key, sp.Bytes = ProfileKey(role), int64(len(p.Pprof))
			data[sp.Key] = p.Pprof
		}
		if ok && p.StartUnix > 0 {
			sp.Start = &metav1.Time{Time: time.Unix(p.StartUnix, 0)}
		}
		if ok && p.Seconds > 0 {
			sp.Seconds = int32(min(p.Seconds, 3600))
		}
		if len(sp.Failure) > maxProfileFailure {
			sp.Failure = sp.Failure[:maxProfileFailure] + "…"
		}
		status.Sidecars = append(status.Sidecars, sp)
	}
	return status, data
}

// ProfileKey is a sidecar's profile in the profiles ConfigMap's binaryData.
func ProfileKey(role perfv1alpha1.ProfileRole) string { return string(role) + ".pprof" }

// profilesConfigMap is the ConfigMap, unstructured as histogramsConfigMap is.
func profilesConfigMap(run *perfv1alpha1.PerfRun, name string, data map[string][]byte) *unstructured.Unstructured {
	cm := &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: run.Namespace,
			Labels:      map[string]string{workload.LabelRun: run.Name},
			Annotations: map[string]string{perfv1alpha1.GroupVersion.Group + "/generation": strconv.FormatInt(run.Generation, 10)}},
		BinaryData: data,
	}
	obj, _ := runtime.DefaultUnstructuredConverter.ToUnstructured(cm)
	return &unstructured.Unstructured{Object: obj}
}

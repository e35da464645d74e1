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
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/cpuprofile"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// maxProfileFailure bounds a failure's text in the status: it comes from the load tester.
const maxProfileFailure = 256

// keepProfiles keeps the daprd CPU profiles (spec.profiling) of the load tester's report in
// the ConfigMap <run>-profiles (owned by the run) and says, for the result document, each
// sidecar's window and size, or why it has none. Only a profile pprof's parser reads is
// stored. kept is false when the ConfigMap could not be written (tried again).
func (r *Reconciler) keepProfiles(ctx context.Context, run *perfv1alpha1.PerfRun, found []result.Profile) (status *perfv1alpha1.ProfilesStatus, kept bool) {
	if run.Spec.Profiling == nil || !run.Spec.DaprEnabled() {
		return nil, true
	}
	status, data := profilesStatus(run, found)
	if len(data) > 0 {
		name := workload.NamesFor(run).Profiles
		if err := r.apply(ctx, run, profilesConfigMap(run, name, data)); err != nil {
			log.FromContext(ctx).Info("Cannot keep the profiles", "configMap", name, "error", err.Error())
			return nil, false
		}
		status.ConfigMap = name
	}
	return status, true
}

// profilesStatus is what the document says of the report's profiles, and the ConfigMap's
// binaryData of those stored.
func profilesStatus(run *perfv1alpha1.PerfRun, found []result.Profile) (*perfv1alpha1.ProfilesStatus, map[string][]byte) {
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
			sp.Failure = "the load tester's report holds no profile of it"
		case p.Error != "":
			sp.Failure = "not captured: " + p.Error
		default:
			if _, err := cpuprofile.Parse(p.Pprof); err != nil {
				sp.Failure = "not stored: " + err.Error()
				break
			}
			sp.Key, sp.Bytes, sp.Digest = ProfileKey(role), int64(len(p.Pprof)), document.Digest(p.Pprof)
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

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
	"fmt"
	"maps"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// imageNotAllowed says which of the run's images (target, load tester, variants' sidecars)
// no allowed prefix admits; empty when all are allowed. The images a PerfRun names run
// with the namespace's ServiceAccount and see what its pods see: whoever may create a
// PerfRun must not be able to run any image through it. The operator's own repository is
// always allowed; the rest is --allowed-image-prefixes or, when that is empty, the
// registry path of Dapr's injector (its sidecar images live beside it).
func (r *Reconciler) imageNotAllowed(run *perfv1alpha1.PerfRun, injector *appsv1.Deployment) string {
	prefixes := ownRepository(r.Workload.Image)
	if len(r.AllowedImagePrefixes) > 0 {
		prefixes = append(prefixes, r.AllowedImagePrefixes...)
	} else if injector != nil {
		if dir := registryPath(imageOf(injector)); dir != "" {
			prefixes = append(prefixes, dir)
		}
	}
	named := map[string]string{"spec.target.image": run.Spec.Target.Image, "spec.loadTester.image": run.Spec.LoadTester.Image}
	for i, v := range run.Spec.Variants {
		named[fmt.Sprintf("spec.variants[%d].sidecarImage", i)] = v.SidecarImage
	}
	var refused []string
	for _, field := range slices.Sorted(maps.Keys(named)) {
		if image := named[field]; image != "" && !hasAnyPrefix(image, prefixes) {
			refused = append(refused, fmt.Sprintf("%s %q", field, image))
		}
	}
	if len(refused) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: not under an allowed prefix (%s); the operator's --allowed-image-prefixes "+
		"(Helm value allowedImagePrefixes) lists what runs may use", strings.Join(refused, ", "), strings.Join(prefixes, ", "))
}

// ownRepository admits any tag or digest of the operator's own image's repository.
func ownRepository(image string) []string {
	repo := repository(image)
	return []string{repo + ":", repo + "@"}
}

// repository is an image reference without its tag or digest.
func repository(image string) string {
	if i := strings.Index(image, "@"); i >= 0 {
		image = image[:i]
	}
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		image = image[:i]
	}
	return image
}

// registryPath is the image's repository up to its last "/", e.g. "ghcr.io/dapr/"; empty
// for an image without a path.
func registryPath(image string) string {
	repo := repository(image)
	if i := strings.LastIndex(repo, "/"); i >= 0 {
		return repo[:i+1]
	}
	return ""
}

func imageOf(d *appsv1.Deployment) string {
	if c := d.Spec.Template.Spec.Containers; len(c) > 0 {
		return c[0].Image
	}
	return ""
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

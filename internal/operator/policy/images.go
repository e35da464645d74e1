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

// Package policy holds what a platform team allows a PerfRun to do on its cluster: which
// images it may run, where its pods may land, which actor state stores it may write. The
// checks are pure; the reconciler calls them before anything is created.
package policy

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Policy is the operator's configuration of what runs may do (manager flags, Helm values).
type Policy struct {
	// OwnImage is the operator's image: any tag or digest of its repository is allowed.
	OwnImage string
	// AllowedImagePrefixes are repository paths ("ghcr.io/dapr", "registry.example.com/bench/")
	// a run's images may lie under, matched component by component. Empty: the registry
	// path of Dapr's injector in the operator's Dapr namespace.
	AllowedImagePrefixes []string
	// AllowedLoadTesterImagePrefixes are the repository paths spec.loadTester.image may lie
	// under besides the operator's own repository. Empty: the operator's own alone, whatever
	// AllowedImagePrefixes says: the operator trusts what the load tester writes (its summary
	// becomes the run's result), so an image a tenant can push is not one by default.
	AllowedLoadTesterImagePrefixes []string
	// AllowedTolerations are the taint keys a run's pods may tolerate. Empty: none, so runs
	// land only on nodes without taints.
	AllowedTolerations []string
	// AllowedNodeLabels are the node label keys a run may select or require (nodeSelector,
	// node affinity). Empty: any key (without tolerations, only untainted nodes match).
	AllowedNodeLabels []string
	// AllowedStateStores are the Components a run's spec.actors.stateStore may name. Empty:
	// none; an actor run then uses the in-memory store it creates itself.
	AllowedStateStores []string
	// AllowNamedTopics lets a PubSub run on an allowed named Component choose its topic
	// (spec.pubsub.topic). false: such a run uses its own per-run topic, so it never
	// publishes into a topic other namespaces' apps read on a shared broker.
	AllowNamedTopics bool
	// AllowControlPlaneFaults lets a run's PodKill take a Dapr control-plane service down
	// (spec.faults role Scheduler, Placement or Sentry). false: such a run fails at
	// preflight, as every tenant's sidecars use the control plane.
	AllowControlPlaneFaults bool
	// MaxSchedulerHeldBytes caps what a run holds in Dapr's shared scheduler at once
	// (load.qps × scheduler.dueTime × the payload of a Scheduler run's jobs or reminders);
	// 0: admission's own cap alone (256 MiB).
	MaxSchedulerHeldBytes int64
}

// repositoryComponent is one path component of an image repository (the distribution
// reference grammar); the first may also be a registry host with a port.
var (
	repositoryComponent = regexp.MustCompile(`^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$`)
	registryHost        = regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9.-]*[a-zA-Z0-9])?(?::[0-9]+)?$`)
)

// ImageRefusal says which of the run's images (target, load tester, variants' sidecars)
// no allowed repository path admits; empty when all are allowed. injectorImage is Dapr's
// injector's image in the operator's Dapr namespace, the fallback when no list is set.
func (p Policy) ImageRefusal(run *perfv1alpha1.PerfRun, injectorImage string) string {
	allowed := p.AllowedImagePrefixes
	if len(allowed) == 0 && injectorImage != "" {
		if dir := RegistryPath(injectorImage); dir != "" {
			allowed = []string{dir}
		}
	}
	named := map[string]string{"spec.target.image": run.Spec.Target.Image}
	for i, v := range run.Spec.Variants {
		named[fmt.Sprintf("spec.variants[%d].sidecarImage", i)] = v.SidecarImage
	}
	var refused []string
	for _, field := range slices.Sorted(maps.Keys(named)) {
		if image := named[field]; image != "" && !p.imageAllowed(image, allowed) {
			refused = append(refused, fmt.Sprintf("%s %q", field, image))
		}
	}
	own := Repository(p.OwnImage) + " (the operator's own)"
	var parts []string
	if len(refused) > 0 {
		parts = append(parts, fmt.Sprintf("%s: not under an allowed repository path (%s); the operator's --allowed-image-prefixes "+
			"(Helm value allowedImagePrefixes) lists what runs may use", strings.Join(refused, ", "), strings.Join(append([]string{own}, allowed...), ", ")))
	}
	if image := run.Spec.LoadTester.Image; image != "" && !p.imageAllowed(image, p.AllowedLoadTesterImagePrefixes) {
		parts = append(parts, fmt.Sprintf("spec.loadTester.image %q: not under an allowed repository path (%s); the operator trusts "+
			"what the load tester reports, so its image is the operator's own unless --allowed-load-tester-image-prefixes "+
			"(Helm value allowedLoadTesterImagePrefixes) allows another", image, strings.Join(append([]string{own}, p.AllowedLoadTesterImagePrefixes...), ", ")))
	}
	return strings.Join(parts, "; ")
}

func (p Policy) imageAllowed(image string, allowed []string) bool {
	repo := Repository(image)
	if !validRepository(repo) {
		return false
	}
	if p.OwnImage != "" && repo == Repository(p.OwnImage) {
		return true
	}
	for _, prefix := range allowed {
		if UnderPath(repo, prefix) {
			return true
		}
	}
	return false
}

// UnderPath says whether repository repo is the path prefix or lies below it, component by
// component: "ghcr.io/dapr/" admits "ghcr.io/dapr/daprd", never "ghcr.io/dapr-evil/daprd".
func UnderPath(repo, prefix string) bool {
	prefix = strings.TrimSuffix(prefix, "/")
	if prefix == "" {
		return false
	}
	return repo == prefix || strings.HasPrefix(repo, prefix+"/")
}

// validRepository accepts a reference's repository part only when every component is one the
// distribution grammar allows: no "..", no empty component, no upper case past the host.
func validRepository(repo string) bool {
	parts := strings.Split(repo, "/")
	for i, part := range parts {
		if repositoryComponent.MatchString(part) {
			continue
		}
		if i == 0 && len(parts) > 1 && registryHost.MatchString(part) {
			continue
		}
		return false
	}
	return true
}

// Repository is an image reference without its tag or digest.
func Repository(image string) string {
	if i := strings.Index(image, "@"); i >= 0 {
		image = image[:i]
	}
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		image = image[:i]
	}
	return image
}

// RegistryPath is the image's repository up to its last "/", e.g. "ghcr.io/dapr/"; empty
// for an image without a path.
func RegistryPath(image string) string {
	repo := Repository(image)
	if i := strings.LastIndex(repo, "/"); i >= 0 {
		return repo[:i+1]
	}
	return ""
}

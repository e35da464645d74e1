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

package controllers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// appliedChildren remembers, per child, the desired state last applied and the
// resourceVersion the API server answered with. While the cached child still carries that
// version and the desired state is the same, applying again would change nothing: the
// reconciles that owned children's own events cause cost no request. Any change to the
// child (someone's edit, a controller's status write) moves its resourceVersion, and the
// next pass applies again; a restarted manager starts with an empty memory and applies once.
type appliedChildren struct {
	mu sync.Mutex
	m  map[string]appliedChild
}

type appliedChild struct {
	run                     types.UID
	digest, resourceVersion string
}

func childKey(u *unstructured.Unstructured) string {
	return u.GetKind() + "/" + u.GetNamespace() + "/" + u.GetName()
}

// digestOf is the desired state's fingerprint.
func digestOf(u *unstructured.Unstructured) string {
	b, _ := json.Marshal(u.Object) // maps marshal in key order: stable
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// unchanged reports whether applying u would repeat the last apply of the same state onto
// a child still at the version it produced.
func (a *appliedChildren) unchanged(u *unstructured.Unstructured, digest, currentVersion string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	last, ok := a.m[childKey(u)]
	return ok && currentVersion != "" && last.digest == digest && last.resourceVersion == currentVersion
}

func (a *appliedChildren) remember(run types.UID, u *unstructured.Unstructured, digest string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string]appliedChild{}
	}
	a.m[childKey(u)] = appliedChild{run: run, digest: digest, resourceVersion: u.GetResourceVersion()}
}

// forgetRun drops a finished run's children.
func (a *appliedChildren) forgetRun(run types.UID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, c := range a.m {
		if c.run == run {
			delete(a.m, k)
		}
	}
}

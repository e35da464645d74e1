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

package loadgen

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// Every endpoint kind is made by exactly one family and every scheme read by exactly one, so
// ep.family() and parseEndpoint have one answer each; a URL of every scheme parses to an
// endpoint its own family drives.
func TestEveryEndpointKindAndSchemeHasOneFamily(t *testing.T) {
	t.Parallel()
	kindOwners := map[endpointKind]int{}
	schemeOwners := map[string]int{}
	for _, f := range families {
		seen := map[endpointKind]bool{}
		for scheme, kind := range f.schemes() {
			schemeOwners[scheme]++
			if !seen[kind] {
				seen[kind] = true
				kindOwners[kind]++
			}
		}
	}
	for k := endpointKind(0); k < endpointKinds; k++ {
		if kindOwners[k] != 1 {
			t.Errorf("endpoint kind %d is made by %d families, want 1", k, kindOwners[k])
		}
	}
	for scheme, n := range schemeOwners {
		if n != 1 {
			t.Errorf("scheme %s is read by %d families, want 1", scheme, n)
		}
	}

	valid := []string{
		"http://localhost:3500/v1.0/invoke/app/method/x",
		"https://app.example:8443/x",
		"dapr-grpc://localhost:50001/app/method",
		"grpc://app:50051/method",
		"dapr-state+http://localhost:3500/statestore?op=Get&keys=10",
		"dapr-state+grpc://localhost:50001/statestore?op=Save&keys=10",
		"redis://store:6379/?op=Get&keys=10",
		"dapr-pubsub+http://localhost:3500/pubsub/orders",
		"dapr-pubsub+grpc://localhost:50001/pubsub/orders",
		"redis-stream://broker:6379/orders",
		"dapr-workflow+http://localhost:3500/Chain?activities=2&grpc=localhost:50001",
		"dapr-workflow+grpc://localhost:50001/FanOut?activities=2",
		"dapr-jobs+http://localhost:3500/?due=1s",
		"dapr-reminders+http://localhost:3500/PerfActor?due=1s&actors=10",
		"dapr-timers+http://localhost:3500/PerfActor?due=1s&actors=10",
		"dapr-configuration+http://localhost:3500/configstore?keys=10",
		"dapr-configuration+grpc://localhost:50001/configstore?keys=10",
		"redis-configuration://store:6379/?keys=10",
	}
	parsed := map[string]bool{}
	membersOf := map[reflect.Type]string{} // a family's own settings: the one member it sets
	for _, raw := range valid {
		ep, err := parseEndpoint(raw)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		u, _ := url.Parse(raw)
		parsed[u.Scheme] = true
		family := reflect.TypeOf(ep.family())
		if want := reflect.TypeOf(familyOfScheme(u.Scheme)); family != want {
			t.Errorf("%s is driven by %v, read by %v", raw, family, want)
		}
		set := setMembers(ep)
		if len(set) > 1 {
			t.Errorf("%s sets %v: a path has one kind's settings", raw, set)
		}
		member := strings.Join(set, "")
		if seen, ok := membersOf[family]; ok && seen != member {
			t.Errorf("%s sets %q where its family's other URLs set %q", raw, member, seen)
		}
		membersOf[family] = member
	}
	owners := map[string]reflect.Type{}
	for family, member := range membersOf {
		if other, ok := owners[member]; ok && member != "" {
			t.Errorf("%v and %v both set %s", family, other, member)
		}
		owners[member] = family
	}
	for scheme := range schemeOwners {
		if !parsed[scheme] {
			t.Errorf("scheme %s has no valid URL in this test: add one", scheme)
		}
	}
}

// A URL no family reads, or one a family cannot read, gets the full usage.
func TestAnUnknownOrMalformedURLGetsTheUsage(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"ftp://host/x", "dapr-grpc://localhost/app/method", "grpc://app:50051/"} {
		if _, err := parseEndpoint(raw); err == nil || !strings.Contains(err.Error(), "want http(s)://") {
			t.Errorf("%s: got %v, want the usage", raw, err)
		}
	}
}

// setMembers names the kind-settings members (pointers) ep has set.
func setMembers(ep endpoint) []string {
	var set []string
	v := reflect.ValueOf(ep)
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() {
			set = append(set, v.Type().Field(i).Name)
		}
	}
	return set
}

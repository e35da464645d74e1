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

package accounting

import (
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// roleField is a data-plane role and its place in a ResourceUsage.
type roleField struct {
	name roles.Role
	slot **perfv1alpha1.RoleUsage
}

// dataPlaneRoles is the one list of a run's own roles, in reporting order.
func dataPlaneRoles(u *perfv1alpha1.ResourceUsage) []roleField {
	return []roleField{{roles.ServerApp, &u.ServerApp}, {roles.ServerSidecar, &u.ServerSidecar}, {roles.ClientSidecar, &u.ClientSidecar},
		{roles.LoadTester, &u.LoadTester}, {roles.BaselineApp, &u.BaselineApp}, {roles.Store, &u.Store}}
}

// EachRole calls fn for every data-plane role of u, in reporting order, with its usage
// (nil when not measured).
func EachRole(u *perfv1alpha1.ResourceUsage, fn func(roles.Role, *perfv1alpha1.RoleUsage)) {
	for _, r := range dataPlaneRoles(u) {
		fn(r.name, *r.slot)
	}
}

// Slot returns the aggregate of a role in u, creating it: a control plane component's
// (roles.ControlPlanePrefix) in u.ControlPlane, a data-plane role's in its field, and any other
// role's in BaselineApp.
func Slot(u *perfv1alpha1.ResourceUsage, role string) *perfv1alpha1.RoleUsage {
	if component, ok := strings.CutPrefix(role, roles.ControlPlanePrefix); ok {
		for i := range u.ControlPlane {
			if u.ControlPlane[i].Component == component {
				return &u.ControlPlane[i].Usage
			}
		}
		u.ControlPlane = append(u.ControlPlane, perfv1alpha1.ComponentUsage{Component: component})
		return &u.ControlPlane[len(u.ControlPlane)-1].Usage
	}
	fields := dataPlaneRoles(u)
	p := &u.BaselineApp // for a role not in the list
	for _, f := range fields {
		if string(f.name) == role {
			p = f.slot
		}
	}
	if *p == nil {
		*p = &perfv1alpha1.RoleUsage{}
	}
	return *p
}

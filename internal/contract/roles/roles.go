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

// Package roles names what each container of a run does, as a result records it: the
// operator's samplers write these names, the assessment, the exporter and the CLI read them.
package roles

import "strings"

// Role is what a container does in a run.
type Role string

const (
	ServerApp     Role = "serverApp"
	ServerSidecar Role = "serverSidecar"
	ClientSidecar Role = "clientSidecar"
	LoadTester    Role = "loadTester"
	BaselineApp   Role = "baselineApp"
	// Store is the state store a State run deployed.
	Store Role = "store"
)

// variantSeparator joins a role and the sidecar variant whose target pod it is.
const variantSeparator = "@"

// OfVariant is role as played by the target pod of one sidecar variant (result.Variant code).
func OfVariant(role Role, variant string) Role { return role + variantSeparator + Role(variant) }

// SplitVariant undoes OfVariant; variant is empty for a role every variant shares.
func SplitVariant(role string) (base, variant string) {
	base, variant, _ = strings.Cut(role, variantSeparator)
	return base, variant
}

// ControlPlanePrefix marks a control-plane component's role: controlPlane/<app label>.
const ControlPlanePrefix = "controlPlane/"

// nodeRolePrefix starts the role of a node's root cgroup among the counters' roles.
const nodeRolePrefix = "node/"

// NodeRole names a node's root cgroup among the counters' roles.
func NodeRole(node string) string { return nodeRolePrefix + node }

// NodeOfRole is the node a node role names ("" for a container's role).
func NodeOfRole(role string) string {
	if !IsNodeRole(role) {
		return ""
	}
	return strings.TrimPrefix(role, nodeRolePrefix)
}

// IsNodeRole reports whether role is a node's root cgroup.
func IsNodeRole(role string) bool { return strings.HasPrefix(role, nodeRolePrefix) }

// JudgedForThrottling reports whether a role's throttling bounds the run's latency: the
// sidecars and the target app (of any variant), not the load tester or a node.
func JudgedForThrottling(role string) bool {
	base, _ := SplitVariant(role)
	return IsSidecar(role) || Role(base) == ServerApp
}

// IsSidecar reports whether a role (of any variant) is a daprd's.
func IsSidecar(role string) bool {
	base, _ := SplitVariant(role)
	return Role(base) == ServerSidecar || Role(base) == ClientSidecar
}

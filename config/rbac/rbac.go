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

// Package rbac holds the manager's role as controller-gen writes it from the code's
// +kubebuilder:rbac markers (role.yaml, make manifests): the rights the operator and
// kubectl daprbench doctor check it holds where it runs benchmarks.
package rbac

import (
	_ "embed"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

//go:embed role.yaml
var managerRole []byte

// ManagerRules are the manager's ClusterRole's rules.
func ManagerRules() ([]rbacv1.PolicyRule, error) {
	var role rbacv1.ClusterRole
	if err := yaml.Unmarshal(managerRole, &role); err != nil {
		return nil, fmt.Errorf("config/rbac/role.yaml: %w", err)
	}
	return role.Rules, nil
}

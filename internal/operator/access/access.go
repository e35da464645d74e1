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

// Package access checks that the operator holds, in a namespace it runs benchmarks in, the
// rights its role asks for there (config/rbac, split by rbacscope as the chart's Role is).
// A namespace deleted and created again loses the Role the chart made in it while the
// manager still serves it: a run there must fail at once, naming what is missing, rather
// than wait on reads the API server refuses.
package access

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/daprbench/daprbench/config/rbac"
	"github.com/daprbench/daprbench/internal/operator/rbacscope"
)

// Right is one (group, resource, verb) the operator needs in a run's namespace.
type Right struct{ Group, Resource, Verb string }

func (r Right) String() string {
	resource := r.Resource
	if r.Group != "" {
		resource += "." + r.Group
	}
	return r.Verb + " " + resource
}

// Needed are the rights the chart's Role grants in each namespace the manager runs
// benchmarks in, in a fixed order (read once).
var Needed = sync.OnceValues(needed)

func needed() ([]Right, error) {
	rules, err := rbac.ManagerRules()
	if err != nil {
		return nil, err
	}
	var out []Right
	for _, rule := range rbacscope.Split(rules).Namespaced {
		for _, g := range rule.APIGroups {
			for _, res := range rule.Resources {
				for _, v := range rule.Verbs {
					out = append(out, Right{g, res, v})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b Right) int { return strings.Compare(a.String(), b.String()) })
	return slices.Compact(out), nil
}

// Reviewer answers access reviews: the operator's own (SelfSubjectRulesReview and
// SelfSubjectAccessReview), or doctor's of the operator's ServiceAccount (SubjectAccessReview).
type Reviewer interface {
	// Rules are the rules the subject holds in namespace, and whether the list may be
	// incomplete (an authorizer that cannot list its rules, a webhook's).
	Rules(ctx context.Context, namespace string) (rules []authorizationv1.ResourceRule, incomplete bool, err error)
	// Allowed asks about one right.
	Allowed(ctx context.Context, namespace string, r Right) (bool, error)
}

// Missing are the rights of needed the subject does not hold in namespace: from the rules
// it lists, each one missing there confirmed by an access review when the list may be
// incomplete.
func Missing(ctx context.Context, rev Reviewer, namespace string, needed []Right) ([]Right, error) {
	rules, incomplete, err := rev.Rules(ctx, namespace)
	if err != nil {
		return nil, fmt.Errorf("listing the rights in namespace %q: %w", namespace, err)
	}
	var missing []Right
	for _, r := range needed {
		if covered(rules, r) {
			continue
		}
		if incomplete {
			ok, err := rev.Allowed(ctx, namespace, r)
			if err != nil {
				return nil, fmt.Errorf("asking whether it may %s in namespace %q: %w", r, namespace, err)
			}
			if ok {
				continue
			}
		}
		missing = append(missing, r)
	}
	return missing, nil
}

// covered: a rule grants r (wildcards included).
func covered(rules []authorizationv1.ResourceRule, r Right) bool {
	for _, rule := range rules {
		if len(rule.ResourceNames) == 0 && matches(rule.APIGroups, r.Group) && matches(rule.Resources, r.Resource) && matches(rule.Verbs, r.Verb) {
			return true
		}
	}
	return false
}

func matches(list []string, v string) bool {
	return slices.Contains(list, v) || slices.Contains(list, rbacv1.ResourceAll)
}

// Text lists rights for a message: "create deployments.apps, list pods", the first few of
// many and how many more.
func Text(rights []Right) string {
	const shown = 6
	var parts []string
	for i, r := range rights {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(rights)-shown))
			break
		}
		parts = append(parts, r.String())
	}
	return strings.Join(parts, ", ")
}

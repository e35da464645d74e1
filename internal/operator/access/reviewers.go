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

package access

import (
	"context"
	"strings"

	authorizationv1 "k8s.io/api/authorization/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Self reviews the client's own rights: the operator's. Every authenticated user may ask
// these of itself (system:basic-user), so it needs no right of its own.
type Self struct{ Client client.Client }

func (s Self) Rules(ctx context.Context, namespace string) ([]authorizationv1.ResourceRule, bool, error) {
	review := &authorizationv1.SelfSubjectRulesReview{Spec: authorizationv1.SelfSubjectRulesReviewSpec{Namespace: namespace}}
	if err := s.Client.Create(ctx, review); err != nil {
		return nil, false, err
	}
	return review.Status.ResourceRules, review.Status.Incomplete, nil
}

func (s Self) Allowed(ctx context.Context, namespace string, r Right) (bool, error) {
	review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: r.attributes(namespace)}}
	if err := s.Client.Create(ctx, review); err != nil {
		return false, err
	}
	return review.Status.Allowed, nil
}

// ServiceAccount reviews a ServiceAccount's rights (the operator's, for doctor): a
// SubjectAccessReview per right, which the asker needs the right to create. No one can
// list another subject's rules, so Rules lists none and says so.
type ServiceAccount struct {
	Client          client.Client
	Namespace, Name string
}

func (s ServiceAccount) Rules(context.Context, string) ([]authorizationv1.ResourceRule, bool, error) {
	return nil, true, nil
}

func (s ServiceAccount) Allowed(ctx context.Context, namespace string, r Right) (bool, error) {
	review := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
		User:               "system:serviceaccount:" + s.Namespace + ":" + s.Name,
		Groups:             []string{"system:serviceaccounts", "system:serviceaccounts:" + s.Namespace, "system:authenticated"},
		ResourceAttributes: r.attributes(namespace)}}
	if err := s.Client.Create(ctx, review); err != nil {
		return false, err
	}
	return review.Status.Allowed, nil
}

// attributes are r in namespace as an access review asks: a subresource (pods/log) apart.
func (r Right) attributes(namespace string) *authorizationv1.ResourceAttributes {
	resource, sub, _ := strings.Cut(r.Resource, "/")
	return &authorizationv1.ResourceAttributes{Namespace: namespace, Group: r.Group, Resource: resource, Subresource: sub, Verb: r.Verb}
}

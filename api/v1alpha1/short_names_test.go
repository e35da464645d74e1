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

package v1alpha1

import (
	"os"
	"path/filepath"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// takenShortNames are short names of Kubernetes' own kinds and of CRDs installed beside
// Dapr often enough that kubectl would resolve ours to theirs (or theirs to ours): `pr`
// is Tekton's PipelineRun.
var takenShortNames = map[string]string{
	"pr": "Tekton PipelineRun", "tr": "Tekton TaskRun", "wf": "Argo Workflow", "cwf": "Argo ClusterWorkflowTemplate",
	"app": "Argo CD Application", "appproj": "Argo CD AppProject", "ksvc": "Knative Service", "rev": "Knative Revision",
	"rt": "Knative Route", "cfg": "Knative Configuration", "config": "Knative Configuration", "cert": "cert-manager Certificate",
	"cr": "cert-manager CertificateRequest", "iss": "cert-manager Issuer", "vs": "Istio VirtualService", "gw": "Istio Gateway",
	"dr": "Istio DestinationRule", "se": "Istio ServiceEntry", "pa": "Istio PeerAuthentication", "prom": "Prometheus",
	"ks": "Flux Kustomization", "hr": "Flux HelmRelease", "po": "Pod", "svc": "Service", "deploy": "Deployment",
	"rs": "ReplicaSet", "ds": "DaemonSet", "sts": "StatefulSet", "ns": "Namespace", "no": "Node", "pv": "PersistentVolume",
	"pvc": "PersistentVolumeClaim", "cm": "ConfigMap", "ep": "Endpoints", "sa": "ServiceAccount", "ing": "Ingress",
	"netpol": "NetworkPolicy", "pdb": "PodDisruptionBudget", "hpa": "HorizontalPodAutoscaler", "cj": "CronJob",
	"ev": "Event", "crd": "CustomResourceDefinition", "pc": "PriorityClass", "sc": "StorageClass", "csr": "CertificateSigningRequest",
}

func TestShortNamesCollideWithNoWellKnownKind(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "config", "crd", "bases", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs found: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(b, &crd); err != nil {
			t.Fatal(err)
		}
		if len(crd.Spec.Names.ShortNames) == 0 {
			t.Errorf("%s has no short name", crd.Name)
		}
		for _, short := range crd.Spec.Names.ShortNames {
			if owner, taken := takenShortNames[short]; taken {
				t.Errorf("%s's short name %q is %s's", crd.Name, short, owner)
			}
		}
	}
}

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
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

var _ = Describe("The PerfRun reconciler's memory", func() {
	It("forgets a run deleted mid-flight", func() {
		ns := newNamespace()
		run := createRun(ns, "deleted", perfv1alpha1.ScenarioServiceInvocation)
		markAvailable(ns, "deleted-target")
		startLoad(run)
		key := client.ObjectKeyFromObject(run)
		// Children applied, usage sampled: the run is remembered while it measures.
		Eventually(func() bool { return runReconciler.Remembers(key) }).Should(BeTrue())
		Expect(k8sClient.Delete(suiteCtx, run)).To(Succeed())
		Eventually(func() bool { return runReconciler.Remembers(key) }).Should(BeFalse(), "a deleted run's memory is forgotten")
	})
})

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

package v1alpha1_test

import (
	"encoding/json"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/testenv"
)

// The manager caches every PerfRun, PerfSchedule and PerfSweep of the cluster. These specs
// build the largest spec each admits — every bounded list full, every bounded string at its
// limit — prove the API server admits it, and bound its JSON, so that 1,000 such objects fit
// a few hundred MiB. A loosened bound shows here first. (Object metadata is outside the
// CRD's reach: Kubernetes admits up to 256 KiB of annotations on any object.)

// The largest admitted objects' JSON, rounded up from what was measured (PerfRun 205,265
// bytes; PerfSchedule 244,161 and PerfSweep 244,256: a run's spec plus template metadata);
// -v prints the sizes. 1,000 of each: 196 and 233 MiB of JSON.
const (
	maxRunJSON       = 208 << 10
	maxTemplatedJSON = 240 << 10
)

var _ = Describe("The largest admitted objects", func() {
	It("admits a PerfRun with every bound reached, and its JSON stays small", func() {
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: strings.Repeat("r", 38), Namespace: "default"}, Spec: testenv.LargestRunSpec()}
		Expect(k8s.Create(ctx, run, client.DryRunAll, client.FieldValidation("Strict"))).To(Succeed())
		Expect(jsonSize("PerfRun", run)).To(BeNumerically("<=", maxRunJSON))
	})

	It("admits a PerfSchedule with every bound reached, and its JSON stays small", func() {
		s := &perfv1alpha1.PerfSchedule{ObjectMeta: metav1.ObjectMeta{Name: strings.Repeat("s", 28), Namespace: "default"},
			Spec: perfv1alpha1.PerfScheduleSpec{Schedule: strings.Repeat("0", 120) + " * * * *", TimeZone: ptr.To("America/Argentina/ComodRivadavia"), // the longest zone the API server knows (64 is the field's cap)
				Template: testenv.LargestTemplate(), StartingDeadlineSeconds: ptr.To(int64(31536000)),
				SuccessfulRunsHistoryLimit: ptr.To(int32(100)), FailedRunsHistoryLimit: ptr.To(int32(100))}}
		Expect(k8s.Create(ctx, s, client.DryRunAll, client.FieldValidation("Strict"))).To(Succeed())
		Expect(jsonSize("PerfSchedule", s)).To(BeNumerically("<=", maxTemplatedJSON))
	})

	It("admits a PerfSweep with every bound reached, and its JSON stays small", func() {
		var conns []int32
		for c := range int32(50) {
			conns = append(conns, c+1)
		}
		s := &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: strings.Repeat("w", 30), Namespace: "default"},
			Spec: perfv1alpha1.PerfSweepSpec{Template: testenv.LargestTemplate(), Points: &perfv1alpha1.SweepPoints{Connections: conns}}}
		s.Spec.Template.Spec.Load.Duration = &metav1.Duration{Duration: 5 * time.Second} // 50 points within the sweep's 72h
		Expect(k8s.Create(ctx, s, client.DryRunAll, client.FieldValidation("Strict"))).To(Succeed())
		Expect(jsonSize("PerfSweep", s)).To(BeNumerically("<=", maxTemplatedJSON))
	})
})

// A run's whole result reaches the operator on one channel and is kept as a document, so
// repetitions and variants are bounded by the run's time and the document's size alone:
// what the 4096-byte termination message once refused is admitted (the documents of the
// largest such runs fit their store: controllers/perfrun's
// TestTheLargestAdmittedRunsReportAndDocumentFit).
var _ = Describe("Repetitions and variants, bounded by time and the document alone", func() {
	It("admits four variants over ten repetitions, and four paths over ten", func() {
		variants := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "ab-ten", Namespace: "default"}, Spec: perfv1alpha1.PerfRunSpec{
			Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100, Repetitions: 10},
			Variants: []perfv1alpha1.SidecarVariant{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}}}
		Expect(k8s.Create(ctx, variants, client.DryRunAll)).To(Succeed())
		four := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "four-ten", Namespace: "default"}, Spec: perfv1alpha1.PerfRunSpec{
			Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100, Repetitions: 10},
			ServiceInvocation: &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}}}
		Expect(k8s.Create(ctx, four, client.DryRunAll)).To(Succeed())
	})
})

// jsonSize is the object's JSON size, printed for the record.
func jsonSize(kind string, obj any) int {
	b, err := json.Marshal(obj)
	Expect(err).NotTo(HaveOccurred())
	GinkgoWriter.Printf("largest admitted %s: %d bytes of JSON (%.1f KiB; 1,000 of them: %.0f MiB)\n", kind, len(b), float64(len(b))/1024, float64(len(b))*1000/(1<<20))
	AddReportEntry(kind+" JSON bytes", len(b))
	return len(b)
}

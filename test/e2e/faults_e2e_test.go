//go:build e2e

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

package e2e

import (
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A fault through real Dapr: the target app answers every other invocation with 500 for 3 s
// of each measured Dapr phase. The result must find those errors in the fault's window and
// nowhere else, count them as the app made them, and say what the app saw per request sent.
var _ = Describe("A fault in the measured Dapr phases", func() {
	It("finds the target's errors in the fault's window only, with its recovery and the app's count per request sent", func() {
		ns := newNamespace()
		const qps, at, lasting, share = 100, 5 * time.Second, 3 * time.Second, 50
		run := daprRun(ns, "faulty", perfv1alpha1.ScenarioServiceInvocation, qps, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration = &metav1.Duration{Duration: 15 * time.Second}
			s.Load.Warmup = &metav1.Duration{Duration: 2 * time.Second}
			s.Load.Repetitions = 2
			s.Load.Connections = 4
			s.Baseline = ptr.To(true)
			s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultTargetErrors, At: metav1.Duration{Duration: at},
				Duration: metav1.Duration{Duration: lasting}, ErrorPercent: ptr.To[int32](share)}}
		})
		expectSucceeded(run, 5*time.Minute)
		res := resultOf(run)
		Expect(res.Faults).To(HaveLen(1), "%s", describe(run))
		o := res.Faults[0]
		GinkgoWriter.Printf("fault %+v\n", o)
		Expect(o.Path).To(Equal("dapr"))
		Expect(o.Kind).To(Equal(perfv1alpha1.FaultTargetErrors))
		Expect(o.Applied).To(Equal(int32(2)), "applied in both Dapr phases: %q", o.NotApplied)
		// Half of the ~300 invocations of 3 s at 100 rps in each phase, as the app failed them;
		// every error of the run is the fault's, and none fell outside its window.
		want := int64(2 * qps * lasting.Seconds() * share / 100)
		Expect(o.During.Errors).To(BeNumerically("~", want, want/10), "during %+v", o.During)
		Expect(o.Before.Errors).To(BeZero(), "before %+v", o.Before)
		Expect(o.After.Errors).To(BeZero(), "after %+v", o.After)
		Expect(res.Errors).To(Equal(o.During.Errors), "every error of the run is in the fault's window")
		Expect(o.Before.Seconds).To(BeNumerically(">=", 2*int32(at.Seconds())-2), "the seconds before the fault in both phases")
		// Every phase is judged (5 s before the fault set its band) and either came back or
		// did not by its end; a recovery reads with its spread over the phases that did.
		Expect(o.Recovered+o.NotRecovered).To(Equal(int32(2)), "unjudged %d", o.Unjudged)
		if o.Recovered > 0 {
			Expect(o.Recovery).NotTo(BeNil())
		}
		amp, err := strconv.ParseFloat(o.Amplification, 64)
		Expect(err).NotTo(HaveOccurred(), "the app's count per request sent: %q", o.Amplification)
		Expect(amp).To(BeNumerically(">=", 0.99), "every request sent reached the app")
	})
})

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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// Actor reminders on real Dapr's scheduler (three replicas, as its chart installs them):
// the load tester hosts the run's actor type and registers one-shot reminders through its
// own daprd; the scheduler triggers each back to it. One of the scheduler's replicas is
// deleted mid-run: the run names it as a disturbance of its phase, with its time, in its
// verdict (the e2e suite's one check of a control-plane pod's disturbance: it deleted
// placement during an actor run before), and every reminder is accounted for (triggered,
// or missed). A functional check at a low rate, short.
var _ = Describe("The Scheduler scenario", func() {
	It("registers actor reminders at the rate asked, names a scheduler replica deleted mid-run, and accounts for every reminder", func() {
		ns := newNamespace()
		const qps, seconds = 20, 15
		run := daprRun(ns, "remind", perfv1alpha1.ScenarioScheduler, qps, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration, s.Load.Warmup = &metav1.Duration{Duration: seconds * time.Second}, &metav1.Duration{Duration: 2 * time.Second}
			s.Load.Connections = 2
			s.Scheduler = &perfv1alpha1.SchedulerSpec{API: perfv1alpha1.SchedulerActorReminders,
				DueTime: &metav1.Duration{Duration: 500 * time.Millisecond}, Actors: 20}
		})
		By("deleting a scheduler replica 5 s into the measured phase (the load tester logs its start)")
		Eventually(func() string { return testerLog(run) }, 3*time.Minute, time.Second).Should(ContainSubstring("measure: repetition 1/1, dapr"),
			func() string { return describe(run) })
		time.Sleep(5 * time.Second)
		replica := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "dapr-system", Name: "dapr-scheduler-server-2"}}
		deleted := time.Now()
		Expect(k8sClient.Delete(ctx, replica)).To(Succeed())

		Eventually(func() bool { return get(run).Finished() }, 3*time.Minute, 2*time.Second).Should(BeTrue(), func() string { return describe(run) })
		st := get(run).Status
		GinkgoWriter.Printf("disturbances: %+v\n", st.Disturbances)
		Expect(st.Disturbances).To(ContainElement(SatisfyAll(
			HaveField("Role", roles.ControlPlanePrefix+"dapr-scheduler-server"), HaveField("Pod", replica.Name), HaveField("Phase", ContainSubstring("dapr")))),
			"the scheduler's replica, named with the phase it hit")
		disturbed := meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionDisturbed)
		Expect(disturbed).NotTo(BeNil())
		Expect(disturbed.Status).To(Equal(metav1.ConditionTrue))
		verdict := meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionSucceeded)
		Expect(verdict.Status).To(Equal(metav1.ConditionTrue), "a disturbed run still succeeds (the load tester's daprd shut down cleanly): %s", verdict.Message)
		Expect(verdict.Message).To(MatchRegexp(`control-plane pod dapr-scheduler-server-2 \(dapr-scheduler-server\) (deleted|created) at \d\d:\d\d:\d\d \(dapr run 1 of 1, \d+s in`))
		var seen *perfv1alpha1.Disturbance
		for i, d := range st.Disturbances {
			if d.Pod == replica.Name && seen == nil {
				seen = &st.Disturbances[i]
			}
		}
		// The deletion itself when a poll saw the pod terminating, else its successor's
		// creation: within the old pod's shutdown of the deletion.
		Expect(seen.Time.Time).To(BeTemporally("~", deleted, 35*time.Second))
		Expect(seen.Time.Time).NotTo(BeTemporally("<", deleted.Add(-time.Second).Truncate(time.Second)))

		res := resultOf(run)
		Expect(res).NotTo(BeNil())
		tr := res.Triggers
		Expect(tr).NotTo(BeNil(), "a Scheduler run reports its triggers")
		GinkgoWriter.Printf("registration: %s\nlateness: %s\ntriggers %+v, registrations failed %d of %d\n",
			summary(res.Latency), summary(tr.Lateness), *tr.Counts, res.Errors, res.Requests)
		n := tr.Counts
		Expect(n.Registered+res.Errors).To(BeNumerically(">=", qps*seconds*99/100), "every slot registered a reminder or failed")
		Expect(n.Triggered+n.Missed).To(Equal(n.Registered), "every registered reminder is triggered or missed, none unaccounted")
		Expect(n.Triggered).To(BeNumerically(">", 0))
		Expect(tr.Lateness.P50.Duration).To(BeNumerically(">", 0))

		By("the scheduler's replica is back before the next spec")
		Eventually(func() bool {
			p := &corev1.Pod{}
			if k8sClient.Get(ctx, client.ObjectKeyFromObject(replica), p) != nil {
				return false
			}
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodReady {
					return c.Status == corev1.ConditionTrue
				}
			}
			return false
		}, 3*time.Minute, 2*time.Second).Should(BeTrue())
	})
})

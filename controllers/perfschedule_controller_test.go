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
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/perfschedule"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// The schedule's time is the fake clock's; after moving it a spec pokes the schedule (an
// annotation change), as the passing of real time would wake the controller at the slot.

func createSchedule(ns, name string, mutate ...func(*perfv1alpha1.PerfScheduleSpec)) *perfv1alpha1.PerfSchedule {
	s := &perfv1alpha1.PerfSchedule{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: perfv1alpha1.PerfScheduleSpec{
			Schedule: "*/10 * * * *",
			Template: perfv1alpha1.PerfRunTemplate{
				Metadata: perfv1alpha1.TemplateMetadata{Labels: map[string]string{"team": "perf"}},
				Spec: perfv1alpha1.PerfRunSpec{
					Scenario:  perfv1alpha1.ScenarioServiceInvocation,
					Load:      perfv1alpha1.LoadSpec{QPS: 100, Duration: &metav1.Duration{Duration: 10 * time.Minute}},
					Dapr:      perfv1alpha1.DaprSpec{Enabled: ptr.To(false)},
					Cleanup:   perfv1alpha1.CleanupAlways,
					Exclusive: ptr.To(false), // beside other specs' runs on the one fake node: see createRun
				},
			},
		},
	}
	for _, m := range mutate {
		m(&s.Spec)
	}
	Expect(k8sClient.Create(suiteCtx, s)).To(Succeed())
	return s
}

func poke(s *perfv1alpha1.PerfSchedule) {
	patch := []byte(fmt.Sprintf(`{"metadata":{"annotations":{"test/poke":"%d"}}}`, time.Now().UnixNano()))
	Expect(k8sClient.Patch(suiteCtx, s, client.RawPatch("application/merge-patch+json", patch))).To(Succeed())
}

func scheduleOf(s *perfv1alpha1.PerfSchedule) *perfv1alpha1.PerfSchedule {
	out := &perfv1alpha1.PerfSchedule{}
	ExpectWithOffset(1, k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(s), out)).To(Succeed())
	return out
}

func scheduled(s *perfv1alpha1.PerfSchedule) func() string {
	return func() string {
		c := meta.FindStatusCondition(scheduleOf(s).Status.Conditions, perfv1alpha1.ConditionScheduled)
		if c == nil {
			return ""
		}
		return c.Reason + ": " + c.Message
	}
}

func runsOf(s *perfv1alpha1.PerfSchedule) func() []string {
	return func() []string {
		var list perfv1alpha1.PerfRunList
		Expect(k8sClient.List(suiteCtx, &list, client.InNamespace(s.Namespace), client.MatchingLabels{perfv1alpha1.LabelSchedule: s.Name})).To(Succeed())
		var names []string
		for _, r := range list.Items {
			names = append(names, r.Name)
		}
		return names
	}
}

// slotAfter is the first */10 slot after t.
func slotAfter(t time.Time) time.Time { return t.Truncate(10 * time.Minute).Add(10 * time.Minute) }

func runName(s *perfv1alpha1.PerfSchedule, slot time.Time) string {
	return fmt.Sprintf("%s-%d", s.Name, slot.Unix()/60)
}

// finishScheduledRun plays the kubelet for a scheduled run whose p99 is baseUs+300µs.
func finishScheduledRun(ns, name string, baseUs int64) {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	markAvailable(ns, name+"-target")
	finishLoad(latest(run), result.Summary{RequestedQPS: 100, Runs: []result.Run{summaryRun(result.Direct, 0, baseUs)}}, true)
	Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
}

var _ = Describe("PerfSchedule controller", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("fires on time, skips an overlapping slot, prunes history and flags a regression", func() {
		s := createSchedule(ns, "nightly", func(spec *perfv1alpha1.PerfScheduleSpec) {
			spec.SuccessfulRunsHistoryLimit = ptr.To[int32](2)
			spec.Regression = perfv1alpha1.RegressionSpec{Window: 2, TolerancePercent: 10}
		})
		slot1 := slotAfter(fakeClock.Now())
		Eventually(func() *metav1.Time { return scheduleOf(s).Status.NextScheduleTime }).Should(Equal(&metav1.Time{Time: slot1}))
		Consistently(runsOf(s), time.Second).Should(BeEmpty(), "nothing before the first slot")

		By("the first slot creates a run with a deterministic name")
		fakeClock.SetTime(slot1.Add(time.Second))
		poke(s)
		Eventually(runsOf(s)).Should(ConsistOf(runName(s, slot1)))
		run1 := latest(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: runName(s, slot1)}})
		Expect(run1.Labels).To(HaveKeyWithValue("team", "perf"))
		Expect(run1.Annotations).To(HaveKeyWithValue(perfv1alpha1.AnnotationScheduledTime, slot1.UTC().Format(time.RFC3339)))
		Expect(metav1.IsControlledBy(run1, scheduleOf(s))).To(BeTrue())
		Eventually(scheduled(s)).Should(HavePrefix(perfv1alpha1.ReasonRunCreated))

		By("Forbid skips the next slot while the run is active, and says why")
		slot2 := slot1.Add(10 * time.Minute)
		fakeClock.SetTime(slot2.Add(time.Second))
		poke(s)
		Eventually(scheduled(s)).Should(And(HavePrefix(perfv1alpha1.ReasonOverlap), ContainSubstring(run1.Name+" is still active")))
		Consistently(runsOf(s), time.Second).Should(HaveLen(1))
		Eventually(func() []string { return scheduleOf(s).Status.Active }).Should(ConsistOf(run1.Name))

		By("runs of later slots, compared with the ones before them")
		finishScheduledRun(ns, run1.Name, 1000)
		Expect(meta.FindStatusCondition(latest(run1).Status.Conditions, perfv1alpha1.ConditionRegressed).Reason).To(Equal(perfv1alpha1.ReasonNoReference))
		slot3 := slot2.Add(10 * time.Minute)
		fakeClock.SetTime(slot3.Add(time.Second))
		poke(s)
		Eventually(runsOf(s)).Should(ContainElement(runName(s, slot3)))
		// A disturbed run measured a recovery: it is no reference. Says so of run1 for a while.
		setDisturbed := func(run *perfv1alpha1.PerfRun, status metav1.ConditionStatus) {
			Eventually(func() error {
				r := latest(run)
				meta.SetStatusCondition(&r.Status.Conditions, metav1.Condition{Type: perfv1alpha1.ConditionDisturbed, Status: status,
					Reason: perfv1alpha1.ReasonPodsDisturbed, ObservedGeneration: r.Generation})
				return k8sClient.Status().Update(suiteCtx, r)
			}).Should(Succeed())
		}
		setDisturbed(run1, metav1.ConditionTrue)
		finishScheduledRun(ns, runName(s, slot3), 1000) // the same as run1: with two reference runs only an exact reference is judged
		run3 := latest(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: runName(s, slot3)}})
		c3 := meta.FindStatusCondition(run3.Status.Conditions, perfv1alpha1.ConditionRegressed)
		Expect(c3.Reason).To(Equal(perfv1alpha1.ReasonNoReference))
		Expect(c3.Message).To(ContainSubstring("0 earlier successful, undisturbed runs of schedule nightly with this template; 2 are needed"))
		setDisturbed(run1, metav1.ConditionFalse)
		Eventually(func() *bool { return scheduleOf(s).Status.LatestRegressed }).Should(Equal(ptr.To(false)))

		slot4 := slot3.Add(10 * time.Minute)
		fakeClock.SetTime(slot4.Add(time.Second))
		poke(s)
		Eventually(runsOf(s)).Should(ContainElement(runName(s, slot4)))
		finishScheduledRun(ns, runName(s, slot4), 2000) // p99 2.3ms (2.301ms: the top of its HDR bucket) against 1.3ms
		run4 := latest(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: runName(s, slot4)}})
		c := meta.FindStatusCondition(run4.Status.Conditions, perfv1alpha1.ConditionRegressed)
		Expect(c.Status).To(Equal(metav1.ConditionTrue))
		Expect(c.Message).To(ContainSubstring("p99 2.301ms vs median 1.3ms of 2 reference runs (1.3ms..1.3ms)"))
		Eventually(eventReasons(run4)).Should(ContainElement(perfv1alpha1.ReasonRegressed))

		By("history keeps the newest two successful runs")
		Eventually(runsOf(s)).Should(ConsistOf(runName(s, slot3), runName(s, slot4)))
		Eventually(func() perfv1alpha1.PerfScheduleStatus { return scheduleOf(s).Status }).Should(And(
			HaveField("LastRun", runName(s, slot4)),
			HaveField("LastSuccessfulRun", runName(s, slot4)),
			HaveField("LatestRegressed", Equal(ptr.To(true))),
			HaveField("LastScheduleTime.Time", BeTemporally("==", slot4)),
		))

		By("Argo CD sees the regression on the run and on the schedule")
		status, msg := health("PerfRun", latest(run4))
		Expect(status).To(Equal("Degraded"))
		Expect(msg).To(HavePrefix("Regressed: p99 2.301ms"))
		status, msg = health("PerfSchedule", scheduleOf(s))
		Expect(status).To(Equal("Degraded"))
		Expect(msg).To(ContainSubstring(runName(s, slot4)))

		By("a changed template measures something else: it starts a new reference")
		changed := scheduleOf(s)
		changed.Spec.Template.Spec.Load.QPS = 200
		Expect(k8sClient.Update(suiteCtx, changed)).To(Succeed())
		slot5 := slot4.Add(10 * time.Minute)
		fakeClock.SetTime(slot5.Add(time.Second))
		poke(s)
		Eventually(runsOf(s)).Should(ContainElement(runName(s, slot5)))
		finishScheduledRun(ns, runName(s, slot5), 3000) // far worse than the old template's runs
		run5 := latest(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: runName(s, slot5)}})
		Expect(run5.Annotations[perfv1alpha1.AnnotationTemplateHash]).NotTo(Equal(run4.Annotations[perfv1alpha1.AnnotationTemplateHash]))
		c5 := meta.FindStatusCondition(run5.Status.Conditions, perfv1alpha1.ConditionRegressed)
		Expect(c5.Reason).To(Equal(perfv1alpha1.ReasonNoReference), c5.Message)
		Expect(c5.Message).To(ContainSubstring("0 earlier successful, undisturbed runs of schedule nightly with this template"))
	})

	It("exports the schedule's history, one series per figure, past its runs' pruning until the schedule goes", func() {
		s := createSchedule(ns, "kept")
		slot := slotAfter(fakeClock.Now())
		Eventually(func() *metav1.Time { return scheduleOf(s).Status.NextScheduleTime }).Should(Equal(&metav1.Time{Time: slot}))
		fakeClock.SetTime(slot.Add(time.Second))
		poke(s)
		Eventually(runsOf(s)).Should(ConsistOf(runName(s, slot)))
		finishScheduledRun(ns, runName(s, slot), 1000)
		history := `daprbench_perfschedule_requested_qps{namespace="` + ns + `",schedule="kept"} 100`
		Eventually(scrape).Should(ContainSubstring(history))

		By("the run is deleted (pruned, or by hand): its series go, the schedule's history stays")
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: runName(s, slot)}}
		Expect(k8sClient.Delete(suiteCtx, run)).To(Succeed())
		Eventually(runsOf(s)).Should(BeEmpty())
		Eventually(scrape).ShouldNot(ContainSubstring(`perfrun="` + run.Name + `"`))
		poke(s)
		Consistently(scrape, time.Second).Should(ContainSubstring(history))

		suspended := scheduleOf(s)
		suspended.Spec.Suspend = true
		Expect(k8sClient.Update(suiteCtx, suspended)).To(Succeed())
		Eventually(scheduled(s)).Should(HavePrefix(perfv1alpha1.ReasonSuspended))
		Expect(scrape()).To(ContainSubstring(history), "a suspended schedule keeps its history")

		Expect(k8sClient.Delete(suiteCtx, scheduleOf(s))).To(Succeed())
		Eventually(scrape).ShouldNot(ContainSubstring(`schedule="kept"`))
	})

	It("stops while suspended and records a slot missed past its starting deadline", func() {
		s := createSchedule(ns, "paused", func(spec *perfv1alpha1.PerfScheduleSpec) {
			spec.Suspend = true
			spec.StartingDeadlineSeconds = ptr.To[int64](60)
		})
		Eventually(scheduled(s)).Should(HavePrefix(perfv1alpha1.ReasonSuspended))
		slot1 := slotAfter(fakeClock.Now())
		fakeClock.SetTime(slot1.Add(5 * time.Minute)) // five minutes late
		poke(s)
		Consistently(runsOf(s), time.Second).Should(BeEmpty(), "suspended")

		unsuspended := scheduleOf(s)
		unsuspended.Spec.Suspend = false
		Expect(k8sClient.Update(suiteCtx, unsuspended)).To(Succeed())
		Eventually(scheduled(s)).Should(And(HavePrefix(perfv1alpha1.ReasonMissedDeadline), ContainSubstring("5m0s late")))
		Consistently(runsOf(s), time.Second).Should(BeEmpty(), "a slot past its deadline is not run late")

		slot2 := slot1.Add(10 * time.Minute)
		fakeClock.SetTime(slot2.Add(2 * time.Second))
		poke(s)
		Eventually(runsOf(s)).Should(ConsistOf(runName(s, slot2)))
	})

	It("handles the latest of many missed slots, as CronJob, and warns that too many were missed", func() {
		everyMinute := func(spec *perfv1alpha1.PerfScheduleSpec) {
			spec.Schedule = "* * * * *"
			spec.ConcurrencyPolicy = perfv1alpha1.ConcurrencyAllow
		}
		wedged := createSchedule(ns, "wedged", everyMinute)
		narrowed := createSchedule(ns, "narrowed", everyMinute, func(spec *perfv1alpha1.PerfScheduleSpec) {
			spec.StartingDeadlineSeconds = ptr.To[int64](300)
		})
		Eventually(func() *metav1.Time { return scheduleOf(narrowed).Status.NextScheduleTime }).ShouldNot(BeNil())
		// The controller comes back after 2000 minutes: the latest slot, not the 1000th.
		latest := scheduleOf(wedged).CreationTimestamp.Add(2000 * time.Minute).Truncate(time.Minute)
		fakeClock.SetTime(latest.Add(30 * time.Second))
		poke(wedged)
		poke(narrowed)
		Eventually(runsOf(wedged)).Should(ConsistOf(runName(wedged, latest)))
		Eventually(eventReasons(wedged)).Should(ContainElement(perfv1alpha1.ReasonTooManyMissedSlots))
		By("a starting deadline narrows the search to the slots that could still start")
		Eventually(runsOf(narrowed)).Should(ConsistOf(runName(narrowed, latest)))
		Eventually(scheduled(narrowed)).Should(HavePrefix(perfv1alpha1.ReasonRunCreated))
		Consistently(eventReasons(narrowed), time.Second).ShouldNot(ContainElement(perfv1alpha1.ReasonTooManyMissedSlots))
	})

	It("reports a schedule it cannot parse", func() {
		// Five fields pass admission; a minute of 61 is for the parser to refuse.
		s := createSchedule(ns, "broken", func(spec *perfv1alpha1.PerfScheduleSpec) { spec.Schedule = "61 3 * * *" })
		Eventually(scheduled(s)).Should(HavePrefix(perfv1alpha1.ReasonInvalidSchedule + `: spec.schedule "61 3 * * *"`))
		// A zone the API server does not know is refused at admission (the operator's own
		// check, for a zone its time zone database lacks, is parseSchedule's unit test).
		tz := &perfv1alpha1.PerfSchedule{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "badzone"}, Spec: *s.Spec.DeepCopy()}
		tz.Spec.Schedule, tz.Spec.TimeZone = "0 3 * * *", ptr.To("Mars/Olympus")
		Expect(k8sClient.Create(suiteCtx, tz)).To(MatchError(ContainSubstring("must name an IANA time zone the API server knows")))
		never := createSchedule(ns, "never", func(spec *perfv1alpha1.PerfScheduleSpec) { spec.Schedule = "0 0 30 2 *" })
		Eventually(scheduled(never)).Should(And(HavePrefix(perfv1alpha1.ReasonInvalidSchedule), ContainSubstring("never fires")))
		fast := createSchedule(ns, "fast", func(spec *perfv1alpha1.PerfScheduleSpec) { spec.Schedule = "@every 30s" })
		Eventually(scheduled(fast)).Should(And(HavePrefix(perfv1alpha1.ReasonInvalidSchedule), ContainSubstring("under a minute")))
		Consistently(runsOf(fast), time.Second).Should(BeEmpty())
	})

	It("says so when the API server refuses a slot's run, and tries again at the next slot", func() {
		s := createSchedule(ns, "badlabel", func(spec *perfv1alpha1.PerfScheduleSpec) {
			spec.Template.Metadata.Labels = map[string]string{"not a label key!": "x"}
		})
		// Before any slot: a dry run of the template's run is refused, and says so at once.
		templateAdmitted := func(s *perfv1alpha1.PerfSchedule) func() string {
			return func() string {
				c := meta.FindStatusCondition(scheduleOf(s).Status.Conditions, perfv1alpha1.ConditionTemplateAdmitted)
				if c == nil || c.ObservedGeneration != scheduleOf(s).Generation {
					return ""
				}
				return string(c.Status) + " " + c.Reason + ": " + c.Message
			}
		}
		Eventually(templateAdmitted(s)).Should(And(HavePrefix("False "+perfv1alpha1.ReasonTemplateRefused+": the API server refuses a run made from this template"),
			ContainSubstring("metadata.labels")))
		// Asked again at each pass, the same refusal is not written again: no reconcile loop.
		written := scheduleOf(s).ResourceVersion
		Consistently(func() string { return scheduleOf(s).ResourceVersion }, 2*time.Second).Should(Equal(written))
		good := createSchedule(ns, "goodlabel")
		Eventually(templateAdmitted(good)).Should(HavePrefix("True " + perfv1alpha1.ReasonTemplateAdmitted))
		Expect(k8sClient.Delete(suiteCtx, good)).To(Succeed()) // its slots are not this spec's
		slot := slotAfter(fakeClock.Now())
		Eventually(func() *metav1.Time { return scheduleOf(s).Status.NextScheduleTime }).Should(Equal(&metav1.Time{Time: slot}))
		fakeClock.SetTime(slot.Add(time.Second))
		poke(s)
		Eventually(scheduled(s)).Should(And(HavePrefix(perfv1alpha1.ReasonRunNotCreated+": slot "+slot.UTC().Format(time.RFC3339)+": the API server refused the run"),
			ContainSubstring("metadata.labels")))
		Expect(scheduleOf(s).Status.NextScheduleTime.Time).To(Equal(slot.Add(10 * time.Minute)))
		Expect(runsOf(s)()).To(BeEmpty())
	})

	It("keeps a slot whose run could not be created for a moment, and creates it on the retry", func() {
		s := createSchedule(ns, "flaky")
		slot := slotAfter(fakeClock.Now())
		Eventually(func() *metav1.Time { return scheduleOf(s).Status.NextScheduleTime }).Should(Equal(&metav1.Time{Time: slot}))
		// A reconciler of its own whose clock has reached the slot (the manager's has not), and
		// whose first create of a run times out.
		clock := clocktesting.NewFakeClock(slot.Add(time.Second))
		creates := 0
		base, err := client.NewWithWatch(restConfig, client.Options{Scheme: scheme})
		Expect(err).NotTo(HaveOccurred())
		flaky := interceptor.NewClient(base, interceptor.Funcs{
			Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
				if _, isRun := obj.(*perfv1alpha1.PerfRun); isRun {
					if creates++; creates == 1 {
						return errors.New("etcdserver: request timed out")
					}
				}
				return c.Create(ctx, obj, opts...)
			},
		})
		r := &perfschedule.Reconciler{Client: flaky, Recorder: events.NewFakeRecorder(10), Clock: clock}
		req := ctrl.Request{NamespacedName: client.ObjectKeyFromObject(s)}
		_, err = r.Reconcile(suiteCtx, req)
		Expect(err).To(MatchError(ContainSubstring("request timed out")))
		Expect(scheduleOf(s).Status.LastScheduleTime).To(BeNil(), "the slot is not handled until its run exists")
		Expect(runsOf(s)()).To(BeEmpty())
		// The retry (passes that meet the manager's own status writes requeue, as they would).
		Eventually(func() *metav1.Time {
			_, err := r.Reconcile(suiteCtx, req)
			Expect(err).NotTo(HaveOccurred())
			return scheduleOf(s).Status.LastScheduleTime
		}).Should(Equal(&metav1.Time{Time: slot}))
		Expect(runsOf(s)()).To(ConsistOf(runName(s, slot)), "the retry created the slot's run")
	})

	It("never starts an overlapping run when its cache has not seen the previous slot's run yet", func() {
		s := createSchedule(ns, "lagging")
		slot1 := slotAfter(fakeClock.Now())
		Eventually(func() *metav1.Time { return scheduleOf(s).Status.NextScheduleTime }).Should(Equal(&metav1.Time{Time: slot1}))
		// A reconciler of its own whose clock has reached the slots (the manager's has not) and
		// whose cache never shows a run: the moment after a run's creation, stretched.
		clock := clocktesting.NewFakeClock(slot1.Add(time.Second))
		base, err := client.NewWithWatch(restConfig, client.Options{Scheme: scheme})
		Expect(err).NotTo(HaveOccurred())
		lagging := interceptor.NewClient(base, interceptor.Funcs{
			List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
				if _, runs := list.(*perfv1alpha1.PerfRunList); runs {
					return nil // the cache has not caught up
				}
				return c.List(ctx, list, opts...)
			},
		})
		r := &perfschedule.Reconciler{Client: lagging, APIReader: base, Recorder: events.NewFakeRecorder(10), Clock: clock}
		req := ctrl.Request{NamespacedName: client.ObjectKeyFromObject(s)}
		// The manager's own passes write the schedule's status too: a conflict is retried.
		reconcileUntil := func(slot time.Time) {
			Eventually(func(g Gomega) *metav1.Time {
				if _, err := r.Reconcile(suiteCtx, req); !apierrors.IsConflict(err) {
					g.Expect(err).NotTo(HaveOccurred())
				}
				return scheduleOf(s).Status.LastScheduleTime
			}).Should(Equal(&metav1.Time{Time: slot}))
		}
		reconcileUntil(slot1)
		Expect(runsOf(s)()).To(ConsistOf(runName(s, slot1)))

		slot2 := slot1.Add(10 * time.Minute)
		clock.SetTime(slot2.Add(time.Second))
		reconcileUntil(slot2)
		Expect(scheduled(s)()).To(And(HavePrefix(perfv1alpha1.ReasonOverlap), ContainSubstring(runName(s, slot1)+" is still active")))
		Expect(runsOf(s)()).To(ConsistOf(runName(s, slot1)), "the run of slot 1 is still measuring: Forbid starts none beside it")
	})
})

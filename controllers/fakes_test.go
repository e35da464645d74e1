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
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/document/schema"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/pods/latency"
	"github.com/daprbench/daprbench/internal/testenv"
)

// These helpers play the parts envtest lacks — the kubelet and the Deployment and Job
// controllers — by writing the status those would write. What they write is what the real
// ones write (conditions, container states, the load tester's encoded summary).

const (
	testNode         = "node-a"
	testSidecarImage = "ghcr.io/dapr/daprd:1.16.0"
)

func deploymentSkeleton(ns, name string, labels map[string]string, image string) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}},
			},
		},
	}
}

// markAvailable plays the Deployment controller and kubelet: one ready pod on testNode
// and an Available Deployment status for the current generation.
func markAvailable(ns, name string) {
	d := &appsv1.Deployment{}
	Eventually(func() error { return k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: name}, d) }).Should(Succeed())
	pod := podFromTemplate(d, name+"-pod", d.Spec.Template)
	Expect(client.IgnoreAlreadyExists(k8sClient.Create(suiteCtx, pod))).To(Succeed())
	setPodStatus(pod, corev1.PodRunning, func(name string) corev1.ContainerState {
		return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}
	}, true)
	deploymentAvailable(d)
}

// deploymentAvailable plays the Deployment controller's status of an Available Deployment,
// whatever its pods are doing.
func deploymentAvailable(d *appsv1.Deployment) {
	Eventually(func() error {
		if err := k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(d), d); err != nil {
			return err
		}
		d.Status = appsv1.DeploymentStatus{
			ObservedGeneration: d.Generation, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1,
			Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue,
				Reason: "MinimumReplicasAvailable", LastUpdateTime: metav1.Now(), LastTransitionTime: metav1.Now()}},
		}
		return k8sClient.Status().Update(suiteCtx, d)
	}).Should(Succeed())
}

// podWaiting creates a pod of a Deployment whose containers wait with the kubelet's reason.
func podWaiting(ns, deployment, reason, message string) {
	d := &appsv1.Deployment{}
	Eventually(func() error { return k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: deployment}, d) }).Should(Succeed())
	pod := podFromTemplate(d, deployment+"-pod", d.Spec.Template)
	Expect(k8sClient.Create(suiteCtx, pod)).To(Succeed())
	setPodStatus(pod, corev1.PodPending, func(string) corev1.ContainerState {
		return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}}
	}, false)
}

// finishLoad plays the Job controller and kubelet for the run's current Job: a pod whose
// load tester wrote sum's report (completed as its summarizer would) at the end of its log
// and the pointer to it as its termination message, then a Complete or Failed Job.
func finishLoad(run *perfv1alpha1.PerfRun, sum result.Summary, succeeded bool) {
	finishLoadWith(run, reportOf(sum), succeeded)
}

// finishLoadWith is finishLoad with the whole report given.
func finishLoadWith(run *perfv1alpha1.PerfRun, rep result.Report, succeeded bool) {
	finishLoadWithMessage(run, wrote(run.Namespace, currentJobOf(run).Name+"-pod", rep), succeeded)
}

// encoded is the termination message of a load tester in pod that measured sum, its report
// written to the pod's log.
func encoded(ns, pod string, sum result.Summary) string { return wrote(ns, pod, reportOf(sum)) }

// wrote plays a load tester in pod that wrote rep: its frame at the end of the pod's log
// (what the fake kubelet serves), and the pointer to it, returned as the termination
// message.
func wrote(ns, pod string, rep result.Report) string {
	var log bytes.Buffer
	log.WriteString(`{"fortio":"json"}` + "\n")
	p, err := result.WriteFrame(&log, rep, rep.Summary.Error)
	ExpectWithOffset(2, err).NotTo(HaveOccurred())
	log.WriteString("loadtester: sidecar stopped\n")
	testLogs.set(ns, pod, log.String())
	msg, err := result.EncodePointer(p)
	ExpectWithOffset(2, err).NotTo(HaveOccurred())
	return string(msg)
}

// reportOf is the report the load tester writes for sum. The load tester's own summarizer
// completes it: each run becomes the recording of 10 000 requests, sent on time, whose
// percentiles are the run's, and those give the merged latencies, the added latency and
// each path's histograms.
//
// A summary whose runs are all repetition 0 stands for a run of the default repetitions:
// its runs are repeated, one after another, as the load tester would have measured them.
func reportOf(sum result.Summary) result.Report {
	if len(sum.Runs) > 0 && !slices.ContainsFunc(sum.Runs, func(r result.Run) bool { return r.Rep > 0 }) {
		first := sum.Runs
		for rep := 1; rep < perfv1alpha1.DefaultRepetitions; rep++ {
			for _, r := range first {
				r.Rep = rep
				if r.StartUnix > 0 {
					r.StartUnix += int64(rep) * int64(math.Ceil(r.Seconds)) * int64(len(first))
				}
				sum.Runs = append(sum.Runs, r)
			}
		}
	}
	rep := result.Report{Summary: sum}
	if len(sum.Runs) > 0 {
		recs := map[latency.Key]*latency.Recorded{}
		for _, r := range sum.Runs {
			recs[latency.Key{Variant: r.Variant, Rep: r.Rep}] = recordingOf(r)
		}
		if sum.Merged == nil {
			latency.Summarize(&rep.Summary, recs, result.StandardPercentiles)
		}
		var err error
		rep.Histograms, err = latency.HistogramsOf(sum.Runs, recs)
		ExpectWithOffset(2, err).NotTo(HaveOccurred())
	}
	return rep
}

// recordingOf returns 10 000 requests with r's percentiles (see histogramOf), sent on time,
// dealt round-robin into ten one-second blocks of the same distribution.
func recordingOf(r result.Run) *latency.Recorded {
	h := histogramOf(r)
	rec := &latency.Recorded{Latency: h, Service: h, Lag: result.NewHistogram()}
	_ = rec.Lag.RecordValues(0, h.TotalCount())
	blocks := make([]map[int64]int64, 10)
	for i := range blocks {
		blocks[i] = map[int64]int64{}
	}
	k := 0
	for _, bar := range h.Distribution() {
		for range bar.Count {
			blocks[k%10][bar.To]++
			k++
		}
	}
	for _, b := range blocks {
		c := latency.Counts{}
		for _, v := range slices.Sorted(maps.Keys(b)) {
			c.Values, c.Counts = append(c.Values, v), append(c.Counts, b[v])
		}
		rec.Blocks = append(rec.Blocks, c)
	}
	return rec
}

// histogramOf returns 10 000 latencies with r's percentiles: the k-th fastest request is
// interpolated between the percentiles around rank k, from half the p50 up to r's max.
func histogramOf(r result.Run) *hdrhistogram.Histogram {
	const n = 10_000
	type knot struct{ rank, us float64 }
	p50, _ := r.Latency(50)
	knots := []knot{{1, float64(p50.Microseconds()) / 2}}
	for _, p := range result.StandardPercentiles {
		v, _ := r.Latency(p)
		knots = append(knots, knot{p / 100 * n, float64(v.Microseconds())})
	}
	knots = append(knots, knot{n, float64(r.MaxUs)})
	h := result.NewHistogram()
	for k, i := 1.0, 1; k <= n; k++ {
		for k > knots[i].rank {
			i++
		}
		a, b := knots[i-1], knots[i]
		_ = h.RecordValue(int64(math.Round(a.us + (b.us-a.us)*(k-a.rank)/(b.rank-a.rank))))
	}
	return h
}

func finishLoadWithMessage(run *perfv1alpha1.PerfRun, message string, succeeded bool) {
	job := currentJobOf(run)
	terminateLoadTester(job, message, succeeded)
	completeJob(job, succeeded)
}

// terminateLoadTester plays the kubelet: the load tester's containers ended, the tester's
// with message as its termination message.
func terminateLoadTester(job *batchv1.Job, message string, succeeded bool) {
	pod := loadTesterPod(job)
	exit := int32(0)
	if !succeeded {
		exit = 1
	}
	setPodStatus(pod, corev1.PodSucceeded, func(string) corev1.ContainerState {
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: exit, Reason: "Completed", Message: message}}
	}, false)
}

// completeJob plays the Job controller: Complete, or Failed at its backoff limit.
func completeJob(job *batchv1.Job, succeeded bool) {
	now := metav1.NewTime(fakeClock.Now())
	Eventually(func() error {
		if err := k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(job), job); err != nil {
			return err
		}
		job.Status.StartTime = ptr.To(metav1.NewTime(now.Add(-time.Minute)))
		if succeeded {
			job.Status.Succeeded = 1
			job.Status.CompletionTime = &now
			job.Status.Conditions = []batchv1.JobCondition{
				{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastTransitionTime: now, LastProbeTime: now},
				{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: now, LastProbeTime: now},
			}
		} else {
			job.Status.Failed = 1
			job.Status.Conditions = []batchv1.JobCondition{
				{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonBackoffLimitExceeded, LastTransitionTime: now, LastProbeTime: now},
				{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonBackoffLimitExceeded,
					Message: "Job has reached the specified backoff limit", LastTransitionTime: now, LastProbeTime: now},
			}
		}
		return k8sClient.Status().Update(suiteCtx, job)
	}).Should(Succeed())
}

// startLoad plays the kubelet starting the load tester's container.
func startLoad(run *perfv1alpha1.PerfRun) {
	pod := loadTesterPod(currentJobOf(run))
	setPodStatus(pod, corev1.PodRunning, func(string) corev1.ContainerState {
		return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(fakeClock.Now().Add(-time.Minute))}}
	}, true)
}

// loadTesterPod returns the Job's pod, creating it as the Job controller would.
func loadTesterPod(job *batchv1.Job) *corev1.Pod {
	pod := podFromTemplate(job, job.Name+"-pod", job.Spec.Template)
	pod.Labels["batch.kubernetes.io/job-name"] = job.Name
	Expect(client.IgnoreAlreadyExists(k8sClient.Create(suiteCtx, pod))).To(Succeed())
	return pod
}

func currentJobOf(run *perfv1alpha1.PerfRun) *batchv1.Job {
	job := &batchv1.Job{}
	key := client.ObjectKey{Namespace: run.Namespace, Name: fmt.Sprintf("%s-load-%d", run.Name, latest(run).Generation)}
	Eventually(func() error { return k8sClient.Get(suiteCtx, key, job) }).Should(Succeed(), "the load-tester Job %s was not created", key)
	// The Job is created before the status that says so is written; callers assert on that status.
	Eventually(phaseOf(run)).Should(BeElementOf(perfv1alpha1.PhaseRunning, perfv1alpha1.PhaseSucceeded, perfv1alpha1.PhaseFailed))
	return job
}

// podFromTemplate plays the Deployment or Job controller, and Dapr's injector: a pod of
// controller (a Deployment's through its ReplicaSet) that asks for a sidecar gets a daprd
// container.
func podFromTemplate(controller client.Object, name string, tmpl corev1.PodTemplateSpec) *corev1.Pod {
	pod := podWithoutInjection(controller, name, tmpl)
	if pod.Annotations[workload.AnnotationDaprEnabled] == "true" {
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: workload.ContainerDaprd, Image: testSidecarImage})
	}
	return pod
}

// podWithoutInjection is a pod as a fail-open injector that did not answer leaves it.
func podWithoutInjection(controller client.Object, name string, tmpl corev1.PodTemplateSpec) *corev1.Pod {
	labels := map[string]string{}
	for k, v := range tmpl.Labels {
		labels[k] = v
	}
	spec := *tmpl.Spec.DeepCopy()
	spec.NodeName = testNode
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = corev1.RestartPolicyAlways
	}
	owner := controller
	if d, ok := controller.(*appsv1.Deployment); ok {
		owner = replicaSetOf(d)
	}
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: owner.GetNamespace(), Labels: labels, Annotations: tmpl.Annotations,
		OwnerReferences: []metav1.OwnerReference{controllerRef(owner)}}, Spec: spec}
}

// replicaSetOf plays the Deployment controller: d's ReplicaSet, created on first use, with
// the template's labels and d as its controller.
func replicaSetOf(d *appsv1.Deployment) *appsv1.ReplicaSet {
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: d.Name + "-rs", Namespace: d.Namespace, Labels: d.Spec.Template.Labels,
			OwnerReferences: []metav1.OwnerReference{controllerRef(d)}},
		Spec: appsv1.ReplicaSetSpec{Selector: d.Spec.Selector, Template: d.Spec.Template},
	}
	if err := k8sClient.Create(suiteCtx, rs); err != nil {
		ExpectWithOffset(2, apierrors.IsAlreadyExists(err)).To(BeTrue(), "creating ReplicaSet: %v", err)
		ExpectWithOffset(2, k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(rs), rs)).To(Succeed())
	}
	return rs
}

// controllerRef is the owner reference a controller sets on what it creates.
func controllerRef(owner client.Object) metav1.OwnerReference {
	gvk, err := apiutil.GVKForObject(owner, k8sClient.Scheme())
	ExpectWithOffset(3, err).NotTo(HaveOccurred())
	return *metav1.NewControllerRef(owner, gvk)
}

// podIPs numbers the pod IPs the fake kubelet hands out.
var podIPs atomic.Int32

// testCalibration is the score every fake pod's calibration reports.
const testCalibration = `{"single":12345.6,"perCPUSecond":12500,"parallel":20000,"parallelism":2,"seconds":2}`

func setPodStatus(pod *corev1.Pod, phase corev1.PodPhase, state func(container string) corev1.ContainerState, ready bool) {
	Eventually(func() error {
		if err := k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(pod), pod); err != nil {
			return err
		}
		pod.Status.Phase = phase
		if phase == corev1.PodRunning && pod.Status.PodIP == "" {
			pod.Status.PodIP = fmt.Sprintf("10.244.0.%d", podIPs.Add(1)%250+2)
		}
		// Init containers have ended by the time any container runs: the calibration with its
		// score as its termination message.
		pod.Status.InitContainerStatuses = nil
		for _, c := range pod.Spec.InitContainers {
			msg := ""
			if c.Name == workload.ContainerCalibrate {
				msg = testCalibration
			}
			pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, corev1.ContainerStatus{Name: c.Name, Image: c.Image,
				State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", Message: msg}}})
		}
		pod.Status.ContainerStatuses = nil
		for _, c := range pod.Spec.Containers {
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{
				Name: c.Name, Image: c.Image, Ready: ready, State: state(c.Name),
			})
		}
		return k8sClient.Status().Update(suiteCtx, pod)
	}).Should(Succeed())
}

// latest re-reads a PerfRun.
// documentOf is run's result document as every reader reads it: through the ConfigMap its
// status names, checked against the status's digest; and it matches the document's JSON
// Schema, as every document a spec reads does.
func documentOf(run *perfv1alpha1.PerfRun) *perfv1alpha1.ResultDocument {
	l := latest(run)
	ExpectWithOffset(1, l.Status.Result).NotTo(BeNil(), "run %s has no result", run.Name)
	doc, js, err := document.Read(suiteCtx, k8sClient, l)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	ExpectWithOffset(1, schema.Validate(resultSchema, js)).To(Succeed(), "run %s's document against %s", run.Name, schema.File)
	return doc
}

// resultOf is run's result: its document's figures.
func resultOf(run *perfv1alpha1.PerfRun) *perfv1alpha1.Result { return documentOf(run).Result }

// resultSchema is the result document's JSON Schema, as the repository ships it.
var resultSchema = func() []byte {
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), schema.File))
	if err != nil {
		panic(err)
	}
	return b
}()

func latest(run *perfv1alpha1.PerfRun) *perfv1alpha1.PerfRun {
	out := &perfv1alpha1.PerfRun{}
	ExpectWithOffset(1, k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(run), out)).To(Succeed())
	return out
}

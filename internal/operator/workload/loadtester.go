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

package workload

import (
	"fmt"
	"math"
	"net"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// LoadTesterJob runs cmd/loadtester once: no retries (a retried benchmark would measure
// twice), bounded by the run's timeout, its report a frame at the end of its log and the
// pointer to it in the termination message.
// targetIP is the target pod's IP, for a same-pod baseline, a four-path run's server-only
// path and profiling (see LoadTesterEnv); variantTargetIPs are the further sidecar
// variants' (d1, d2, …), for a run whose faults go through each variant's target.
func LoadTesterJob(run *perfv1alpha1.PerfRun, o Options, targetIP string, variantTargetIPs ...string) *batchv1.Job {
	names := NamesFor(run)
	c := corev1.Container{
		Name:    ContainerTester,
		Image:   imageFor(run.Spec.LoadTester.Image, o),
		Command: []string{loadtesterBinary},
		Env:     append(LoadTesterEnv(run, targetIP, variantTargetIPs...), killEnv(run, o.KillURL)...),
	}
	labels := Labels(run, RoleLoadTester)
	labels[LabelGeneration] = strconv.FormatInt(run.Generation, 10)
	pod := podSpec(run, run.Spec.LoadTester.WorkloadSpec, c, o)
	defaultTesterCPURequest(&pod.Containers[0], run)
	withCalibration(&pod, run, o)
	pod.RestartPolicy = corev1.RestartPolicyNever
	pod.Affinity = loadTesterAffinity(run)
	tmpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: pod}
	if run.Spec.DaprEnabled() {
		tmpl.Annotations = daprAnnotations(run, names.TesterAppID, sideOf(run).TesterAppPort(run))
		withProfiling(tmpl.Annotations, run)
	}
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: names.Job, Namespace: run.Namespace, Labels: labels},
		Spec: batchv1.JobSpec{
			BackoffLimit:          ptr.To[int32](0),
			ActiveDeadlineSeconds: ptr.To(int64(math.Ceil(run.Spec.EffectiveTimeout().Seconds()))),
			Template:              tmpl,
		},
	}
	if n := run.Spec.LoadTester.EffectiveReplicas(); n > 1 {
		asGroup(job, n)
	}
	if run.Spec.KillsLoadTester() {
		// The run's own kill evicts a pod (it is marked DisruptionTarget): the Job replaces
		// it, and the group takes the replacement in at the next phase. Any other failure
		// still fails the Job.
		job.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
			Action:          batchv1.PodFailurePolicyActionIgnore,
			OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue}},
		}}}
	}
	return job
}

// defaultTesterCPURequest gives the load tester a CPU request where the spec sets none: it
// shares the node with the sidecars it measures, and without a request it competes for CPU
// with the weight of a best-effort container, so a busy sidecar makes the tester late and
// its lag lands in the figures. The load tester used 72–75m at 1000 rps on a 2-vCPU node
// (issue #31's runs); the request is twice that for the pod's share of the rate, 100m at the
// least and 2 CPUs at the most.
func defaultTesterCPURequest(c *corev1.Container, run *perfv1alpha1.PerfRun) {
	if _, set := c.Resources.Requests[corev1.ResourceCPU]; set {
		return
	}
	share := float64(run.Spec.Load.QPS) / float64(run.Spec.LoadTester.EffectiveReplicas())
	milli := int64(math.Min(math.Max(math.Ceil(share*TesterCPUMilliPerRPS), 100), 2000))
	if c.Resources.Requests == nil {
		c.Resources.Requests = corev1.ResourceList{}
	}
	c.Resources.Requests[corev1.ResourceCPU] = *resource.NewMilliQuantity(milli, resource.DecimalSI)
	if lim, ok := c.Resources.Limits[corev1.ResourceCPU]; ok && lim.MilliValue() < milli {
		c.Resources.Requests[corev1.ResourceCPU] = lim // a request may not exceed the limit
	}
}

// TesterCPUMilliPerRPS is the default CPU request of a load-tester pod per request per
// second of its share: 0.15 millicores, twice what it was measured to use.
const TesterCPUMilliPerRPS = 0.15

// asGroup makes the Job run n pods at once, one per completion index (pod i is
// <job>-i.<job>: the group Service gives it that name), spread over nodes where the cluster
// has several. Any pod's failure fails the Job (backoffLimit 0): a group without one of its
// pods measures a different load.
func asGroup(job *batchv1.Job, n int32) {
	job.Spec.CompletionMode = ptr.To(batchv1.IndexedCompletion)
	job.Spec.Completions, job.Spec.Parallelism = ptr.To(n), ptr.To(n)
	pod := &job.Spec.Template.Spec
	pod.Subdomain = job.Name
	pod.TopologySpreadConstraints = append(pod.TopologySpreadConstraints, corev1.TopologySpreadConstraint{
		MaxSkew:           1,
		TopologyKey:       corev1.LabelHostname,
		WhenUnsatisfiable: corev1.ScheduleAnyway,
		LabelSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{batchv1.JobNameLabel: job.Name}},
	})
	pod.Containers[0].Ports = append(pod.Containers[0].Ports, corev1.ContainerPort{Name: "group", ContainerPort: GroupPort})
}

// LoadTesterGroupService names the pods of a load-tester group in DNS, so the pods can
// reach their leader (pod 0) before any of them is Ready (the daprd sidecar's readiness
// says nothing of the load tester's).
func LoadTesterGroupService(run *perfv1alpha1.PerfRun) *corev1.Service {
	names := NamesFor(run)
	labels := Labels(run, RoleLoadTester)
	labels[LabelGeneration] = strconv.FormatInt(run.Generation, 10)
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: names.Job, Namespace: run.Namespace, Labels: labels},
		Spec: corev1.ServiceSpec{
			ClusterIP:                corev1.ClusterIPNone,
			PublishNotReadyAddresses: true,
			Selector:                 map[string]string{batchv1.JobNameLabel: names.Job},
			Ports:                    []corev1.ServicePort{{Name: "group", Port: GroupPort}},
		},
	}
}

// LoadTesterEnv passes the load parameters as the DAPRBENCH_* variables cmd/loadtester reads
// (their names from internal/contract/loadsettings, which the load tester takes its flags from).
// targetIP is the Dapr target pod's IP: the baseline calls it (the same pod,
// spec.serviceInvocation.baselineTarget SamePod; a Twin baseline calls the twin's Service), and so do a
// four-path run's server-only path and the capture of its daprd's profile (spec.profiling).
// A fault run orders its faults from the target app there, and from each further sidecar
// variant's on variantTargetIPs.
func LoadTesterEnv(run *perfv1alpha1.PerfRun, targetIP string, variantTargetIPs ...string) []corev1.EnvVar {
	spec := run.Spec
	names := NamesFor(run)
	env := []corev1.EnvVar{
		Setting(ls.QPS, strconv.Itoa(int(spec.Load.QPS))),
		Setting(ls.Connections, strconv.Itoa(int(spec.Load.EffectiveConnections()))),
		Setting(ls.Duration, spec.Load.EffectiveDuration().String()),
		Setting(ls.Warmup, spec.Load.EffectiveWarmup().String()),
		Setting(ls.Repetitions, strconv.Itoa(int(spec.Load.EffectiveRepetitions()))),
		Setting(ls.TerminationLog, TerminationLog),
	}
	if spec.Load.EffectiveArrival() == perfv1alpha1.ArrivalUniform {
		env = append(env, Setting(ls.Uniform, "true"))
	}
	if n, literal := spec.Body(); literal != nil {
		env = append(env, Setting(ls.Payload, *literal))
	} else {
		env = append(env, Setting(ls.PayloadBytes, strconv.Itoa(n)))
	}
	env = append(env, sideOf(run).PathEnv(run, targetIP)...)
	sidecar := SidecarHTTPURL()
	if spec.DaprEnabled() {
		env = append(env, Setting(ls.SidecarURL, sidecar), Setting(ls.DaprdMetricsClientURL, daprdMetricsURL("localhost")))
		// Not across a kill of the target: the counter would be read from two pods, or from none.
		if targetIP != "" && !killsTarget(run) {
			env = append(env, Setting(ls.DaprdMetricsServerURL, daprdMetricsURL(targetIP)))
		}
	}
	env = append(env, profilingEnv(run, targetIP)...)
	env = append(env, faultsEnv(run, targetIP, variantTargetIPs)...)
	if DeploysStore(run) && storePassworded(run) && spec.BaselineEnabled() { // the baseline's client calls the store itself
		env = append(env, runTokenEnv(run, ls.StorePassword))
	}
	if n := spec.LoadTester.EffectiveReplicas(); n > 1 {
		env = append(env,
			Setting(ls.GroupSize, strconv.Itoa(int(n))),
			corev1.EnvVar{Name: ls.Env(ls.GroupIndex), ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
				FieldPath: fmt.Sprintf("metadata.annotations['%s']", batchv1.JobCompletionIndexAnnotation)}}},
			Setting(ls.GroupLeader, fmt.Sprintf("http://%s-0.%s:%d", names.Job, names.Job, GroupPort)),
			Setting(ls.GroupListen, fmt.Sprintf(":%d", GroupPort)),
			runTokenEnv(run, ls.GroupToken),
		)
	}
	return env
}

// SidecarMetricsPort is where daprd serves its Prometheus metrics (dapr.io/metrics-port's
// default), on every address of its pod, as Prometheus scrapes it: the run's NetworkPolicy
// leaves it open.
const SidecarMetricsPort = 9090

// daprdMetricsURL is the metrics page of the daprd at host, whose CPU counter the load tester
// reads at every measured run's edges.
func daprdMetricsURL(host string) string {
	return fmt.Sprintf("http://%s/metrics", net.JoinHostPort(host, strconv.Itoa(SidecarMetricsPort)))
}

// Setting is the variable that gives one of the load tester's settings its value.
func Setting(name, value string) corev1.EnvVar {
	return corev1.EnvVar{Name: ls.Env(name), Value: value}
}

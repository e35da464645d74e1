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
	"net"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// The store's memory: admission caps a State run's data at 128 MiB a path (keys × payload),
// two paths' worth fits under Redis's own cap, and the container's limit leaves Redis room
// above it; a write past the cap fails (counted), it never evicts a key a Get then misses.
const (
	storeMaxMemoryMiB   = 384
	storeMemoryLimitMiB = 512
)

// StorePort is Redis's port on the store a State run deploys.
const StorePort = 6379

// DefaultRedisImage is the store a State run deploys unless the operator names another
// (--redis-image): the image `dapr init` runs.
const DefaultRedisImage = "docker.io/library/redis:7.4"

// StoreAddress is the host:port of the Redis a State run's baseline calls: the one the run
// deploys, or the one preflight read from the named Component (status.environment.storeAddress).
func StoreAddress(run *perfv1alpha1.PerfRun) string {
	if env := run.Status.Environment; env != nil && env.StoreAddress != "" {
		return env.StoreAddress
	}
	return net.JoinHostPort(NamesFor(run).Store, strconv.Itoa(StorePort))
}

// StoreDeployment is the Redis a State run deploys: no persistence (a benchmark's keys are
// throwaway, and a disk write on the path would measure the disk), the operator's security
// defaults, a fixed small request, and the run's token as its password (requirepass, from
// the run's Secret: the NetworkPolicy guards it only where the network plugin enforces one).
func StoreDeployment(run *perfv1alpha1.PerfRun, o Options) *appsv1.Deployment {
	image := o.RedisImage
	if image == "" {
		image = DefaultRedisImage
	}
	c := corev1.Container{
		Name:    ContainerStore,
		Image:   image,
		Command: []string{"redis-server"},
		Args: []string{"--port", strconv.Itoa(StorePort), "--save", "", "--appendonly", "no",
			"--maxmemory", strconv.Itoa(storeMaxMemoryMiB) + "mb"},
		Ports: []corev1.ContainerPort{{Name: "redis", ContainerPort: StorePort, Protocol: corev1.ProtocolTCP}},
		ReadinessProbe: &corev1.Probe{
			ProbeHandler:  corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(StorePort)}},
			PeriodSeconds: 2,
		},
	}
	if storePassworded(run) {
		c.Args = append(c.Args, "--requirepass", "$("+storePasswordEnv+")")
		c.Env = []corev1.EnvVar{runTokenEnvNamed(run, storePasswordEnv)}
	} else {
		c.Args = append(c.Args, "--protected-mode", "no") // a run provisioned before passwords
	}
	w := perfv1alpha1.WorkloadSpec{Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(strconv.Itoa(storeMemoryLimitMiB) + "Mi")}}}
	return roleDeployment(run, NamesFor(run).Store, RoleStore, podSpec(run, w, c, o))
}

// redisPassword is a Component's redisPassword: the run's token, from its Secret (resolved
// by Dapr's operator), or none for a store provisioned before passwords.
func redisPassword(run *perfv1alpha1.PerfRun) map[string]any {
	if !storePassworded(run) {
		return map[string]any{"name": "redisPassword", "value": ""}
	}
	return map[string]any{"name": "redisPassword", "secretKeyRef": map[string]any{"name": run.Status.TokenSecret, "key": RunTokenKey}}
}

// storePasswordEnv is the store container's variable holding its password.
const storePasswordEnv = "REDIS_PASSWORD"

// StoreService reaches the store the run deploys.
func StoreService(run *perfv1alpha1.PerfRun) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: NamesFor(run).Store, Namespace: run.Namespace, Labels: Labels(run, RoleStore)},
		Spec: corev1.ServiceSpec{
			Selector: Selector(run, RoleStore),
			Ports:    []corev1.ServicePort{{Name: "redis", Port: StorePort, TargetPort: intstr.FromInt32(StorePort), Protocol: corev1.ProtocolTCP}},
		},
	}
}

// RedisComponent is a Component of kind (state.redis, pubsub.redis) named name for the Redis
// the run deploys, with extra metadata, scoped to the load tester, whose daprd alone calls it.
func RedisComponent(run *perfv1alpha1.PerfRun, name, kind string, extra ...map[string]any) *unstructured.Unstructured {
	names := NamesFor(run)
	metadata := []any{
		map[string]any{"name": "redisHost", "value": net.JoinHostPort(names.Store, strconv.Itoa(StorePort))},
		redisPassword(run),
	}
	for _, m := range extra {
		metadata = append(metadata, m)
	}
	u := DaprObject(run, ComponentGVK, name)
	u.Object["spec"] = map[string]any{"type": kind, "version": "v1", "metadata": metadata}
	u.Object["scopes"] = []any{names.TesterAppID}
	return u
}

// StoreDemands is what the store (or broker) a run deploys requests.
func StoreDemands(run *perfv1alpha1.PerfRun, o Options) []PodDemand {
	d := StoreDeployment(run, o)
	return []PodDemand{{Pod: "store", Field: "the operator's store resources", NodeSelector: d.Spec.Template.Spec.NodeSelector,
		Requests: PodRequests(&d.Spec.Template.Spec, nil)}}
}

// DeployedStore is the Redis a run deploys and its Component (component), as objects to
// delete once a later generation names a Component of the user's instead.
func DeployedStore(run *perfv1alpha1.PerfRun, component string) []client.Object {
	names := NamesFor(run)
	return []client.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: names.Store, Namespace: run.Namespace}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: names.Store, Namespace: run.Namespace}},
		DaprObject(run, ComponentGVK, component),
	}
}

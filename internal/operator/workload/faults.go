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
	"net"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// TakesFaults reports whether the run makes faults (spec.faults): its load tester orders
// them with the run's token.
func TakesFaults(run *perfv1alpha1.PerfRun) bool { return len(run.Spec.Faults) > 0 }

// FaultsFromTarget reports whether a fault of the run goes through its target app: one
// ordered from it, or a kill of it (the load tester then calls the replacement, and reads
// the app's count). All but a kill of the store or of the control plane: the load tester
// then needs the target's address.
func FaultsFromTarget(run *perfv1alpha1.PerfRun) bool {
	return slices.ContainsFunc(run.Spec.Faults, func(f perfv1alpha1.Fault) bool {
		return f.Role == nil || *f.Role == perfv1alpha1.FaultRoleTarget
	})
}

// The app labels of Dapr's control-plane services (its chart's names).
const (
	SchedulerApp = "dapr-scheduler-server"
	PlacementApp = "dapr-placement-server"
	SentryApp    = "dapr-sentry"
)

// ControlPlaneApp is the app label of the Dapr control-plane pods a PodKill of role deletes
// (Dapr's own chart's names); false for a role of the run's own pods.
func ControlPlaneApp(role perfv1alpha1.FaultRole) (string, bool) {
	switch role {
	case perfv1alpha1.FaultRoleScheduler:
		return SchedulerApp, true
	case perfv1alpha1.FaultRolePlacement:
		return PlacementApp, true
	case perfv1alpha1.FaultRoleSentry:
		return SentryApp, true
	}
	return "", false
}

// KilledRole is the role of the pods a PodKill of role deletes; false for none.
func KilledRole(role perfv1alpha1.FaultRole) (Role, bool) {
	switch role {
	case perfv1alpha1.FaultRoleTarget:
		return RoleTarget, true
	case perfv1alpha1.FaultRoleStore:
		return RoleStore, true
	case perfv1alpha1.FaultRoleLoadTester:
		return RoleLoadTester, true
	}
	return "", false
}

// FaultedPhases is how many measured phases a run's faults are applied in: every
// repetition of every path through Dapr (the baseline's and a direct path's never), as the
// load tester applies them.
func FaultedPhases(run *perfv1alpha1.PerfRun) int32 {
	var paths int32
	for _, v := range MeasuredPaths(&run.Spec) {
		if v != result.Baseline && v != result.Direct {
			paths++
		}
	}
	return paths * run.Spec.Load.EffectiveRepetitions()
}

// withFaultRoute lets the run's load tester order spec.faults from the target app, with the
// run's token (perfapp's fault route exists only with it).
func withFaultRoute(c *corev1.Container, run *perfv1alpha1.PerfRun) {
	if !FaultsFromTarget(run) {
		return
	}
	c.Env = append(c.Env, runTokenEnv(run, ls.FaultToken))
}

// KillsPods reports whether a fault of the run deletes one of its pods, which the
// operator's kill route does for its load tester.
func KillsPods(run *perfv1alpha1.PerfRun) bool {
	return slices.ContainsFunc(run.Spec.Faults, func(f perfv1alpha1.Fault) bool { return f.Kind == perfv1alpha1.FaultPodKill })
}

// killsTarget reports whether a fault of the run deletes its target pod.
func killsTarget(run *perfv1alpha1.PerfRun) bool {
	return slices.ContainsFunc(run.Spec.Faults, func(f perfv1alpha1.Fault) bool {
		return f.Kind == perfv1alpha1.FaultPodKill && f.Role != nil && *f.Role == perfv1alpha1.FaultRoleTarget
	})
}

// faultsEnv tells the load tester the run's faults and where to order them: the target app
// on targetPodIP, and each further sidecar variant's on variantPodIPs (empty for a run whose
// faults skip them; otherwise the load tester refuses to start, saying so), with the run's
// token.
func faultsEnv(run *perfv1alpha1.PerfRun, targetPodIP string, variantPodIPs []string) []corev1.EnvVar {
	if !TakesFaults(run) {
		return nil
	}
	env := []corev1.EnvVar{Setting(ls.Faults, ls.EncodeFaults(LoadFaults(run.Spec.Faults))), runTokenEnv(run, ls.FaultToken)}
	if !FaultsFromTarget(run) {
		return env
	}
	if targetPodIP != "" {
		env = append(env, Setting(ls.FaultURL, appAddress(targetPodIP)))
	}
	if len(variantPodIPs) > 0 {
		urls := make([]string, len(variantPodIPs))
		for i, ip := range variantPodIPs {
			urls[i] = appAddress(ip)
		}
		env = append(env, Setting(ls.VariantFaultURLs, strings.Join(urls, ",")))
	}
	return env
}

// appAddress is the target app's address on a pod's IP.
func appAddress(podIP string) string {
	return fmt.Sprintf("http://%s", net.JoinHostPort(podIP, strconv.Itoa(AppPort)))
}

// killEnv tells the load tester of a run with a PodKill where the operator's kill route is
// (killURL) and which run it orders for.
func killEnv(run *perfv1alpha1.PerfRun, killURL string) []corev1.EnvVar {
	if !KillsPods(run) {
		return nil
	}
	return []corev1.EnvVar{Setting(ls.KillURL, killURL), Setting(ls.RunNamespace, run.Namespace), Setting(ls.RunName, run.Name)}
}

// LoadFaults are spec.faults as the load tester takes them.
func LoadFaults(faults []perfv1alpha1.Fault) []ls.Fault {
	out := make([]ls.Fault, 0, len(faults))
	for _, f := range faults {
		lf := ls.Fault{Kind: string(f.Kind), At: f.At.Duration, For: f.Duration.Duration}
		if f.ErrorPercent != nil {
			lf.ErrorPercent = int(*f.ErrorPercent)
		}
		if f.Delay != nil {
			lf.Delay = f.Delay.Duration
		}
		if f.Hold != nil {
			lf.Hold = f.Hold.Duration
		}
		if f.Role != nil {
			lf.Role = string(*f.Role)
		}
		out = append(out, lf)
	}
	return out
}

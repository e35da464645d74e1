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

package perfrun

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/daprcluster"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/queue"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// preflight checks, before anything is created, that the cluster can run what the spec
// asks for, and records what it found. A run the cluster cannot meet fails here with a
// reason and a message saying what to change, instead of measuring something else.
func (r *Reconciler) preflight(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	if run.ConditionTrue(perfv1alpha1.ConditionDaprReady) {
		return proceed, nil
	}
	env := &perfv1alpha1.Environment{KubernetesVersion: r.KubernetesVersion, ManagerVersion: r.ManagerVersion}
	run.Status.Environment = env
	if forbidden, err := r.missingRights(ctx, run.Namespace); err != nil {
		// The review itself refused or failed (a cluster without system:basic-user, an
		// authorizer's error): the run goes on, as it would have before the check.
		log.FromContext(ctx).Info("Cannot review the operator's rights in the run's namespace; going on", "error", err.Error())
	} else if forbidden != "" {
		markFailed(run, r.now(), perfv1alpha1.ReasonOperatorForbidden, "%s", forbidden)
		return stopHere, nil
	}
	if refused := r.policyRefusal(run); refused != nil {
		markFailed(run, r.now(), refused.reason, "%s", refused.message)
		return stopHere, nil
	}
	if workload.ExposesSidecar(run) && !r.NetworkPolicies {
		markFailed(run, r.now(), perfv1alpha1.ReasonNetworkPoliciesOff, "spec.serviceInvocation.paths FourPaths opens the target's daprd "+
			"API (3500 and 50001) on the pod's address, guarded by the run's API token and NetworkPolicy, "+
			"and this operator creates no NetworkPolicy (--network-policies=false, Helm value networkPolicies: false): one guard is not enough "+
			"for an API that reads the run's components and secrets. Measure the standard paths, or ask whoever installed "+
			"daprbench to turn NetworkPolicies on (on a network plugin that enforces them)")
		return stopHere, nil
	}
	if _, err := run.KnownAnswerDelay(); err != nil {
		markFailed(run, r.now(), perfv1alpha1.ReasonInvalidAnnotation, "%v", err)
		return stopHere, nil
	}
	if msg := r.neverFits(ctx, run); msg != "" && !r.SkipFitCheck {
		markFailed(run, r.now(), perfv1alpha1.ReasonPodsNeverFit, "%s", msg)
		return stopHere, nil
	}
	if !run.Spec.DaprEnabled() {
		if refused := r.Policy.ImageRefusal(run, ""); refused != "" {
			markFailed(run, r.now(), perfv1alpha1.ReasonImageNotAllowed, "%s", refused)
			return stopHere, nil
		}
		setDaprReady(run, true, perfv1alpha1.ReasonDaprNotRequired, "dapr.enabled=false: measuring the direct path without sidecars")
		return proceed, nil
	}
	ns := r.DaprNamespace

	installed, err := daprcluster.CRDsServed(r.RESTMapper())
	if err != nil {
		return proceed, err
	}
	env.DaprInstalled = ptr.To(installed)
	if !installed {
		return r.failPreflight(run, perfv1alpha1.ReasonDaprNotInstalled,
			"Dapr is not installed: its CRDs (configurations.dapr.io, components.dapr.io) are not served by this cluster. "+
				"Install Dapr (dapr init -k, or the dapr Helm chart), or set spec.dapr.enabled=false to measure the direct path only")
	}

	injector, err := daprcluster.Injector(ctx, r.APIReader, ns)
	if err != nil {
		return proceed, err
	}
	if injector == nil {
		env.DaprInstalled = ptr.To(false)
		return r.failPreflight(run, perfv1alpha1.ReasonDaprNotInstalled,
			"Dapr's CRDs are installed but no sidecar injector runs in namespace %q (no Deployment labelled app=%s): "+
				"install Dapr there, or set the operator's --dapr-namespace (Helm value daprNamespace) to the namespace of Dapr's control plane", ns, daprcluster.InjectorApp)
	}
	env.DaprVersion = daprcluster.Version(injector)
	if refused := r.Policy.ImageRefusal(run, daprcluster.Image(injector)); refused != "" {
		markFailed(run, r.now(), perfv1alpha1.ReasonImageNotAllowed, "%s", refused)
		return stopHere, nil
	}

	mtls, source, err := daprcluster.MTLS(ctx, r, ns)
	if err != nil {
		return proceed, err
	}
	env.MTLS = ptr.To(mtls)
	if want := run.Spec.Dapr.MTLS != perfv1alpha1.MTLSDisabled; want != mtls {
		return r.failPreflight(run, perfv1alpha1.ReasonMTLSMismatch,
			"spec.dapr.mtls is %s but the cluster has mTLS %s (%s). mTLS is cluster-wide in Dapr: set spec.dapr.mtls to %s "+
				"to measure the cluster as it is, or change the control plane's setting (Helm value global.mtls.enabled)",
			mtlsWord(want), mtlsWord(mtls), source, mtlsWord(mtls))
	}

	configurations, refused, err := r.daprConfigurations(ctx, run)
	if err != nil {
		return proceed, err
	}
	if refused != nil {
		return r.failPreflight(run, refused.reason, "%s", refused.message)
	}
	env.DaprConfigurations = configurations
	if env.DaprResiliencies, err = r.daprResiliencies(ctx, run); err != nil {
		return proceed, err
	}

	if msg, err := r.fourPathsRefusal(run, env.DaprVersion); err != nil || msg != "" {
		if err != nil {
			return proceed, err
		}
		return r.failPreflight(run, perfv1alpha1.ReasonDaprFeatureMissing, "%s", msg)
	}
	if reason, msg, err := r.scenarioRefusal(ctx, run); err != nil || reason != "" {
		if err != nil {
			return proceed, err
		}
		return r.failPreflight(run, reason, "%s", msg)
	}
	for _, v := range run.Spec.Variants {
		if skew := diagnose.SidecarSkew(env.DaprVersion, v.SidecarImage); v.SidecarImage != "" && skew != "" {
			s.events.Eventf(corev1.EventTypeWarning, ReasonSidecarVersionSkew, "Preflight", "variant %s: %s", v.Name, skew)
		}
	}
	setDaprReady(run, true, perfv1alpha1.ReasonDaprFound,
		fmt.Sprintf("Dapr %s found in %s; mTLS %s", orUnknown(env.DaprVersion), ns, mtlsWord(mtls)))
	return proceed, nil
}

// ReasonSidecarVersionSkew is the Warning event of a variant whose daprd image the control
// plane may not support; the run goes on: the user may mean to measure exactly that.
const ReasonSidecarVersionSkew = "SidecarVersionSkew"

func (r *Reconciler) failPreflight(run *perfv1alpha1.PerfRun, reason, format string, args ...any) (stepResult, error) {
	msg := fmt.Sprintf(format, args...)
	setDaprReady(run, false, reason, msg)
	markFailed(run, r.now(), reason, "%s", msg)
	return stopHere, nil
}

// refusal is a reason and message a run fails with.
type refusal struct{ reason, message string }

// policyRefusal is the first of the platform team's rules the run breaks that need no
// cluster read: its control-plane namespace, its placement, its actor state store.
func (r *Reconciler) policyRefusal(run *perfv1alpha1.PerfRun) *refusal {
	if named := run.Spec.Dapr.ControlPlaneNamespace; run.Spec.DaprEnabled() && named != "" && named != r.DaprNamespace {
		return &refusal{perfv1alpha1.ReasonControlPlaneNotAllowed, fmt.Sprintf("spec.dapr.controlPlaneNamespace is %q, but this operator "+
			"reads Dapr's control plane only in %q (its --dapr-namespace, Helm value daprNamespace): leave the field empty, "+
			"or ask whoever installed daprbench to point it at %q", named, r.DaprNamespace, named)}
	}
	if msg := r.Policy.PlacementRefusal(run); msg != "" {
		return &refusal{perfv1alpha1.ReasonPlacementNotAllowed, msg}
	}
	if msg := r.Policy.StateStoreRefusal(run); msg != "" {
		return &refusal{perfv1alpha1.ReasonStateStoreNotAllowed, msg}
	}
	if msg := r.Policy.SchedulerLoadRefusal(run); msg != "" {
		return &refusal{perfv1alpha1.ReasonSchedulerLoadNotAllowed, msg}
	}
	if msg := r.Policy.ControlPlaneFaultRefusal(run); msg != "" {
		return &refusal{perfv1alpha1.ReasonControlPlaneFaultsNotAllowed, msg}
	}
	if workload.KillsPods(run) && r.Workload.KillURL == "" {
		return &refusal{perfv1alpha1.ReasonPodKillUnavailable, "spec.faults holds a PodKill, but this operator serves no kill route " +
			"its load tester could order it from (--kill-url empty; Helm value podKill.enabled false): drop the PodKill, " +
			"or ask whoever installed daprbench to turn the route on"}
	}
	return nil
}

func mtlsWord(on bool) string {
	if on {
		return "Enabled"
	}
	return "Disabled"
}

func orUnknown(s string) string {
	if s == "" {
		return "(version unknown)"
	}
	return s
}

// neverFits says which of the run's pods no node could ever hold (queue.NeverFits); empty
// when all could, or when the nodes cannot be read (a namespaced install may not list them:
// the scheduler will say it then).
func (r *Reconciler) neverFits(ctx context.Context, run *perfv1alpha1.PerfRun) string {
	var nodes corev1.NodeList
	if err := r.APIReader.List(ctx, &nodes); err != nil {
		return ""
	}
	return queue.NeverFits(workload.PodDemands(run, r.Workload), nodes.Items)
}

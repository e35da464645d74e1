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

// Package podkill is the operator's kill route: a run's load tester orders a PodKill
// (spec.faults) at its own phase time, with the run's token, and the operator, which owns
// the run's pods, deletes the one asked for and answers once its replacement is ready. The
// load tester holds the clock every latency is timed on; the operator holds the right to
// delete. No tenant pod is given that right.
package podkill

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Server serves loadsettings.KillPath on Addr.
type Server struct {
	Addr string
	// Client reads runs and their pods (the manager's cache) and deletes the pod.
	Client client.Client
	Log    logr.Logger
	// Poll is how often the replacement's readiness is looked at (default 100ms).
	Poll time.Duration
	// AllowControlPlane lets a run's PodKill delete Dapr's control-plane pods in
	// DaprNamespace (--allow-control-plane-faults), read past the cache with APIReader.
	AllowControlPlane bool
	DaprNamespace     string
	APIReader         client.Reader

	budget budget
}

// NeedLeaderElection is false: every replica of the manager may serve a kill.
func (s *Server) NeedLeaderElection() bool { return false }

// +kubebuilder:rbac:groups="",resources=pods,verbs=delete

// Start serves until ctx ends.
func (s *Server) Start(ctx context.Context) error {
	// An order is small and read at once; an answer may wait for a replacement as long as
	// a kill may (ls.MaxKillWait), and no longer.
	srv := &http.Server{Addr: s.Addr, Handler: s.Handler(), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: ls.MaxKillWait + 30*time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving the kill route on %s: %w", s.Addr, err)
	}
	return nil
}

// Handler is the kill route alone.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+ls.KillPath, s.serveKill)
	return mux
}

// refusal is an answer other than 200, with its status.
type refusal struct {
	status int
	msg    string
}

func (r *refusal) Error() string { return r.msg }

func refuse(status int, format string, args ...any) error {
	return &refusal{status: status, msg: fmt.Sprintf(format, args...)}
}

func (s *Server) serveKill(w http.ResponseWriter, r *http.Request) {
	var order ls.KillOrder
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&order); err != nil {
		http.Error(w, "the order is not a kill order: "+err.Error(), http.StatusBadRequest)
		return
	}
	ans, err := s.kill(r.Context(), order, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	if err != nil {
		status := http.StatusInternalServerError
		if ref, ok := errors.AsType[*refusal](err); ok {
			status = ref.status
		}
		// V(1): a caller who holds no token could otherwise fill the log with names it chose.
		s.Log.V(1).Info("Refused a kill order", "namespace", order.Namespace, "run", order.Run, "role", order.Role, "reason", err.Error())
		http.Error(w, err.Error(), status)
		return
	}
	s.Log.Info("Killed a pod of a run", "namespace", order.Namespace, "run", order.Run, "deleted", ans.Deleted, "replacement", ans.Replacement)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(ans)
}

// kill checks the order against the run, deletes its pod and waits for the replacement:
// the whole within the order's wait from its arrival, so the load tester's recorded span
// (from its sending) is not cut short of a replacement ready in time.
func (s *Server) kill(ctx context.Context, order ls.KillOrder, token string) (ls.KillAnswer, error) {
	arrived := time.Now()
	var ans ls.KillAnswer
	if err := order.Check(); err != nil {
		return ans, refuse(http.StatusBadRequest, "%v", err)
	}
	run, err := s.authorised(ctx, order, token)
	if err != nil {
		return ans, err
	}
	wait, hold, ok := declared(run, order)
	if !ok {
		return ans, refuse(http.StatusForbidden, "run %s/%s has no PodKill of role %s in spec.faults", run.Namespace, run.Name, order.Role)
	}
	if order.Variant != "" && !hasVariant(run, order.Variant) {
		return ans, refuse(http.StatusBadRequest, "run %s/%s has no sidecar variant %q: a kill of the first variant's target names none", run.Namespace, run.Name, order.Variant)
	}
	if run.Status.Phase != perfv1alpha1.PhaseRunning {
		return ans, refuse(http.StatusConflict, "run %s/%s is %s, not Running: its pods are killed only while its load runs", run.Namespace, run.Name, run.Status.Phase)
	}
	// A spec edited since admission may hold a kill the queue never weighed (a control-plane
	// kill holds the whole cluster): only the spec the run measures orders one.
	if run.Status.ObservedGeneration != run.Generation {
		return ans, refuse(http.StatusConflict, "run %s/%s changed since it was admitted (generation %d, measuring %d): its pods are killed only for the spec it measures",
			run.Namespace, run.Name, run.Generation, run.Status.ObservedGeneration)
	}
	app, controlPlane := workload.ControlPlaneApp(perfv1alpha1.FaultRole(order.Role))
	if controlPlane && !s.AllowControlPlane {
		return ans, refuse(http.StatusForbidden, "this operator does not take Dapr's control plane down (run %s/%s orders a PodKill of %s): "+
			"its --allow-control-plane-faults is off (Helm value faults.allowControlPlane)", run.Namespace, run.Name, order.Role)
	}
	// A token is the run's pods' (and whoever reads its Secret): it orders no more kills
	// than the run has measured phases, one at a time.
	release, err := s.budget.take(run, arrived)
	if err != nil {
		return ans, err
	}
	defer release()
	if controlPlane {
		return s.killControlPlane(ctx, run, app, arrived.Add(hold), arrived.Add(wait))
	}
	role, _ := workload.KilledRole(perfv1alpha1.FaultRole(order.Role)) // Check took only a known role
	pods, err := runPods(ctx, s.Client, run, role, order.Variant)
	if err != nil {
		return ans, err
	}
	victim, alive := oldestReady(pods), "ready"
	if role == workload.RoleLoadTester {
		victim, alive = lastReplica(pods), "running"
	}
	if victim == nil {
		return ans, refuse(http.StatusConflict, "run %s/%s has no %s %s pod to kill", run.Namespace, run.Name, alive, order.Role)
	}
	before := map[types.UID]bool{}
	for _, p := range pods {
		before[p.UID] = true
	}
	if err := s.delete(ctx, role, victim); err != nil {
		return ans, fmt.Errorf("deleting pod %s: %w", victim.Name, err)
	}
	ans.Deleted = victim.Name
	if repl, ready := s.awaitReplacement(ctx, run, role, order.Variant, before, arrived.Add(wait)); repl != nil {
		ans.Replacement, ans.Ready = repl.Name, ready
		if ready {
			ans.ReplacementIP = repl.Status.PodIP
		}
	}
	return ans, nil
}

// +kubebuilder:rbac:groups="",resources=pods/eviction,verbs=create

// delete ends the pod at once, as a crash or a lost node ends a pod: no grace for its app or
// its daprd. A load tester is evicted: the eviction marks it DisruptionTarget, which its
// Job's podFailurePolicy ignores (the Job replaces the pod and the run goes on), where a
// plain deletion would fail the Job.
func (s *Server) delete(ctx context.Context, role workload.Role, pod *corev1.Pod) error {
	if role != workload.RoleLoadTester {
		return s.Client.Delete(ctx, pod, client.GracePeriodSeconds(0), client.Preconditions{UID: &pod.UID})
	}
	return s.Client.SubResource("eviction").Create(ctx, pod, &policyv1.Eviction{
		DeleteOptions: &metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0), Preconditions: &metav1.Preconditions{UID: &pod.UID}}})
}

// authorised is the order's run, if the token is its token (checked against
// status.tokenDigest: the operator reads no Secret); one refusal for a run that does not
// exist and a wrong token, so the route tells a caller nothing of other runs.
func (s *Server) authorised(ctx context.Context, order ls.KillOrder, token string) (*perfv1alpha1.PerfRun, error) {
	denied := refuse(http.StatusForbidden, "not authorised to kill pods of run %s/%s", order.Namespace, order.Run)
	var run perfv1alpha1.PerfRun
	if err := s.Client.Get(ctx, types.NamespacedName{Namespace: order.Namespace, Name: order.Run}, &run); err != nil {
		return nil, denied
	}
	want := run.Status.TokenDigest
	if want == "" || token == "" || subtle.ConstantTimeCompare([]byte(want), []byte(workload.TokenDigest(token))) != 1 {
		return nil, denied
	}
	return &run, nil
}

// declared is the longest the run's own PodKills of the order's role wait and hold the
// service down, the order's wait and hold held within them: false when the run declares no
// such kill.
func declared(run *perfv1alpha1.PerfRun, order ls.KillOrder) (wait, hold time.Duration, ok bool) {
	var longest, longestHold time.Duration
	for _, f := range run.Spec.Faults {
		if f.Kind == perfv1alpha1.FaultPodKill && f.Role != nil && string(*f.Role) == order.Role {
			longest = max(longest, f.Duration.Duration)
			if f.Hold != nil {
				longestHold = max(longestHold, f.Hold.Duration)
			}
		}
	}
	return min(order.Wait, longest), min(order.Hold, longestHold), longest > 0
}

// poll is how often a replacement's readiness is looked at.
func (s *Server) poll() time.Duration {
	if s.Poll <= 0 {
		return 100 * time.Millisecond
	}
	return s.Poll
}

// awaitReplacement is the first pod of the role (and variant) not among before, ready by deadline
// (ready true), or else the first such pod made by then, not yet ready (nil: none).
func (s *Server) awaitReplacement(ctx context.Context, run *perfv1alpha1.PerfRun, role workload.Role, variant string, before map[types.UID]bool, deadline time.Time) (*corev1.Pod, bool) {
	var made *corev1.Pod
	allReady := s.pollUntil(ctx, deadline, func(ctx context.Context) bool {
		pods, err := runPods(ctx, s.Client, run, role, variant)
		if err != nil {
			return false
		}
		for i := range pods {
			if before[pods[i].UID] {
				continue
			}
			if ready(&pods[i]) {
				made = &pods[i]
				return true
			}
			if made == nil {
				made = &pods[i]
			}
		}
		return false
	})
	return made, allReady
}

// pollUntil looks every poll until look reports done (true) or deadline passes (false).
// A cancelled context lists nothing: the last look before the deadline is the one that counts.
func (s *Server) pollUntil(ctx context.Context, deadline time.Time, look func(context.Context) bool) bool {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	tick := time.NewTicker(s.poll())
	defer tick.Stop()
	for {
		if look(ctx) {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

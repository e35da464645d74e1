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

package cli

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/thresholds"
	"github.com/daprbench/daprbench/internal/cli/junit"
	"github.com/daprbench/daprbench/internal/cli/verdict"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// JUnit is the report of a finished PerfRun or PerfSweep.
func JUnit(obj client.Object, outcome verdict.Outcome, strict bool) ([]byte, error) {
	var suite junit.Suite
	switch o := obj.(type) {
	case document.Run:
		suite = runSuite(o, strict)
	case sweep.Measured:
		suite = sweepSuite(o)
	}
	suite.Properties = append(suite.Properties, junit.Property{Name: "exitCode", Value: fmt.Sprint(int(outcome.Code))},
		junit.Property{Name: "verdict", Value: outcome.Reason})
	return junit.Marshal(suite)
}

// runSuite: whether the run finished, then a testcase per threshold (measured, limit and
// interval in the message), then regression and, with --strict, saturation and throttling.
func runSuite(run document.Run, strict bool) junit.Suite {
	class := "daprbench." + run.Namespace + "." + run.Name
	s := junit.Suite{Name: "perfrun/" + run.Namespace + "/" + run.Name, Time: seconds(run.Status.StartTime, run.Status.CompletionTime)}
	if run.Status.StartTime != nil {
		s.Timestamp = run.Status.StartTime.UTC().Format(time.RFC3339)
	}
	s.Properties = []junit.Property{{Name: "scenario", Value: string(run.Spec.Scenario)}, {Name: "qps", Value: fmt.Sprint(run.Spec.Load.QPS)}}
	if env := run.Status.Environment; env != nil {
		if env.DaprVersion != "" {
			s.Properties = append(s.Properties, junit.Property{Name: "daprVersion", Value: env.DaprVersion})
		}
		s.Properties = append(s.Properties, junit.Property{Name: "kubernetesVersion", Value: env.KubernetesVersion})
	}
	completed := junit.Case{Name: "run completed", Classname: class, Time: s.Time}
	if c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed); c != nil && c.Status == metav1.ConditionTrue &&
		c.Reason != perfv1alpha1.ReasonThresholdsViolated {
		completed.Error = &junit.Problem{Message: c.Message, Type: c.Reason, Text: c.Message}
	} else if c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionSucceeded); c != nil {
		completed.SystemOut = c.Message
	}
	s.Cases = append(s.Cases, completed)
	if v, ok := thresholds.EvaluateRun(&run.Spec, run.Result()); ok {
		for _, check := range v.Checks {
			tc := junit.Case{Name: check.Name + " " + check.Limit, Classname: class, Time: "0", SystemOut: check.String()}
			if check.Outcome != thresholds.Met {
				tc.Failure = &junit.Problem{Message: fmt.Sprintf("%s: measured %s, limit %s", check.Outcome, check.Measured, check.Limit),
					Type: string(check.Outcome), Text: check.String()}
			}
			s.Cases = append(s.Cases, tc)
		}
	}
	gates := []string{perfv1alpha1.ConditionRegressed}
	if strict {
		gates = append(gates, perfv1alpha1.ConditionSaturated, perfv1alpha1.ConditionCPULimitBound)
	}
	for _, t := range gates {
		c := meta.FindStatusCondition(run.Status.Conditions, t)
		if c == nil {
			continue
		}
		tc := junit.Case{Name: "not " + t, Classname: class, Time: "0", SystemOut: c.Message}
		if c.Status == metav1.ConditionTrue {
			tc.Failure = &junit.Problem{Message: c.Message, Type: c.Reason, Text: c.Message}
		}
		s.Cases = append(s.Cases, tc)
	}
	return s
}

// sweepSuite: a testcase per point, an error when its run failed. A point that missed a
// search's objective is what the search is for, not a failure: its message says so.
func sweepSuite(sw sweep.Measured) junit.Suite {
	class := "daprbench." + sw.Namespace + "." + sw.Name
	s := junit.Suite{Name: "perfsweep/" + sw.Namespace + "/" + sw.Name, Time: "0"}
	for _, p := range sw.Points {
		tc := junit.Case{Name: fmt.Sprintf("step %d: %d qps, %d connections", p.Step, p.QPS, p.Connections), Classname: class, Time: "0",
			SystemOut: fmt.Sprintf("run %s: %s %s", p.Run, p.Phase, p.Message)}
		if p.Phase == perfv1alpha1.PhaseFailed {
			tc.Error = &junit.Problem{Message: p.Message, Type: "Failed", Text: p.Message}
		}
		s.Cases = append(s.Cases, tc)
	}
	return s
}

func seconds(from, to *metav1.Time) string {
	if from == nil || to == nil {
		return "0"
	}
	return fmt.Sprintf("%.0f", to.Sub(from.Time).Seconds())
}

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

package report

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/thresholds"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// Summary is a finished run's or sweep's verdict in GitHub-flavoured Markdown, as a CI step
// summary ($GITHUB_STEP_SUMMARY) or a pull-request comment shows it. Every string from the
// object's spec or status is textfmt.MarkdownText: GitHub renders the HTML and Markdown in it.
func Summary(obj client.Object, outcome verdict.Outcome, strict bool) string {
	var b strings.Builder
	mark := "✅ passed"
	if outcome.Code != verdict.ExitPassed {
		mark = fmt.Sprintf("❌ exit %d", outcome.Code)
	}
	fmt.Fprintf(&b, "### daprbench %s/%s: %s\n\n%s\n\n", strings.ToLower(KindOf(obj)), obj.GetName(), mark, textfmt.MarkdownText(outcome.Reason))
	switch o := obj.(type) {
	case document.Run:
		runSummary(&b, o)
	case sweep.Measured:
		sweepSummary(&b, o)
	}
	return b.String()
}

func runSummary(b *strings.Builder, run document.Run) {
	if res := run.Result(); res != nil && res.Latency != nil {
		b.WriteString("| path | p50 | p90 | p99 |\n|---|---|---|---|\n")
		row := func(name string, s *perfv1alpha1.LatencySummary) {
			if s != nil {
				fmt.Fprintf(b, "| %s | %s | %s | %s |\n", name, textfmt.Dur(s.P50), textfmt.Dur(s.P90), textfmt.Dur(s.P99))
			}
		}
		measured := "Dapr"
		if !run.Spec.DaprEnabled() {
			measured = "direct (no Dapr)"
		}
		row(measured, res.Latency)
		row("baseline (no sidecar)", res.Baseline)
		row("added by Dapr", res.Added)
		fmt.Fprintf(b, "\n%d requests at %s of %d qps, %d errors.\n\n", res.Requests, textfmt.MarkdownText(res.ActualQPS), res.RequestedQPS, res.Errors)
	}
	if v, ok := thresholds.EvaluateRun(&run.Spec, run.Result()); ok {
		b.WriteString("| threshold | measured | limit | outcome |\n|---|---|---|---|\n")
		for _, c := range v.Checks {
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", textfmt.MarkdownText(c.Name), textfmt.MarkdownText(c.Measured), textfmt.MarkdownText(c.Limit), textfmt.MarkdownText(string(c.Outcome)))
		}
		b.WriteString("\n")
	}
	if env := run.Status.Environment; env != nil && env.DaprVersion != "" {
		fmt.Fprintf(b, "Dapr %s on Kubernetes %s.\n", textfmt.MarkdownText(env.DaprVersion), textfmt.MarkdownText(textfmt.OrDash(env.KubernetesVersion)))
		if named := env.NamedConfiguration(); named != nil {
			fmt.Fprintf(b, "Dapr Configuration %s.\n", textfmt.MarkdownText(named.Describe()))
		}
		if len(env.DaprResiliencies) > 0 {
			fmt.Fprintf(b, "Dapr Resiliency in effect: %s.\n", textfmt.MarkdownText(env.DescribeResiliencies("")))
		}
	} else if env != nil {
		fmt.Fprintf(b, "Kubernetes %s.\n", textfmt.MarkdownText(textfmt.OrDash(env.KubernetesVersion)))
	}
}

func sweepSummary(b *strings.Builder, sw sweep.Measured) {
	if len(sw.Points) == 0 {
		return
	}
	b.WriteString("| step | setting | qps | connections | run | phase | p90 | p99 | added p90 |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range sw.Points {
		var p90, p99, added *metav1.Duration
		if p.Latency != nil {
			p90, p99 = p.Latency.P90, p.Latency.P99
		}
		if p.Added != nil {
			added = p.Added.P90
		}
		fmt.Fprintf(b, "| %d | %s | %d | %d | %s | %s | %s | %s | %s |\n", p.Step, textfmt.MarkdownText(textfmt.OrDash(p.Setting)), p.QPS, p.Connections,
			textfmt.MarkdownText(p.Run), textfmt.MarkdownText(string(p.Phase)), textfmt.Dur(p90), textfmt.Dur(p99), textfmt.Dur(added))
	}
	if sw.Status.MaxSustainableQPS != nil {
		fmt.Fprintf(b, "\nMaximum sustainable rate: %d qps.\n", *sw.Status.MaxSustainableQPS)
	}
}

// KindOf is the API kind obj is read as: PerfSweep for a sweep, as read or loaded; else
// PerfRun.
func KindOf(obj client.Object) string {
	switch obj.(type) {
	case *perfv1alpha1.PerfSweep, sweep.Measured:
		return "PerfSweep"
	}
	return "PerfRun"
}

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
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/daprbench/daprbench/internal/cli/doctor"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
	"github.com/daprbench/daprbench/internal/kit/version"
)

func newDoctorCommand(o *options) *cobra.Command {
	var operatorNamespace string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Say whether this cluster can run a benchmark in the namespace, and what to fix, before anything is created",
		Long: `doctor checks, one row each: the Kubernetes version, daprbench's CRDs, the operator
(available, its version against the plugin's), Dapr (its version, mTLS), the metrics API,
the kubelet counters, NetworkPolicy enforcement as far as it can be told, whether the
operator runs benchmarks in the namespace, whether you may create a run there (the smoke
sample, server-side dry run), whether its pods fit a node and the namespace's quotas.

Each failing or warning row says what to do. It reads the cluster as the operator's
preflight does and changes nothing. Exit 0 when no row fails (warnings allowed), 1 otherwise.`,
		Example: `  kubectl daprbench doctor -n perf
  kubectl daprbench doctor -n perf -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ns, err := o.namespace()
			if err != nil {
				return err
			}
			c, err := o.newClient()
			if err != nil {
				return err
			}
			disco, err := o.config.ToDiscoveryClient()
			if err != nil {
				return err
			}
			ctx, cancel := withTimeout(cmd.Context())
			defer cancel()
			report := doctor.Run(ctx, doctor.Cluster{Client: c, Discovery: disco, Namespace: ns,
				OperatorNamespace: operatorNamespace, PluginVersion: version.Get().Version})
			if o.output.format() == "json" {
				b, err := json.MarshalIndent(report, "", "  ")
				if err != nil {
					return err
				}
				fprintf(o.streams.Out, "%s\n", b)
			} else {
				fprintf(o.streams.Out, "%s", doctorTable(report))
			}
			if n := report.Failed(); n > 0 {
				return verdict.Exit(verdict.ExitCouldNotRun, fmt.Sprintf("doctor: %d of %d checks failed in namespace %s", n, len(report.Checks), ns))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&operatorNamespace, "operator-namespace", "", "where the operator runs (default: looked for in every namespace)")
	return cmd
}

// doctorTable is the report as rows, each failing or warning row followed by its fix.
func doctorTable(r doctor.Report) string {
	var b strings.Builder
	t := &textfmt.Table{}
	t.Add("CHECK", "STATUS", "DETAIL")
	for _, c := range r.Checks {
		t.Add(c.Name, strings.ToUpper(string(c.Status)), c.Detail)
		if c.Fix != "" && c.Status != doctor.Pass {
			t.Add("", "", "fix: "+c.Fix)
		}
	}
	b.WriteString(t.String())
	if n := r.Failed(); n > 0 {
		fprintf(&b, "\n%d of %d checks failed: fix them (each row says how) and run doctor again\n", n, len(r.Checks))
	} else {
		fprintf(&b, "\nready: a run can start in namespace %s (kubectl daprbench run -f config/samples/perf_v1alpha1_perfrun_smoke.yaml -n %s --wait)\n", r.Namespace, r.Namespace)
	}
	return b.String()
}

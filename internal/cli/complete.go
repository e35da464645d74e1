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
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// completeRuns completes a run's name from the runs of the namespace (-n, or the
// kubeconfig's); with sweeps too, perfsweep/NAME. Nothing on error: completion must not
// print one.
func (o *options) completeRuns(withSweeps bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 && cmd.Name() != "compare" || len(args) > 1 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		c, ns, err := o.connect()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := withTimeout(cmd.Context())
		defer cancel()
		var names []string
		var runs perfv1alpha1.PerfRunList
		if c.List(ctx, &runs, client.InNamespace(ns)) == nil {
			for _, r := range runs.Items {
				names = append(names, r.Name)
			}
		}
		var sweeps perfv1alpha1.PerfSweepList
		if withSweeps && c.List(ctx, &sweeps, client.InNamespace(ns)) == nil {
			for _, s := range sweeps.Items {
				names = append(names, "perfsweep/"+s.Name)
			}
		}
		var out []string
		for _, n := range names {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

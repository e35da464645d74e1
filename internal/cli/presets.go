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

	"github.com/daprbench/daprbench/config/samples"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

func newPresetsCommand(o *options) *cobra.Command {
	return &cobra.Command{
		Use:   "presets",
		Short: "The named settings run --preset starts: Dapr's published ones, each with the figures Dapr published for it",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			t := &textfmt.Table{}
			t.Add("PRESET", "PUBLISHED", "SETTING")
			for _, p := range samples.Presets {
				var rows []string
				for _, r := range p.Rows {
					rows = append(rows, r.Figure+" "+r.Value)
				}
				t.Add(p.Name, strings.Join(rows, ", "), p.Title)
			}
			fprintf(o.streams.Out, "%s", t.String())
			return nil
		},
	}
}

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

	"github.com/spf13/cobra"

	"github.com/daprbench/daprbench/internal/kit/version"
)

// newVersionCommand prints the plugin's version; it reads nothing from a cluster.
func newVersionCommand(o *options) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the plugin's version and commit (-o json: as JSON)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := version.Get()
			if o.output.format() == "json" {
				b, err := json.Marshal(info)
				if err != nil {
					return err
				}
				fprintf(o.streams.Out, "%s\n", b)
				return nil
			}
			fprintf(o.streams.Out, "kubectl daprbench %s\n", info)
			return nil
		},
	}
}

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
	"os"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/daprbench/daprbench/internal/cli/report"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

// writeReports writes the JUnit file and appends the Markdown summary, as asked.
func writeReports(obj client.Object, outcome verdict.Outcome, ci ciFlags) error {
	if ci.junit != "" {
		b, err := JUnit(obj, outcome, ci.strict)
		if err != nil {
			return err
		}
		if err := os.WriteFile(ci.junit, b, 0o644); err != nil {
			return err
		}
	}
	if ci.summary != "" {
		return appendFile(ci.summary, report.Summary(obj, outcome, ci.strict))
	}
	return nil
}

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

// Package cliflags lets every flag of a command also be set by a DAPRBENCH_* environment variable.
package cliflags

import (
	"flag"
	"fmt"
	"strings"
)

// EnvName is the environment variable that sets a flag: --payload-bytes <-> DAPRBENCH_PAYLOAD_BYTES.
func EnvName(flagName string) string {
	return "DAPRBENCH_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// ApplyEnv sets every flag not given on the command line from its environment variable,
// so the operator can pass parameters as env and a person as flags. Call after fs.Parse.
func ApplyEnv(fs *flag.FlagSet, lookup func(string) (string, bool)) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		if v, ok := lookup(EnvName(f.Name)); ok {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %w", EnvName(f.Name), v, e)
			}
		}
	})
	return err
}

// UsageWithEnv prints the flags with their environment variables.
func UsageWithEnv(fs *flag.FlagSet, intro string) func() {
	return func() {
		out := fs.Output()
		fmt.Fprintln(out, intro)
		fmt.Fprintln(out, "\nFlags (each can also be set by the environment variable shown):")
		fs.VisitAll(func(f *flag.Flag) {
			def := ""
			if f.DefValue != "" {
				def = fmt.Sprintf(" (default %s)", f.DefValue)
			}
			fmt.Fprintf(out, "  --%s  [%s]%s\n      %s\n", f.Name, EnvName(f.Name), def, f.Usage)
		})
	}
}

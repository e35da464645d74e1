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
	"slices"
	"strings"
)

// EnvPrefix starts the name of every variable that sets a flag.
const EnvPrefix = "DAPRBENCH_"

// EnvName is the environment variable that sets a flag: --payload-bytes <-> DAPRBENCH_PAYLOAD_BYTES.
func EnvName(flagName string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// ApplyEnv sets every flag not given on the command line from its environment variable,
// so the operator can pass parameters as env and a person as flags, and refuses a
// DAPRBENCH_* variable that names no flag: a misspelt setting would otherwise be ignored and
// its default used. env is os.Environ's form, KEY=VALUE. Call after fs.Parse.
func ApplyEnv(fs *flag.FlagSet, env []string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	known := map[string]*flag.Flag{}
	fs.VisitAll(func(f *flag.Flag) { known[EnvName(f.Name)] = f })
	var unknown []string
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		f, ok := known[name]
		switch {
		case !strings.HasPrefix(name, EnvPrefix):
		case !ok:
			unknown = append(unknown, name)
		case !given[f.Name]:
			if err := fs.Set(f.Name, value); err != nil {
				return fmt.Errorf("%s=%q: %w", name, value, err)
			}
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return fmt.Errorf("%s set no flag of %s (see --help for the variables it reads)", strings.Join(unknown, ", "), fs.Name())
	}
	return nil
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

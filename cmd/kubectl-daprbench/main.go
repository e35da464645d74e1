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

// Command kubectl-daprbench is daprbench's kubectl plugin: put it on PATH and run
// `kubectl daprbench run|watch|list|report|compare|history|export`.
package main

import (
	"os"

	"github.com/daprbench/daprbench/internal/cli"
	// Every scenario's operator side and preflight (internal/scenario/<name>).
	_ "github.com/daprbench/daprbench/internal/scenario/all"
)

// main exits with the command's code: 0 passed, 1 could not run, 2–7 a finished run's
// verdict (verdict.ExitCode in internal/cli/verdict; the README's table). SIGINT or SIGTERM during run --wait cancels
// the run.
func main() {
	os.Exit(int(cli.Execute(cli.Streams{Out: os.Stdout, ErrOut: os.Stderr}, os.Args[1:])))
}

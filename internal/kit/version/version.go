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

// Package version is the one version every daprbench binary reports: set at link time by
// the Makefile and the release pipeline (-X), else read from the Go build's own record
// (the module version and the VCS revision go build stamps), so a binary built with plain
// `go build` or `go install` still says what it is.
package version

import (
	"fmt"
	"runtime/debug"
)

// Set with -ldflags "-X github.com/daprbench/daprbench/internal/kit/version.Version=v0.1.0
// -X github.com/daprbench/daprbench/internal/kit/version.Commit=<sha>".
var (
	Version = ""
	Commit  = ""
)

// Info is a binary's version and the commit it was built from.
type Info struct {
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
}

// Get is this binary's version: what the linker set, else what the Go build recorded.
func Get() Info {
	info := Info{Version: Version, Commit: Commit}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info = fromBuild(info, bi)
	}
	if info.Version == "" {
		info.Version = "dev"
	}
	return info
}

// fromBuild fills what the linker left empty from the build's record.
func fromBuild(info Info, bi *debug.BuildInfo) Info {
	if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		info.Version = bi.Main.Version
	}
	if info.Commit == "" {
		dirty := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Commit = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if dirty && info.Commit != "" {
			info.Commit += "-dirty"
		}
	}
	return info
}

// String is "v0.1.0 (commit 0123abc)", the commit shortened.
func (i Info) String() string {
	if i.Commit == "" {
		return i.Version
	}
	commit := i.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	return fmt.Sprintf("%s (commit %s)", i.Version, commit)
}

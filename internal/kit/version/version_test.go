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

package version

import (
	"runtime/debug"
	"testing"
)

func TestTheLinkersVersionWinsOverTheBuildsRecord(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261124-abcdef"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	if got := fromBuild(Info{Version: "v0.2.0", Commit: "feedface"}, bi); got != (Info{Version: "v0.2.0", Commit: "feedface"}) {
		t.Errorf("linker-set: %+v", got)
	}
	got := fromBuild(Info{}, bi)
	if got.Version != "v0.0.0-20261124-abcdef" || got.Commit != "0123456789abcdef0123-dirty" {
		t.Errorf("from the build: %+v", got)
	}
	if s := got.String(); s != "v0.0.0-20261124-abcdef (commit 0123456789ab)" {
		t.Errorf("String = %q", s)
	}
	if got := fromBuild(Info{}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}); got.Version != "" {
		t.Errorf("(devel) is no version: %+v", got)
	}
}

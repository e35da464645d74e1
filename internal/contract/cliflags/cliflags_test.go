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

package cliflags

import (
	"flag"
	"io"
	"strings"
	"testing"
)

func flags(args ...string) (*flag.FlagSet, *int, *string) {
	fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("payload-bytes", 0, "")
	s := fs.String("url", "", "")
	_ = fs.Parse(args)
	return fs, n, s
}

func TestApplyEnvSetsFlagsNotGivenAndLeavesOtherVariablesAlone(t *testing.T) {
	fs, n, s := flags("--url=http://given")
	err := ApplyEnv(fs, []string{"DAPRBENCH_PAYLOAD_BYTES=512", "DAPRBENCH_URL=http://env", "HOME=/root", "DAPR_HTTP_PORT=3500", "EMPTY="})
	if err != nil || *n != 512 || *s != "http://given" {
		t.Errorf("payload-bytes %d, url %q, err %v: want 512 from the environment and the command line's url", *n, *s, err)
	}
}

func TestApplyEnvRefusesVariablesThatSetNoFlagAndBadValues(t *testing.T) {
	fs, _, _ := flags()
	err := ApplyEnv(fs, []string{"DAPRBENCH_PAYLOAD_BYTE=512", "DAPRBENCH_URLS=x"})
	if err == nil || !strings.Contains(err.Error(), "DAPRBENCH_PAYLOAD_BYTE, DAPRBENCH_URLS set no flag of cmd") {
		t.Errorf("misspelt variables: %v", err)
	}
	fs, _, _ = flags()
	if err := ApplyEnv(fs, []string{"DAPRBENCH_PAYLOAD_BYTES=lots"}); err == nil || !strings.Contains(err.Error(), `DAPRBENCH_PAYLOAD_BYTES="lots"`) {
		t.Errorf("a bad value: %v", err)
	}
}

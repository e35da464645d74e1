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

package loadgen

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// parallelTests is how many of this package's parallel tests run at once unless -parallel
// says otherwise. They mostly wait on stand-in servers (~25 s of CPU in ~270 s of tests
// run one by one), so GOMAXPROCS's two leaves the machine idle. The flag cannot be given
// to `go test ./...` instead: the Ginkgo suites of other packages refuse it.
const parallelTests = 8

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(parallelTests)); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

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

package samples

import _ "embed" // the smoke sample

// Smoke is the smoke sample (perf_v1alpha1_perfrun_smoke.yaml): the first run a user starts,
// and the run `kubectl daprbench doctor` asks the cluster about (admission, fit, quota).
//
//go:embed perf_v1alpha1_perfrun_smoke.yaml
var Smoke []byte

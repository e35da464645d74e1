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

package result

import (
	"reflect"
	"testing"
)

func ms(v int64) *int64 { return &v }

func TestDaprdCPUHalvesAndPods(t *testing.T) {
	first := &DaprdCPU{ClientMs: ms(100), ClientPods: 1, ServerMs: ms(80), WallMs: 5000}
	second := &DaprdCPU{ClientMs: ms(110), ClientPods: 1, ServerMs: ms(90), WallMs: 5001}
	if got, want := first.JoinHalves(second), (&DaprdCPU{ClientMs: ms(210), ClientPods: 1, ServerMs: ms(170), WallMs: 10001}); !reflect.DeepEqual(got, want) {
		t.Errorf("halves = %+v, want %+v", got, want)
	}
	if got := first.JoinHalves(&DaprdCPU{ClientMs: ms(110), ClientPods: 1, WallMs: 5000}); got.ServerMs != nil {
		t.Errorf("halves with the server read in one only = %d ms, want unread", *got.ServerMs)
	}
	member := &DaprdCPU{ClientMs: ms(120), ClientPods: 1, WallMs: 5003} // no server: the leader reads it
	if got, want := first.AddPod(member), (&DaprdCPU{ClientMs: ms(220), ClientPods: 2, ServerMs: ms(80), WallMs: 5003}); !reflect.DeepEqual(got, want) {
		t.Errorf("pods = %+v, want %+v", got, want)
	}
}

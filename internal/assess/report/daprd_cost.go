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

package report

import (
	"math"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/contract/roles"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// costConfidence is the confidence of a cost's interval over repetitions.
const costConfidence = 0.95

// loadsDaprd reports whether the path v goes through the daprd of role: the load tester's
// own daprd carries every path that calls Dapr (the Dapr path, its variants and the
// client-only path); the target's daprd — the first variant's — the Dapr path and the
// server-only path.
func loadsDaprd(role roles.Role, v result.Variant) bool {
	switch role {
	case roles.ClientSidecar:
		return v == result.Dapr || v == result.ClientOnly || (v.Valid() && v != result.Baseline && v != result.Direct && v != result.ServerOnly)
	case roles.ServerSidecar:
		return v == result.Dapr || v == result.ServerOnly
	}
	return false
}

// daprdMs is the CPU a run read from role's daprd, and whether every daprd of the role was
// read (in a split load, every pod's own).
func daprdMs(r result.Run, role roles.Role, pods int) (int64, bool) {
	c := r.DaprdCPU
	switch {
	case c == nil:
		return 0, false
	case role == roles.ClientSidecar && c.ClientMs != nil && c.ClientPods == max(pods, 1):
		return *c.ClientMs, true
	case role == roles.ServerSidecar && c.ServerMs != nil:
		return *c.ServerMs, true
	}
	return 0, false
}

// daprdCost is role's cost per completed request of the measured path, from its daprd's own
// counter over each repetition; nil unless every repetition of the path read it.
func daprdCost(sum *result.Summary, role roles.Role, measured result.Variant) *perfv1alpha1.DaprdCost {
	if sum == nil || !loadsDaprd(role, measured) {
		return nil
	}
	var idleMs, idleWallMs int64
	for _, r := range sum.Runs {
		if ms, ok := daprdMs(r, role, len(sum.Pods)); ok && !loadsDaprd(role, r.Variant) {
			idleMs, idleWallMs = idleMs+ms, idleWallMs+r.DaprdCPU.WallMs
		}
	}
	idlePerSecond, haveIdle := 0.0, idleWallMs > 0
	if haveIdle {
		idlePerSecond = float64(idleMs) / float64(idleWallMs)
	}
	var gross, marginal []float64 // seconds of CPU per request, per repetition
	for _, r := range sum.Runs {
		if r.Variant != measured {
			continue
		}
		ms, ok := daprdMs(r, role, len(sum.Pods))
		completed := r.Requests - r.Errors
		if !ok || completed <= 0 {
			return nil
		}
		gross = append(gross, float64(ms)/1000/float64(completed))
		marginal = append(marginal, (float64(ms)-idlePerSecond*float64(r.DaprdCPU.WallMs))/1000/float64(completed))
	}
	if len(gross) == 0 {
		return nil
	}
	out := &perfv1alpha1.DaprdCost{}
	for _, g := range gross {
		out.PerRepetition = append(out.PerRepetition, costDuration(g))
	}
	mean, low, high, ok := stats.MeanInterval(gross, costConfidence)
	out.CPUPerRequest = costDuration(mean)
	if ok {
		out.Low, out.High = ptr.To(costDuration(low)), ptr.To(costDuration(high))
	}
	if haveIdle {
		out.IdleCPU = resource.NewMilliQuantity(int64(math.Round(idlePerSecond*1000)), resource.DecimalSI)
		m, _, _, _ := stats.MeanInterval(marginal, costConfidence)
		out.MarginalPerRequest = ptr.To(costDuration(m))
	}
	return out
}

// costDuration is seconds of CPU as a duration, to a tenth of a microsecond.
func costDuration(seconds float64) metav1.Duration {
	return metav1.Duration{Duration: time.Duration(seconds * float64(time.Second)).Round(time.Microsecond / 10)}
}

// kubeletDifference is (kubelet − daprd) / daprd in percent, a decimal string.
func kubeletDifference(kubelet, daprd time.Duration) string {
	if daprd <= 0 || kubelet <= 0 {
		return ""
	}
	return strconv.FormatFloat(100*float64(kubelet-daprd)/float64(daprd), 'f', 1, 64)
}

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

package cli

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Difference is one compared figure.
type Difference struct {
	Figure  string `json:"figure"`
	A       string `json:"a"`
	B       string `json:"b"`
	Change  string `json:"change"`
	Verdict string `json:"verdict"`
}

func newCompareCommand(o *options) *cobra.Command {
	return &cobra.Command{
		Use:               "compare RUN_A RUN_B",
		Short:             "Two runs side by side: each figure, the difference, and whether it is beyond noise",
		ValidArgsFunction: o.completeRuns(false),
		Args:              cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context())
			defer cancel()
			c, ns, err := o.connect()
			if err != nil {
				return err
			}
			var runs [2]perfv1alpha1.PerfRun
			for i, name := range args {
				if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &runs[i]); err != nil {
					return err
				}
				if runs[i].Status.Result == nil {
					return fmt.Errorf("run %s has no result yet", name)
				}
			}
			diffs := append(Compare(runs[0].Status.Result, runs[1].Status.Result), CompareCost(&runs[0], &runs[1])...)
			if ok, err := o.printData(diffs); ok {
				return err
			}
			t := &table{}
			t.add("FIGURE", args[0], args[1], "CHANGE", "VERDICT")
			for _, d := range diffs {
				t.add(d.Figure, d.A, d.B, d.Change, d.Verdict)
			}
			fprintf(o.streams.Out, "%s", t.String())
			return nil
		},
	}
}

// Compare lists the figures two results share. A change is beyond noise only when the two
// figures' uncertainty ranges do not overlap: the 95% intervals of added latency, the
// repetitions' spread of measured latency; without either it says so.
func Compare(a, b *perfv1alpha1.Result) []Difference {
	var out []Difference
	latency := func(name string, pick func(*perfv1alpha1.LatencySummary) *metav1.Duration,
		of func(*perfv1alpha1.Result) *perfv1alpha1.LatencySummary, bounds func(*perfv1alpha1.Result) (lo, hi *perfv1alpha1.LatencySummary)) {
		la, lb := of(a), of(b)
		if la == nil || lb == nil || pick(la) == nil || pick(lb) == nil {
			return
		}
		va, vb := pick(la).Duration, pick(lb).Duration
		d := Difference{Figure: name, A: va.String(), B: vb.String(), Change: change(float64(va), float64(vb), (vb - va).String())}
		loA, hiA := bounds(a)
		loB, hiB := bounds(b)
		switch {
		case loA == nil || loB == nil || pick(loA) == nil || pick(loB) == nil:
			d.Verdict = "no interval (one repetition)"
		case pick(hiA).Duration < pick(loB).Duration || pick(hiB).Duration < pick(loA).Duration:
			d.Verdict = "beyond noise"
		default:
			d.Verdict = "within noise"
		}
		out = append(out, d)
	}
	measured := func(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary { return r.Latency }
	added := func(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary { return r.Added }
	spread := func(r *perfv1alpha1.Result) (lo, hi *perfv1alpha1.LatencySummary) {
		if r.Spread == nil || r.Spread.Latency == nil {
			return nil, nil
		}
		return &r.Spread.Latency.Min, &r.Spread.Latency.Max
	}
	interval := func(r *perfv1alpha1.Result) (lo, hi *perfv1alpha1.LatencySummary) {
		if r.AddedInterval == nil {
			return nil, nil
		}
		return &r.AddedInterval.Low, &r.AddedInterval.High
	}
	for _, p := range perfv1alpha1.HeadlinePercentiles {
		latency("latency "+p.Name, p.Of, measured, spread)
	}
	for _, p := range perfv1alpha1.HeadlinePercentiles {
		latency("added "+p.Name, p.Of, added, interval)
	}
	if qa, ok := a.ActualRate(); ok {
		if qb, ok := b.ActualRate(); ok {
			out = append(out, Difference{Figure: "actual qps", A: a.ActualQPS, B: b.ActualQPS,
				Change: change(qa, qb, strconv.FormatFloat(qb-qa, 'f', 1, 64)), Verdict: "-"})
		}
	}
	if ca, cb := sidecarCPU(a), sidecarCPU(b); ca >= 0 && cb >= 0 {
		out = append(out, Difference{Figure: "sidecar CPU per 1000 rps", A: fmt.Sprintf("%dm", ca), B: fmt.Sprintf("%dm", cb),
			Change: change(float64(ca), float64(cb), fmt.Sprintf("%+dm", cb-ca)), Verdict: "-"})
	}
	return out
}

func change(a, b float64, abs string) string {
	if a == 0 {
		return abs
	}
	return fmt.Sprintf("%s (%+.1f%%)", abs, (b-a)/a*100)
}

func sidecarCPU(r *perfv1alpha1.Result) int64 {
	if r.Resources == nil || r.Resources.SidecarPer1kQPS == nil || r.Resources.SidecarPer1kQPS.CPU == nil {
		return -1
	}
	return r.Resources.SidecarPer1kQPS.CPU.MilliValue()
}

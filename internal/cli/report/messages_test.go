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
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
)

// A PubSub run's report shows each path's delivery latency and messages; a run whose
// messages were lost says why no added delivery latency is claimed.
func TestAPubSubRunsReportShowsDeliveryAndMessages(t *testing.T) {
	res := &perfv1alpha1.Result{Delivery: &perfv1alpha1.DeliveryResult{
		Latency:  &perfv1alpha1.LatencySummary{P50: clitest.Ms(1.5), P99: clitest.Ms(4)},
		Baseline: &perfv1alpha1.LatencySummary{P50: clitest.Ms(0.4), P99: clitest.Ms(1)},
		Messages: &perfv1alpha1.MessageCounts{Published: 30000, Delivered: 29990, Lost: 10, Duplicated: 3, Late: 2,
			WatchedFor: &metav1.Duration{Duration: 45 * time.Second}, ReceiptLag: &perfv1alpha1.ReceiptLag{P99: metav1.Duration{Duration: 120 * time.Microsecond}}},
		BaselineMessages: &perfv1alpha1.MessageCounts{Published: 30000, Delivered: 30000},
	}}
	out := outcomeTable(res)
	for _, want := range []string{"delivery: from each message's scheduled publish", "dapr       1.5ms", "baseline   400µs",
		"dapr       30000       29990       10     2      3            45s             0                120µs", "no added delivery latency is claimed"} {
		if !strings.Contains(out, want) {
			t.Errorf("the delivery table lacks %q:\n%s", want, out)
		}
	}
	if outcomeTable(&perfv1alpha1.Result{}) != "" {
		t.Error("a run without delivery figures shows a delivery table")
	}
	if got := storeLabel(&perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioPubSub}}); got != "broker" {
		t.Errorf("a PubSub run's store is called %q", got)
	}
}

// report.html gets a Delivery section for a PubSub run, and none for another.
func TestReportHTMLHasADeliverySectionForPubSub(t *testing.T) {
	res := &perfv1alpha1.Result{Delivery: &perfv1alpha1.DeliveryResult{
		Latency:  &perfv1alpha1.LatencySummary{P50: clitest.Ms(1.5)},
		Messages: &perfv1alpha1.MessageCounts{Published: 10, Delivered: 10}}}
	sec := outcomeSection(res)
	if len(sec.Tables) != 2 || sec.Tables[0].ID != "delivery-figures" || len(sec.Tables[0].Rows) != 1 || len(sec.Tables[1].Rows) != 1 {
		t.Errorf("delivery section %+v: want the figures (one path) and the messages (one path)", sec)
	}
	if s := outcomeSection(&perfv1alpha1.Result{}); len(s.Tables)+len(s.Notes) != 0 {
		t.Error("a run without delivery figures gets a Delivery section")
	}
}

// A PubSub run's delivery through Dapr carries its own interval over the repetitions, in the
// text table and report.html alike.
func TestADeliveryShowsItsOwnInterval(t *testing.T) {
	res := &perfv1alpha1.Result{Delivery: &perfv1alpha1.DeliveryResult{
		Latency: &perfv1alpha1.LatencySummary{P50: clitest.Ms(1.5)},
		LatencyInterval: &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
			Low: perfv1alpha1.LatencySummary{P50: clitest.Ms(1.4)}, High: perfv1alpha1.LatencySummary{P50: clitest.Ms(1.7)}}}}
	out := outcomeTable(res)
	for _, want := range []string{"dapr         1.5ms", "  95% low    1.4ms", "  95% high   1.7ms", "each delivery interval holds across the 3 repetitions' spread"} {
		if !strings.Contains(out, want) {
			t.Errorf("the delivery table lacks %q:\n%s", want, out)
		}
	}
	if got := outcomeSection(res).Tables[0].Rows[0][1].Detail; got != "95%: 1.4ms – 1.7ms" {
		t.Errorf("report.html's delivery p50 detail %q, want its interval", got)
	}
}

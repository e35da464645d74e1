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

package export

import (
	"fmt"
	"strconv"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// RunRow is a run as one CSV row.
type RunRow struct {
	Run         string `json:"run"`
	Phase       string `json:"phase"`
	Scenario    string `json:"scenario"`
	QPS         int32  `json:"qps"`
	ActualQPS   string `json:"actualQPS"`
	Errors      int64  `json:"errors"`
	P50         string `json:"p50"`
	P90         string `json:"p90"`
	P99         string `json:"p99"`
	BaselineP90 string `json:"baselineP90"`
	AddedP90    string `json:"addedP90"`
	AddedP90Low string `json:"addedP90Low"`
	AddedP90Hi  string `json:"addedP90High"`
	AddedP99    string `json:"addedP99"`
	SidecarCPU  string `json:"sidecarCPUPer1kQPS"`
	// Calibration is the target node's, units per CPU-second.
	Calibration string `json:"calibration"`
	// The server sidecar's CPU per request, raw.
	ServerCPUPerRequest string `json:"serverSidecarCPUPerRequest"`
	// A PubSub run's delivery through Dapr, its added delivery latency and lost messages.
	DeliveryP50      string `json:"deliveryP50"`
	DeliveryP99      string `json:"deliveryP99"`
	AddedDeliveryP99 string `json:"addedDeliveryP99"`
	LostMessages     string `json:"lostMessages"`
	// A Workflow run's completion and its instances that failed or did not end.
	CompletionP50       string `json:"completionP50"`
	CompletionP99       string `json:"completionP99"`
	FailedWorkflows     string `json:"failedWorkflows"`
	UnfinishedWorkflows string `json:"unfinishedWorkflows"`
	// A Scheduler run's trigger lateness and its registrations never triggered.
	TriggerLatenessP50 string `json:"triggerLatenessP50"`
	TriggerLatenessP99 string `json:"triggerLatenessP99"`
	MissedTriggers     string `json:"missedTriggers"`
}

// Row is run as a CSV row: its figures, or blanks where it has none.
func Row(run document.Run) RunRow {
	row := RunRow{Run: run.Name, Phase: string(run.Status.Phase), Scenario: string(run.Spec.Scenario), QPS: run.Spec.Load.QPS}
	if v, _, ok := run.Status.Environment.TargetCalibration(); ok {
		row.Calibration = textfmt.Fixed(v, 0)
	}
	res := run.Result()
	if res == nil {
		return row
	}
	row.ActualQPS, row.Errors = res.ActualQPS, res.Errors
	if l := res.Latency; l != nil {
		row.P50, row.P90, row.P99 = textfmt.Dur(l.P50), textfmt.Dur(l.P90), textfmt.Dur(l.P99)
	}
	if b := res.Baseline; b != nil {
		row.BaselineP90 = textfmt.Dur(b.P90)
	}
	if a := res.Added; a != nil {
		row.AddedP90, row.AddedP99 = textfmt.Dur(a.P90), textfmt.Dur(a.P99)
	}
	if i := res.AddedInterval; i != nil {
		row.AddedP90Low, row.AddedP90Hi = textfmt.Dur(i.Low.P90), textfmt.Dur(i.High.P90)
	}
	if r := res.Resources; r != nil && r.SidecarPer1kQPS != nil {
		row.SidecarCPU = textfmt.Qty(r.SidecarPer1kQPS.CPU)
	}
	for _, c := range res.SidecarCost {
		if c.Role == "serverSidecar" {
			row.ServerCPUPerRequest = c.CPUPerRequest.Duration.String()
		}
	}
	if d := res.Delivery; d != nil {
		row.DeliveryP50, row.DeliveryP99 = p50p99(d.Latency)
		if a := d.Added; a != nil {
			row.AddedDeliveryP99 = textfmt.Dur(a.P99)
		}
		if m := d.Messages; m != nil {
			row.LostMessages = fmt.Sprint(m.Lost)
		}
	}
	if c := res.Completion; c != nil {
		row.CompletionP50, row.CompletionP99 = p50p99(c.Latency)
		if n := c.Workflows; n != nil {
			row.FailedWorkflows, row.UnfinishedWorkflows = fmt.Sprint(n.Failed), fmt.Sprint(n.Unfinished)
		}
	}
	if tr := res.Triggers; tr != nil {
		row.TriggerLatenessP50, row.TriggerLatenessP99 = p50p99(tr.Lateness)
		if n := tr.Counts; n != nil {
			row.MissedTriggers = fmt.Sprint(n.Missed)
		}
	}
	return row
}

// p50p99 are a latency's p50 and p99 as a row's cells; empty without the latency.
func p50p99(l *perfv1alpha1.LatencySummary) (p50, p99 string) {
	if l == nil {
		return "", ""
	}
	return textfmt.Dur(l.P50), textfmt.Dur(l.P99)
}

// PointRow is a sweep's point as one CSV row.
type PointRow struct {
	Step        int32  `json:"step"`
	QPS         int32  `json:"qps"`
	Connections int32  `json:"connections"`
	Payload     string `json:"payloadBytes"`
	Run         string `json:"run"`
	Phase       string `json:"phase"`
	Passed      string `json:"passed"`
	ActualQPS   string `json:"actualQPS"`
	Errors      int64  `json:"errors"`
	P90         string `json:"p90"`
	P99         string `json:"p99"`
	AddedP90    string `json:"addedP90"`
	AddedP99    string `json:"addedP99"`
	SidecarCPU  string `json:"sidecarCPUPer1kQPS"`
	// Setting is last: columns read by position keep their place.
	Setting string `json:"setting"`
}

// PointRows are a sweep's points as CSV rows, each with its run's figures.
func PointRows(sw sweep.Measured) []PointRow {
	var rows []PointRow
	for _, p := range sw.Points {
		row := PointRow{Step: p.Step, QPS: p.QPS, Connections: p.Connections, Run: p.Run, Phase: string(p.Phase),
			ActualQPS: p.ActualQPS, Errors: p.Errors, SidecarCPU: textfmt.Qty(p.SidecarCPUPer1kQPS), Setting: p.Setting}
		if p.PayloadBytes != nil {
			row.Payload = strconv.Itoa(int(*p.PayloadBytes))
		}
		if p.Passed != nil {
			row.Passed = strconv.FormatBool(*p.Passed)
		}
		row.P90, row.P99 = pointDurs(p.Latency)
		row.AddedP90, row.AddedP99 = pointDurs(p.Added)
		rows = append(rows, row)
	}
	return rows
}

func pointDurs(l *perfv1alpha1.PointLatency) (p90, p99 string) {
	if l == nil {
		return "-", "-"
	}
	return textfmt.Dur(l.P90), textfmt.Dur(l.P99)
}

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

package policy

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// DefaultMaxSchedulerHeldBytes is the chart's and the manager's default ceiling on what a
// run holds in Dapr's scheduler: 64 MiB, 1000 rps of 64 KiB jobs due after 1 s (the
// published jobs setting holds 100 rps × 1 s × 256 B, 25.6 KB).
const DefaultMaxSchedulerHeldBytes = 64 << 20

// SchedulerLoadRefusal says why the run may not hold what it would in Dapr's scheduler,
// which every namespace's jobs, reminders and workflows share; empty when within the
// platform team's ceiling, or when the run holds nothing there.
func (p Policy) SchedulerLoadRefusal(run *perfv1alpha1.PerfRun) string {
	held := perfv1alpha1.CapabilityOf(run.Spec.Scenario).SchedulerHeldBytes
	if held == nil || p.MaxSchedulerHeldBytes <= 0 {
		return ""
	}
	bytes := held(&run.Spec)
	if bytes <= p.MaxSchedulerHeldBytes {
		return ""
	}
	return fmt.Sprintf("load.qps × scheduler.dueTime × the payload would hold %s at once in Dapr's scheduler, which every namespace's jobs, "+
		"reminders and workflows share, and this operator allows a run %s (--max-scheduler-held-bytes, Helm value maxSchedulerHeldBytes): "+
		"lower the rate, the due time or the payload, or ask whoever installed daprbench to raise the ceiling",
		quantity(bytes), quantity(p.MaxSchedulerHeldBytes))
}

func quantity(bytes int64) string { return resource.NewQuantity(bytes, resource.BinarySI).String() }

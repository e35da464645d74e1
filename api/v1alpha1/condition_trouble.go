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

package v1alpha1

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// troubleStatuses names, for each condition type of daprbench's resources, the statuses
// that report trouble — something a reader should look at. The event a condition's change
// emits (Warning or Normal) and the CLI's reading of a run both follow from this one table,
// so they cannot say opposite things. A type whose True is good is in trouble when False
// (ThresholdsMet also when Unknown: a gate not shown met); one whose True is bad, when True
// (Unknown there means "could not tell", which is said, not warned); Queued never is.
var troubleStatuses = map[string][]metav1.ConditionStatus{
	ConditionDaprReady:              {metav1.ConditionFalse},
	ConditionWorkloadsReady:         {metav1.ConditionFalse},
	ConditionSucceeded:              {metav1.ConditionFalse},
	ConditionFailed:                 {metav1.ConditionTrue},
	ConditionResourceUsageAvailable: {metav1.ConditionFalse},
	ConditionThresholdsMet:          {metav1.ConditionFalse, metav1.ConditionUnknown},
	ConditionRegressed:              {metav1.ConditionTrue},
	ConditionSaturated:              {metav1.ConditionTrue},
	ConditionDisturbed:              {metav1.ConditionTrue},
	ConditionCPULimitBound:          {metav1.ConditionTrue},
	ConditionQueued:                 nil,
	ConditionScheduled:              {metav1.ConditionFalse},
	ConditionTemplateAdmitted:       {metav1.ConditionFalse},
}

// expectedReasons are the reasons a troubled status carries while all goes as asked: the
// workloads still being created, a schedule its owner suspended.
var expectedReasons = []string{ReasonProvisioning, ReasonSuspended}

// ConditionTypes is every condition type of daprbench's resources, sorted.
func ConditionTypes() []string {
	types := make([]string, 0, len(troubleStatuses))
	for t := range troubleStatuses {
		types = append(types, t)
	}
	slices.Sort(types)
	return types
}

// ConditionIsTrouble reports whether c says something went wrong (see troubleStatuses); a
// type this table does not know never does.
func ConditionIsTrouble(c metav1.Condition) bool {
	return slices.Contains(troubleStatuses[c.Type], c.Status) && !slices.Contains(expectedReasons, c.Reason)
}

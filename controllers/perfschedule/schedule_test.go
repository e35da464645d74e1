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

package perfschedule

import (
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Admission asks the API server's time zone database; the operator's may lack a zone the
// API server knows (another tzdata release), and then the schedule says so rather than fire
// in UTC.
func TestAZoneTheOperatorDoesNotKnowIsAnInvalidSchedule(t *testing.T) {
	s := &perfv1alpha1.PerfSchedule{Spec: perfv1alpha1.PerfScheduleSpec{Schedule: "0 3 * * *", TimeZone: ptr.To("Mars/Olympus")}}
	if _, err := parseSchedule(s); err == nil || !strings.HasPrefix(err.Error(), `spec.timeZone "Mars/Olympus"`) {
		t.Errorf("an unknown zone: %v", err)
	}
	s.Spec.TimeZone = ptr.To("Europe/Berlin")
	if _, err := parseSchedule(s); err != nil {
		t.Errorf("Europe/Berlin: %v", err)
	}
}

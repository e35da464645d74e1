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

package sweep

import (
	"fmt"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// FindSetting is the setting of p's list named name; nil when there is none.
func FindSetting(p *perfv1alpha1.SweepPoints, name string) *perfv1alpha1.SweepSetting {
	if p == nil || name == "" {
		return nil
	}
	for i := range p.Settings {
		if p.Settings[i].Name == name {
			return &p.Settings[i]
		}
	}
	return nil
}

// ApplySetting puts the setting on top of the run's spec. The sidecar image becomes the
// run's one variant: PerfRun has no run-wide image field, and a variant's image reaches
// the target's sidecar only (the load tester's sidecar stays the injector's), through the
// same allowlist and version-skew checks as any variant's.
func ApplySetting(spec *perfv1alpha1.PerfRunSpec, s *perfv1alpha1.SweepSetting) {
	if s == nil {
		return
	}
	if s.MTLS != "" {
		spec.Dapr.MTLS = s.MTLS
	}
	// A template's variants may carry their own rate or protocol, which would win over the
	// run's: the setting is what the point measures, so it replaces theirs too.
	for i := range spec.Variants {
		v := &spec.Variants[i]
		if s.TracingSamplingRate != "" {
			v.TracingSamplingRate = ""
		}
		if s.AppProtocol != "" {
			v.AppProtocol = ""
		}
	}
	if s.TracingSamplingRate != "" {
		spec.Dapr.TracingSamplingRate = s.TracingSamplingRate
	}
	if s.AppProtocol != "" {
		spec.Protocol.App = s.AppProtocol
	}
	// The scenario's own settings (a store, a bulk size, a workflow, an actor host): admission
	// keeps a point's fields to the templates whose scenario takes them.
	if apply := perfv1alpha1.CapabilityOf(spec.Scenario).ApplySweepSetting; apply != nil {
		apply(spec, s)
	}
	if len(s.Faults) > 0 {
		// Admission keeps the template's kind and role: the point varies the fault's size.
		spec.Faults = nil
		for _, f := range s.Faults {
			spec.Faults = append(spec.Faults, *f.DeepCopy())
		}
	}
	if s.SidecarImage != "" {
		// Admission keeps a template with variants out of image settings; a variant name
		// has no dots.
		spec.Variants = []perfv1alpha1.SidecarVariant{{Name: strings.ReplaceAll(s.Name, ".", "-"), SidecarImage: s.SidecarImage}}
	}
}

// MTLSUnmeasured says, for a point whose run failed MTLSMismatch (its message starts with
// the reason), why it was not measured: "mtls-off: the cluster has mTLS Enabled
// (daprsystem Configuration); not measured". Empty for any other point. want is the mTLS
// the point's run expected: the cluster has the other value.
func MTLSUnmeasured(p *perfv1alpha1.SweepPointStatus, want perfv1alpha1.MTLSMode) string {
	if p.Phase != perfv1alpha1.PhaseFailed || !strings.HasPrefix(p.Message, perfv1alpha1.ReasonMTLSMismatch+":") {
		return ""
	}
	cluster := perfv1alpha1.MTLSDisabled
	if want == perfv1alpha1.MTLSDisabled {
		cluster = perfv1alpha1.MTLSEnabled
	}
	name := p.Setting
	if name == "" {
		name = fmt.Sprintf("step %d", p.Step)
	}
	return fmt.Sprintf("%s: the cluster has mTLS %s (daprsystem Configuration); not measured", name, cluster)
}

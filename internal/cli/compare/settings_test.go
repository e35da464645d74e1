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

package compare

import (
	"slices"
	"testing"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Two runs on a team's Configuration measure what it was when each ran: a changed
// generation (its middleware, its tracing) is a difference in setting, not in Dapr.
func TestCompareNamesAChangedConfiguration(t *testing.T) {
	on := func(records ...perfv1alpha1.DaprConfigurationRecord) perfv1alpha1.ResultDocument {
		return perfv1alpha1.ResultDocument{Scenario: perfv1alpha1.ScenarioServiceInvocation, Environment: &perfv1alpha1.Environment{DaprConfigurations: records}}
	}
	v3 := perfv1alpha1.DaprConfigurationRecord{Name: "appconfig", Generation: 3, TracingSamplingRate: "0.1"}
	v4 := perfv1alpha1.DaprConfigurationRecord{Name: "appconfig", Generation: 4, TracingSamplingRate: "1",
		Middleware: []string{"ratelimit (middleware.http.ratelimit)"}}
	got := SettingsDiffer(on(v3), on(v4))
	want := "daprConfiguration: appconfig (generation 3): tracing 0.1 → appconfig (generation 4): tracing 1; middleware ratelimit (middleware.http.ratelimit)"
	if !slices.Contains(got, want) {
		t.Errorf("settings differ: %q, want %q", got, want)
	}
	if got := SettingsDiffer(on(v3), on(v3)); len(got) != 0 {
		t.Errorf("the same generation differs: %q", got)
	}
	// Each run's own Configuration has the run's name: its settings are compared as dapr.*.
	own := func(run string) perfv1alpha1.ResultDocument {
		return on(perfv1alpha1.DaprConfigurationRecord{Name: run + "-tracing", OwnedByRun: true, TracingSamplingRate: "0.1"})
	}
	if got := SettingsDiffer(own("a"), own("b")); len(got) != 0 {
		t.Errorf("two runs' own Configurations differ: %q", got)
	}
}

func TestConfigurationRecordDescribe(t *testing.T) {
	for _, tc := range []struct {
		rec  perfv1alpha1.DaprConfigurationRecord
		want string
	}{
		{perfv1alpha1.DaprConfigurationRecord{Name: "run-tracing", OwnedByRun: true, TracingSamplingRate: "0.1"}, "run-tracing (the run's own): tracing 0.1"},
		{perfv1alpha1.DaprConfigurationRecord{Name: "appconfig", Generation: 2}, "appconfig (generation 2): tracing unset (none sampled)"},
		{perfv1alpha1.DaprConfigurationRecord{Name: "appconfig", Generation: 7, TracingSamplingRate: "1", Middleware: []string{"a (middleware.http.x)", "app: b (middleware.http.y)"},
			Features: []string{"SchedulerReminders"}, APIAllowlist: true},
			"appconfig (generation 7): tracing 1; middleware a (middleware.http.x), app: b (middleware.http.y); features SchedulerReminders; API allowlist"},
	} {
		if got := tc.rec.Describe(); got != tc.want {
			t.Errorf("Describe() = %q, want %q", got, tc.want)
		}
	}
	var none *perfv1alpha1.Environment
	if none.NamedConfiguration() != nil {
		t.Error("no environment names a Configuration")
	}
}

// A Resiliency that applied to one run's sidecars and not the other's (a timeout or retry
// on its calls) is a difference in setting.
func TestCompareNamesAResiliencyInEffect(t *testing.T) {
	with := func(records ...perfv1alpha1.DaprResiliencyRecord) perfv1alpha1.ResultDocument {
		return perfv1alpha1.ResultDocument{Scenario: perfv1alpha1.ScenarioServiceInvocation, Environment: &perfv1alpha1.Environment{DaprResiliencies: records}}
	}
	retries := perfv1alpha1.DaprResiliencyRecord{Name: "retries", Generation: 2, Targets: []string{"app orders", "component statestore"}}
	got := SettingsDiffer(with(), with(retries))
	want := "daprResiliency: none → retries (generation 2): unscoped; targets app orders, component statestore"
	if !slices.Contains(got, want) {
		t.Errorf("settings differ: %q, want %q", got, want)
	}
	if got := SettingsDiffer(with(retries), with(retries)); len(got) != 0 {
		t.Errorf("the same Resiliency differs: %q", got)
	}
	if got := SettingsDiffer(perfv1alpha1.ResultDocument{Scenario: perfv1alpha1.ScenarioServiceInvocation}, with()); len(got) != 0 {
		t.Errorf("no environment and no Resiliency differ: %q", got)
	}
	// One Resiliency scoped to both runs' targets: each records its own app id, and they
	// read alike.
	scopedTo := func(run string) perfv1alpha1.ResultDocument {
		e := with(perfv1alpha1.DaprResiliencyRecord{Name: "retries", Generation: 2, Scopes: []string{run + "-target"}, Targets: []string{"app orders"}})
		e.Run.Name = run
		return e
	}
	if got := SettingsDiffer(scopedTo("before"), scopedTo("after")); len(got) != 0 {
		t.Errorf("one Resiliency scoped to both runs differs: %q", got)
	}
}

func TestResiliencyRecordDescribe(t *testing.T) {
	for _, tc := range []struct {
		rec  perfv1alpha1.DaprResiliencyRecord
		want string
	}{
		{perfv1alpha1.DaprResiliencyRecord{Name: "team", Generation: 1}, "team (generation 1): unscoped; no targets"},
		{perfv1alpha1.DaprResiliencyRecord{Name: "mine", Generation: 4, Scopes: []string{"r-target", "r-loadtester"}, Targets: []string{"default DefaultRetryPolicy"}},
			"mine (generation 4): scoped to r-target, r-loadtester; targets default DefaultRetryPolicy"},
		{perfv1alpha1.DaprResiliencyRecord{Name: "… and 3 more"}, "… and 3 more"},
	} {
		if got := tc.rec.Describe(); got != tc.want {
			t.Errorf("Describe() = %q, want %q", got, tc.want)
		}
	}
}

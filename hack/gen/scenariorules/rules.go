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

package main

import (
	"fmt"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Rule is one admission rule: CEL over the object's spec (self), its message, and the
// field it names when not the spec itself.
type Rule struct{ Rule, Message, FieldPath string }

// PerfRunRules are the PerfRunSpec rules that depend on a scenario: each scenario's own,
// from its capabilities, then those that weigh every scenario's together.
func PerfRunRules() []Rule {
	var out []Rule
	for _, c := range perfv1alpha1.ScenarioCapabilities {
		out = append(out, scenarioRules(c)...)
	}
	return append(out, acrossScenarios(perfv1alpha1.ScenarioCapabilities)...)
}

// scenarioRules are the rules of one scenario's runs.
func scenarioRules(c perfv1alpha1.ScenarioCapability) []Rule {
	name := string(c.Scenario)
	is := fmt.Sprintf("self.scenario == '%s'", name)
	only := fmt.Sprintf("self.scenario != '%s' || ", name) // the rest holds for its runs only
	out := []Rule{rule("!has(self."+c.Settings+") || "+is, c.Settings+" may only be set when scenario is "+name)}
	if o := c.Outcome; o != nil {
		out = append(out, rule("!has(self.thresholds) || !("+hasAny("self.thresholds.", o.ThresholdFields[:])+") || "+is,
			fmt.Sprintf("thresholds.%s gate %s: they need scenario %s", strings.Join(o.ThresholdFields[:], "/"), o.ThresholdsJudge, name)))
	}
	if c.NoBaseline != "" {
		out = append(out, rule(only+"!has(self.baseline) || !self.baseline", fmt.Sprintf("baseline cannot be true for %s: %s", name, c.NoBaseline)))
	}
	if c.NoTarget != "" {
		out = append(out,
			rule(only+"!has(self.target) || !(has(self.target.image) || has(self.target.nodeSelector) || has(self.target.tolerations) || has(self.target.affinity) || (has(self.target.resources) && (has(self.target.resources.requests) || has(self.target.resources.limits))))",
				fmt.Sprintf("target configures a target app, and a %s run has none: %s", name, c.NoTarget)),
			rule(only+"!has(self.profiling)", fmt.Sprintf("profiling profiles the target's daprd, and a %s run has no target: %s", name, c.ProfiledDaprd)))
		if c.Store != "" && c.StoreComponent != "" {
			out = append(out, rule(only+"!"+hasPath(c.StoreComponent)+" || !has(self.placement) || self.placement == 'Any'",
				fmt.Sprintf("placement places the load tester beside or away from the %s a %s run deploys; a named Component's %s is not the run's to place: leave placement Any", c.Store, name, c.Store)))
		} else if c.Store == "" { // (a store the run always deploys, no StoreComponent: always the run's to place beside)
			out = append(out, rule(only+"!has(self.placement) || self.placement == 'Any'",
				fmt.Sprintf("placement places the load tester relative to a target, and a %s run has none: leave placement Any", name)))
		}
	}
	if c.OneLoadTester != "" {
		out = append(out, rule(only+"!has(self.loadTester) || !has(self.loadTester.replicas) || self.loadTester.replicas == 1",
			fmt.Sprintf("loadTester.replicas must be 1 for %s: %s", name, c.OneLoadTester)))
	}
	if c.MaxPayloadBytes > 0 {
		out = append(out, rule(fmt.Sprintf("%s%s <= %d", only, perfv1alpha1.PayloadCEL, c.MaxPayloadBytes),
			fmt.Sprintf("a %s run's payload must be at most %d KiB: %s", name, c.MaxPayloadBytes/1024, c.MaxPayloadWhy)))
	}
	for _, r := range c.Rules {
		if r.Everywhere {
			out = append(out, Rule{Rule: r.Rule, Message: r.Message})
		} else {
			out = append(out, rule(only+"("+r.Rule+")", r.Message))
		}
	}
	return out
}

// acrossScenarios are the rules that weigh the scenarios together: what only some can do,
// and the baseline each has by default.
func acrossScenarios(cs []perfv1alpha1.ScenarioCapability) []Rule {
	var sidecarless, variants, noApp, faults, faultsWhen, storeKills, storeKillsWhen []string
	for _, c := range cs {
		name := string(c.Scenario)
		if c.TakesFaults != "" {
			faults = append(faults, fmt.Sprintf("(self.scenario == '%s' && %s)", name, c.TakesFaults))
			faultsWhen = append(faultsWhen, name+" "+c.TakesFaultsWhen)
		}
		if c.KillsStore != "" {
			storeKills = append(storeKills, fmt.Sprintf("(self.scenario == '%s' && %s)", name, c.KillsStore))
			storeKillsWhen = append(storeKillsWhen, name+" "+c.KillsStoreWhen)
		}
		if c.Sidecarless {
			sidecarless = append(sidecarless, name)
		}
		if c.Variants {
			variants = append(variants, name)
		}
		if c.NoTarget != "" {
			noApp = append(noApp, name)
		}
	}
	// The time the load alone takes: every path (the variants, 1 without, a baseline, the
	// two one-sidecar paths of FourPaths) for every repetition, after the warm-up.
	load := "duration(self.load.warmup).getSeconds() + duration(self.load.duration).getSeconds() * (has(self.load.repetitions) ? self.load.repetitions : 1) * " + paths("self.", cs)
	return []Rule{
		rule("!has(self.dapr.enabled) || self.dapr.enabled || "+scenarioIn("self.", sidecarless),
			fmt.Sprintf("dapr.enabled=false needs scenario %s: the other scenarios' Dapr APIs (actors, state, pub/sub, workflows, jobs, configuration) only exist behind a sidecar", or(sidecarless))),
		rule("!has(self.variants) || ("+scenarioIn("self.", variants)+" && "+daprEnabled("self.")+")",
			fmt.Sprintf("variants compare sidecars: they need scenario %s with dapr.enabled", or(variants))),
		rule("!has(self.faults) || !self.faults.exists(f, !("+killsStore+" || "+killsLoadTester+" || "+killsControlPlane+")) || (("+strings.Join(faults, " || ")+") && "+daprEnabled("self.")+")",
			fmt.Sprintf("faults are ordered from the target app in the measured Dapr phases (all but a PodKill of the Store, a LoadTester or the control plane): they need a run through Dapr of scenario %s", or(faultsWhen))),
		rule("!has(self.faults) || !self.faults.exists(f, "+killsControlPlane+") || "+daprEnabled("self."),
			"a PodKill of Scheduler, Placement or Sentry takes Dapr's control plane down in the measured Dapr phases: it needs a run through Dapr (dapr.enabled)"),
		rule("!has(self.faults) || !self.faults.exists(f, "+killsStore+") || (("+strings.Join(storeKills, " || ")+") && "+daprEnabled("self.")+")",
			fmt.Sprintf("a PodKill of the Store deletes the store the run deploys, in the measured Dapr phases: it needs a run through Dapr of scenario %s", or(storeKillsWhen))),
		rule("!"+scenarioIn("self.", noApp)+" || !has(self.protocol.app) || self.protocol.app == 'HTTP'",
			fmt.Sprintf("%s have no app (protocol.app HTTP, its default)", and(noApp))),
		rule("!has(self.thresholds) || !(has(self.thresholds.maxAddedP90) || has(self.thresholds.maxAddedP99)) || "+measuresAdded("self.", cs),
			fmt.Sprintf("thresholds.maxAddedP90/maxAddedP99 need added latency: a %s run through Dapr with the baseline on", or(addedLatency(cs)))),
		rule("!has(self.timeout) || !has(self.load.warmup) || !has(self.load.duration) || duration(self.timeout).getSeconds() > "+load,
			"timeout must be longer than warmup + duration × repetitions × paths (the variants, 1 without, plus 1 for a baseline, plus 2 for the one-sidecar paths of FourPaths), the time the load alone takes"),
		rule("has(self.timeout) || !has(self.load.warmup) || !has(self.load.duration) || "+load+" + 300 <= 259200",
			"the derived timeout (warmup + duration × repetitions × paths + 5m) exceeds the 72h limit of a run: shorten load.duration or load.repetitions"),
	}
}

// killsStore is CEL over a fault (f): a PodKill of the run's store; killsControlPlane one
// of a Dapr control-plane service.
const (
	killsStore        = "(has(f.role) && f.role == 'Store')"
	killsLoadTester   = "(has(f.role) && f.role == 'LoadTester')"
	killsControlPlane = "(has(f.role) && f.role in ['Scheduler', 'Placement', 'Sentry'])"
)

// over is CEL written over a run's spec (self.…) made over the spec at prefix (self.template.spec.).
func over(prefix, cel string) string { return strings.ReplaceAll(cel, "self.", prefix) }

func daprEnabled(spec string) string {
	return over(spec, perfv1alpha1.DaprEnabledCEL)
}

// baselineOn is whether the spec at prefix has its baseline: spec.baseline, or its
// scenario's default.
func baselineOn(spec string, cs []perfv1alpha1.ScenarioCapability) string {
	var byDefault []string
	for _, c := range cs {
		if c.BaselineByDefaultCEL != "" {
			byDefault = append(byDefault, fmt.Sprintf("(%sscenario == '%s' && %s)", spec, c.Scenario, over(spec, c.BaselineByDefaultCEL)))
		}
	}
	return over(spec, "(has(self.baseline) ? self.baseline : (") + strings.Join(byDefault, " || ") + "))"
}

// addedLatency are the scenarios that may measure a baseline.
func addedLatency(cs []perfv1alpha1.ScenarioCapability) []string {
	var out []string
	for _, c := range cs {
		if c.NoBaseline == "" {
			out = append(out, string(c.Scenario))
		}
	}
	return out
}

// measuresAdded: the spec at prefix measures added latency (a baseline through Dapr).
func measuresAdded(spec string, cs []perfv1alpha1.ScenarioCapability) string {
	return "(" + scenarioIn(spec, addedLatency(cs)) + " && " + daprEnabled(spec) + " && " + baselineOn(spec, cs) + ")"
}

// paths is the number of paths a repetition of the spec at prefix measures.
func paths(spec string, cs []perfv1alpha1.ScenarioCapability) string {
	return over(spec, "((has(self.variants) ? self.variants.size() : 1) + (") + baselineOn(spec, cs) +
		over(spec, " ? 1 : 0) + ((has(self.serviceInvocation) && has(self.serviceInvocation.paths) && self.serviceInvocation.paths == 'FourPaths') ? 2 : 0))")
}

// rule is a rule on the spec itself.
func rule(cel, message string) Rule { return Rule{Rule: cel, Message: message} }

// scenarioIn is CEL for "the scenario of the spec at prefix is one of names".
func scenarioIn(spec string, names []string) string {
	if len(names) == 1 {
		return spec + "scenario == '" + names[0] + "'"
	}
	return "(" + spec + "scenario in ['" + strings.Join(names, "', '") + "'])"
}

// hasAny: any of prefix+field is set.
func hasAny(prefix string, fields []string) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = "has(" + prefix + f + ")"
	}
	return strings.Join(parts, " || ")
}

// hasPath: every step of a dotted path under self is set ("state.component").
func hasPath(path string) string {
	steps := strings.Split(path, ".")
	parts := make([]string, len(steps))
	for i := range steps {
		parts[i] = "has(self." + strings.Join(steps[:i+1], ".") + ")"
	}
	return "(" + strings.Join(parts, " && ") + ")"
}

func or(names []string) string  { return list(names, "or") }
func and(names []string) string { return list(names, "and") }

// list is "A", "A or B", "A, B or C".
func list(names []string, word string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + word + " " + names[len(names)-1]
}

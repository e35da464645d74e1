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
	"slices"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// template is the sweep's template spec, as the run rules' self.
const template = "self.template.spec."

// PerfSweepRules are the PerfSweepSpec rules that depend on the template's scenario: how
// long the points or the search take (paths by the template's baseline), which objectives
// its scenario can meet, and which settings' fields its scenario takes.
func PerfSweepRules() []Rule {
	cs := perfv1alpha1.ScenarioCapabilities
	// A point's time: warm-up and every path's repetitions, with the run defaults.
	point := "((has(self.template.spec.load.warmup) ? duration(self.template.spec.load.warmup).getSeconds() : 10) + (has(self.template.spec.load.duration) ? duration(self.template.spec.load.duration).getSeconds() : 60) * (has(self.template.spec.load.repetitions) ? self.template.spec.load.repetitions : 1) * " +
		paths(template, cs) + " + 300)"
	points := "((has(self.points.connections) ? size(self.points.connections) : 1) * (has(self.points.qps) ? size(self.points.qps) : 1) * (has(self.points.payloadBytes) ? size(self.points.payloadBytes) : 1) * (has(self.points.settings) ? size(self.points.settings) : 1))"
	objective := "!has(self.search) || !has(self.search.objective) || "
	out := []Rule{
		rule("!has(self.points) || "+points+" * "+point+" <= 259200",
			"spec.points: the sweep would take longer than 72h (points × (warmup + duration × repetitions × paths + 5m)): fewer points or a shorter template.spec.load.duration"),
		rule("!has(self.search) || (has(self.search.maxSteps) ? self.search.maxSteps : 10) * "+point+" <= 259200",
			"spec.search: maxSteps runs would take longer than 72h: fewer steps or a shorter template.spec.load.duration"),
		{Rule: objective + "!(has(self.search.objective.maxAddedP90) || has(self.search.objective.maxAddedP99)) || " + measuresAdded(template, cs),
			Message:   fmt.Sprintf("objective.maxAddedP90/maxAddedP99 need added latency, which the template does not measure: a %s template through Dapr with the baseline on", or(addedLatency(cs))),
			FieldPath: ".search.objective"},
	}
	for _, c := range cs {
		if o := c.Outcome; o != nil {
			out = append(out, Rule{Rule: objective + "!(" + hasAny("self.search.objective.", o.ThresholdFields[:]) + ") || " + scenarioIn(template, []string{string(c.Scenario)}),
				Message:   fmt.Sprintf("objective.%s judge %s: they need %s template", strings.Join(o.ThresholdFields[:], "/"), o.ThresholdsJudge, article(string(c.Scenario))),
				FieldPath: ".search.objective"})
		}
	}
	out = append(out, settingsRules(cs)...)
	return append(out, neverRunnablePoints(cs)...)
}

// neverRunnablePoints refuse a grid whose settings or payloads would make every point's run
// one the API server refuses (the run's own rules, met through the template).
func neverRunnablePoints(cs []perfv1alpha1.ScenarioCapability) []Rule {
	settings := "!has(self.points) || !has(self.points.settings) || "
	// The smallest payload any point sends: the grid's, or the template's.
	smallest := "(has(self.points.payloadBytes) ? self.points.payloadBytes.min() : " + over(template, perfv1alpha1.PayloadCEL) + ")"
	out := []Rule{
		{Rule: settings + "self.points.settings.all(s, !has(s.component)) || !has(self.template.spec.placement) || self.template.spec.placement == 'Any'",
			Message:   "spec.points.settings: a component setting names a store the run does not deploy, and the template's placement places the load tester relative to one it deploys: leave template.spec.placement Any",
			FieldPath: ".points.settings"},
		{Rule: settings + "self.points.settings.all(s, !has(s.component)) || !has(self.template.spec.thresholds) || !(has(self.template.spec.thresholds.maxAddedP90) || has(self.template.spec.thresholds.maxAddedP99)) || (has(self.template.spec.baseline) && self.template.spec.baseline)",
			Message:   "spec.points.settings: a component setting's runs call a named store, which has no baseline unless the template asks for one, so the template's thresholds.maxAddedP90/maxAddedP99 could never be judged: set template.spec.baseline true (a plain Redis) or drop those thresholds",
			FieldPath: ".points.settings"},
		{Rule: settings + "self.points.settings.all(s, !has(s.bulkSize) || s.bulkSize * " + smallest + " <= 3145728)",
			Message:   "spec.points.settings: bulkSize × the payload must be at most 3 MiB (one bulk request carries every key's value or message, and daprd refuses a body over 4 MiB): a setting over it at the grid's smallest payload refuses every point's run",
			FieldPath: ".points.settings"},
		{Rule: settings + "!has(self.template.spec.dapr.configuration) || self.points.settings.all(s, !has(s.tracingSamplingRate) || s.tracingSamplingRate == '0.1')",
			Message:   "spec.points.settings: tracingSamplingRate sets the Configuration the run writes, and a template naming dapr.configuration runs on that one instead: name a Configuration with the rate in a setting of its own run, or leave the rate out",
			FieldPath: ".points.settings"},
	}
	for _, c := range cs {
		if c.MaxPayloadBytes > 0 {
			out = append(out, Rule{Rule: fmt.Sprintf("!has(self.points) || !has(self.points.payloadBytes) || %s || self.points.payloadBytes.min() <= %d",
				"self.template.spec.scenario != '"+string(c.Scenario)+"'", c.MaxPayloadBytes),
				Message:   fmt.Sprintf("spec.points.payloadBytes: %s template's runs take a payload of at most %d KiB (%s), and every point here is over it", article(string(c.Scenario)), c.MaxPayloadBytes/1024, c.MaxPayloadWhy),
				FieldPath: ".points.payloadBytes"})
		}
	}
	return out
}

// settingGroup is fields of a point's settings refused together, and the refusal's words
// from the scenarios that take them (each taker's Means).
type settingGroup struct {
	fields    []string
	message   func(means, takers []string) string
	fieldPath bool
	// others: a value every template takes (appProtocol HTTP); empty: none.
	others string
}

var settingGroups = []settingGroup{
	{fields: []string{"component"}, message: func(means, takers []string) string {
		return fmt.Sprintf("component names a point's %s, for %s template", strings.Join(means, " or "), article(or(takers)))
	}},
	{fields: []string{"bulkSize"}, message: func(means, _ []string) string {
		return "bulkSize is a point's " + strings.Join(means, ", or ")
	}},
	{fields: []string{"workflowPattern", "activities"}, fieldPath: true, message: func(means, takers []string) string {
		return fmt.Sprintf("workflowPattern and activities are a point's %s, for %s template", slices.Compact(means)[0], article(or(takers)))
	}},
	{fields: []string{"actorHost"}, fieldPath: true, message: func(means, takers []string) string {
		return fmt.Sprintf("actorHost is a point's %s, for %s template", means[0], article(or(takers)))
	}},
	{fields: []string{"appProtocol"}, fieldPath: true, others: "HTTP", message: func(_, takers []string) string {
		return fmt.Sprintf("appProtocol GRPC needs %s template through Dapr (the others have no app, or are measured over HTTP; "+
			"without a sidecar nothing calls the app by its protocol)", article(or(takers)))
	}},
	{fields: []string{"sidecarImage"}, fieldPath: true, message: func(_, takers []string) string {
		return fmt.Sprintf("a sidecarImage needs %s template through Dapr without variants (the point measures the image as the run's one sidecar variant)", article(or(takers)))
	}},
}

// settingsRules refuse a point's settings fields on a template whose scenario does not take
// them (or not with the template's settings: When).
func settingsRules(cs []perfv1alpha1.ScenarioCapability) []Rule {
	var out []Rule
	for _, g := range settingGroups {
		var means, takers, when []string
		for _, c := range cs {
			for _, f := range c.SweepFields {
				if !slices.Contains(g.fields, f.Field) {
					continue
				}
				means = append(means, f.Means)
				if !slices.Contains(takers, string(c.Scenario)) {
					takers = append(takers, string(c.Scenario))
					is := scenarioIn(template, []string{string(c.Scenario)})
					if f.When != "" {
						is = "(" + is + " && (" + over(template, f.When) + "))"
					}
					when = append(when, is)
				}
			}
		}
		if len(takers) == 0 {
			panic(fmt.Sprintf("no scenario takes a point's %v: drop the group", g.fields))
		}
		unset := make([]string, len(g.fields))
		for i, f := range g.fields {
			unset[i] = "!has(s." + f + ")"
			if g.others != "" {
				unset[i] = "(" + unset[i] + " || s." + f + " == '" + g.others + "')"
			}
		}
		r := Rule{Rule: "!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, " + strings.Join(unset, " && ") + ") || " + strings.Join(when, " || "),
			Message: "spec.points.settings: " + g.message(means, takers)}
		if g.fieldPath {
			r.FieldPath = ".points.settings"
		}
		out = append(out, r)
	}
	return out
}

// article is "a Workflow", "an ActorActivation".
func article(word string) string {
	if strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

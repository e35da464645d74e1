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
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

// side is one result compare reads: a run's, a sweep point's run's, or one exported with
// `export` (so main's result can be an artifact of main's pipeline). Each is a result
// document, so all three compare alike.
type side struct {
	label  string
	result perfv1alpha1.ResultDocument
}

// sideInCluster says where an argument is read from, without reading it: a kind prefix
// names the cluster; an existing file, a path (a slash) or a .json name is a file (so a
// mistyped path says "no such file", not "no such run"); any other word is a run's name.
func sideInCluster(arg string) bool {
	if kind, _, found := strings.Cut(arg, "/"); found {
		if _, ok := kindAliases[strings.ToLower(kind)]; ok {
			return true
		}
		return false
	}
	if strings.HasSuffix(strings.ToLower(arg), ".json") {
		return false
	}
	st, err := os.Stat(arg)
	return err != nil || !st.Mode().IsRegular()
}

// readResultFile reads an exported result (export -o json).
func readResultFile(path string) (side, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return side{}, err
	}
	var e perfv1alpha1.ResultDocument
	if err := json.Unmarshal(b, &e); err != nil {
		return side{}, fmt.Errorf("%s: not an exported result: %w", path, err)
	}
	if e.Schema != perfv1alpha1.ResultSchema {
		return side{}, fmt.Errorf("%s: schema %q, want %q (kubectl daprbench export RUN -o json)", path, e.Schema, perfv1alpha1.ResultSchema)
	}
	if e.Result == nil {
		return side{}, fmt.Errorf("%s: run %s/%s has no result (phase %s)", path, e.Run.Namespace, e.Run.Name, textfmt.OrDash(e.Run.Phase))
	}
	return side{label: path, result: e}, nil
}

// readClusterSide reads RUN, perfrun/RUN or perfsweep/SWEEP/STEP (a point by its step, its
// run's name, or its setting when one point has it).
func readClusterSide(ctx context.Context, c client.Client, ns, arg string) (side, error) {
	kind, rest, _ := strings.Cut(arg, "/")
	name := arg
	if rest != "" {
		name = rest
	}
	if kindAliases[strings.ToLower(kind)] == "perfsweeps" {
		sweepName, step, ok := strings.Cut(rest, "/")
		if !ok {
			return side{}, fmt.Errorf("%q: name a sweep's point, perfsweep/%s/STEP (its step, its run or its setting)", arg, rest)
		}
		sw := &perfv1alpha1.PerfSweep{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: sweepName}, sw); err != nil {
			return side{}, err
		}
		if name = pointRun(sw, step); name == "" {
			return side{}, fmt.Errorf("%q: sweep %s has no point %q with a run", arg, sweepName, step)
		}
	} else if kind != arg && kindAliases[strings.ToLower(kind)] != "perfruns" {
		return side{}, fmt.Errorf("%q: compare a RUN, perfrun/RUN, perfsweep/SWEEP/STEP or an exported result file", arg)
	}
	run := &perfv1alpha1.PerfRun{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, run); err != nil {
		return side{}, err
	}
	doc, _, err := readDocument(ctx, c, run)
	if err != nil {
		return side{}, err
	}
	return side{label: arg, result: *doc.Doc}, nil
}

// pointRun is the run of the sweep's point named by its step or its run's name.
func pointRun(sw *perfv1alpha1.PerfSweep, step string) string {
	bySetting := ""
	for _, p := range sw.Status.Points {
		if p.Run != "" && (p.Run == step || strconv.Itoa(int(p.Step)) == step) {
			return p.Run
		}
		if p.Run != "" && p.Setting == step {
			if bySetting != "" {
				return "" // the setting was crossed with another list: name the point by its step
			}
			bySetting = p.Run
		}
	}
	return bySetting
}

// settingsDiffer lists the settings in which two results' runs differ ("qps: 1000 → 500"):
// a comparison of runs that differ in more than the change under test is not that change's.
func settingsDiffer(a, b perfv1alpha1.ResultDocument) []string {
	var out []string
	var walk func(prefix string, x, y reflect.Value)
	walk = func(prefix string, x, y reflect.Value) {
		for i := 0; i < x.NumField(); i++ {
			tag, _, _ := strings.Cut(x.Type().Field(i).Tag.Get("json"), ",")
			fx, fy := x.Field(i), y.Field(i)
			if fx.Kind() == reflect.Struct {
				walk(prefix+tag+".", fx, fy)
				continue
			}
			if !reflect.DeepEqual(fx.Interface(), fy.Interface()) {
				out = append(out, fmt.Sprintf("%s%s: %v → %v", prefix, tag, textfmt.OrDash(fmt.Sprint(fx.Interface())), textfmt.OrDash(fmt.Sprint(fy.Interface()))))
			}
		}
	}
	walk("", reflect.ValueOf(settingsOf(a)), reflect.ValueOf(settingsOf(b)))
	return out
}

// settings are what a run was asked to measure, as its exported document says.
type settings struct {
	Scenario perfv1alpha1.Scenario     `json:"scenario"`
	Load     perfv1alpha1.DocumentLoad `json:"load"`
	Dapr     perfv1alpha1.DocumentDapr `json:"dapr"`
	// ActorHost is an ActorActivation run's actor runtime: two runs that differ in it
	// measure the SDK's share of the latency, not the change under test.
	ActorHost perfv1alpha1.ActorHost `json:"actorHost"`
	// Configuration is the Dapr Configuration a run named, with its generation and the
	// settings that shape a figure; empty for one the run wrote (its settings are dapr's).
	Configuration string `json:"daprConfiguration"`
	// Resiliency is every Dapr Resiliency that applied to a run's sidecars (a timeout or
	// retry on its calls shapes a figure); "none" without one.
	Resiliency string `json:"daprResiliency"`
	// KnownAnswerDelay is the calibration hold on every call through Dapr ("none" without).
	KnownAnswerDelay string `json:"knownAnswerDelay"`
}

func settingsOf(e perfv1alpha1.ResultDocument) settings {
	s := settings{Scenario: e.Scenario, Load: e.Load, Dapr: e.Dapr}
	s.KnownAnswerDelay = "none"
	if e.Result != nil {
		s.ActorHost = e.Result.ActorHost
		if d := e.Result.KnownAnswerDelay; d != nil {
			s.KnownAnswerDelay = d.Duration.String()
		}
	}
	if named := e.Environment.NamedConfiguration(); named != nil {
		s.Configuration = named.Describe()
	}
	s.Resiliency = e.Environment.DescribeResiliencies(e.Run.Name)
	if s.ActorHost == "" && perfv1alpha1.CapabilityOf(e.Scenario).ActorHost != nil {
		s.ActorHost = perfv1alpha1.ActorHostMinimal // a result from before the result document's result.actorHost: the minimal host was the only one
	}
	return s
}

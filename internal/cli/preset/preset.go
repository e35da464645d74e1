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

// Package preset is the named settings run --preset starts: each one's run as its sample
// file declares it, and Dapr's published figures beside a run that measured that setting.
package preset

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/config/samples"
	"github.com/daprbench/daprbench/internal/cli/compare"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/document"
)

// scheme decodes a preset's file, strictly: a field the API lacks is an error.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := perfv1alpha1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

// Run is the preset's run, annotated with its name so its report shows the published
// row beside it.
func Run(name string) (*perfv1alpha1.PerfRun, error) {
	run, err := Declared(name)
	if err != nil {
		return nil, err
	}
	if run.Annotations == nil {
		run.Annotations = map[string]string{}
	}
	run.Annotations[perfv1alpha1.AnnotationPreset] = name
	return run, nil
}

// Declared is the preset's run as its file declares it.
func Declared(name string) (*perfv1alpha1.PerfRun, error) {
	p, err := samples.Lookup(name)
	if err != nil {
		return nil, err
	}
	b, err := p.YAML()
	if err != nil {
		return nil, err
	}
	decoded, _, err := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer().Decode(b, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("preset %s: %w", name, err)
	}
	run, ok := decoded.(*perfv1alpha1.PerfRun)
	if !ok {
		return nil, fmt.Errorf("preset %s is not a PerfRun", name)
	}
	return run, nil
}

// Beside is the preset's published row beside the run's figures: nil when the
// run was not started from a preset. The annotation is anyone's to set, so a run whose spec
// does not measure the preset's setting gets no rows, and source says why.
func Beside(run document.Run) (source string, rows [][3]string) {
	name := run.Annotations[perfv1alpha1.AnnotationPreset]
	p, err := samples.Lookup(name)
	if err != nil {
		return "", nil
	}
	preset, err := Declared(name)
	if err != nil {
		return "", nil
	}
	if why := Mismatch(&run.Spec, &preset.Spec); why != "" {
		return "annotated with preset " + p.Name + ", but not its setting (" + why + "): Dapr's published figures are not shown beside it", nil
	}
	for _, r := range p.Rows {
		rows = append(rows, [3]string{r.Figure, r.Value, MeasuredFigure(run.Result(), r.Figure)})
	}
	return p.Source + " for preset " + p.Name, rows
}

// MeasuredFigure is the run's value of a figure named as the tables name it.
func MeasuredFigure(res *perfv1alpha1.Result, figure string) string {
	if res == nil {
		return "-"
	}
	if figure == "sidecar CPU per 1000 rps" {
		if c := compare.SidecarCPU(res); c >= 0 {
			return fmt.Sprintf("%dm", c)
		}
		return "-"
	}
	family, percentile, _ := strings.Cut(figure, " ")
	of := map[string]*perfv1alpha1.LatencySummary{"added": res.Added, "latency": res.Latency}[family]
	if family == "completion" && res.Completion != nil {
		of = res.Completion.Latency
	}
	for _, f := range perfv1alpha1.LatencyFigures {
		if f.Name == percentile && of != nil {
			return textfmt.Dur(f.Of(of))
		}
	}
	return "-"
}

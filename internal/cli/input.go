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
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/cli-runtime/pkg/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/config/samples"
	"github.com/daprbench/daprbench/internal/cli/preset"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// inputFlags are where `run` takes its objects from, as kubectl create takes them: files,
// URLs, directories (-R for their subdirectories), a kustomization (-k) or stdin (-f -);
// or --from=perfschedule/NAME, a run of a schedule's template (as kubectl create job
// --from=cronjob/NAME).
type inputFlags struct {
	files  resource.FilenameOptions
	from   string
	preset string
}

func (f *inputFlags) bind(cmd *cobra.Command) {
	cmd.Flags().StringSliceVarP(&f.files.Filenames, "filename", "f", nil, "files, directories or URLs holding the PerfRuns and PerfSweeps to start (- reads stdin)")
	cmd.Flags().StringVarP(&f.files.Kustomize, "kustomize", "k", "", "a kustomization directory whose output holds the PerfRuns and PerfSweeps to start")
	cmd.Flags().BoolVarP(&f.files.Recursive, "recursive", "R", false, "read the directories given with -f and their subdirectories")
	cmd.Flags().StringVar(&f.from, "from", "", "start a run of a schedule's template: perfschedule/NAME")
	cmd.Flags().StringVar(&f.preset, "preset", "", "start a named setting whose published figures its report shows beside the run's (kubectl daprbench presets lists them)")
}

// validate checks the flags alone, before anything is read or any connection made.
func (f *inputFlags) validate() error {
	given := 0
	for _, set := range []bool{len(f.files.Filenames) > 0, f.files.Kustomize != "", f.from != "", f.preset != ""} {
		if set {
			given++
		}
	}
	if given != 1 {
		return fmt.Errorf("give exactly one of -f, -k, --from and --preset")
	}
	if f.preset != "" {
		if _, err := samples.Lookup(f.preset); err != nil {
			return err
		}
	}
	if f.from != "" {
		if _, err := scheduleName(f.from); err != nil {
			return err
		}
	}
	if f.files.Recursive && len(f.files.Filenames) == 0 {
		return fmt.Errorf("-R reads the directories given with -f")
	}
	return nil
}

func scheduleName(from string) (string, error) {
	kind, name, ok := strings.Cut(from, "/")
	if !ok || kindAliases[strings.ToLower(kind)] != "perfschedules" || name == "" {
		return "", fmt.Errorf("--from %q: name a schedule, perfschedule/NAME", from)
	}
	return name, nil
}

// readObjects reads the PerfRuns and PerfSweeps the files hold, with cli-runtime's
// resource builder (the code kubectl create uses), locally: no server is asked. Each
// object is then decoded strictly, so a misspelt field is an error rather than dropped.
func (o *options) readObjects(f inputFlags) ([]client.Object, error) {
	if f.preset != "" {
		run, err := preset.Run(f.preset)
		if err != nil {
			return nil, err
		}
		return []client.Object{run}, nil
	}
	result := resource.NewBuilder(o.config).Unstructured().Local().
		FilenameParam(false, &f.files).Flatten().Do()
	infos, err := result.Infos()
	if err != nil {
		return nil, err
	}
	if len(infos) == 0 {
		return nil, fmt.Errorf("no objects in %s", strings.Join(append(f.files.Filenames, f.files.Kustomize), " "))
	}
	strict := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	var objs []client.Object
	for _, info := range infos {
		b, err := json.Marshal(info.Object)
		if err != nil {
			return nil, err
		}
		decoded, gvk, err := strict.Decode(b, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", info.Source, err)
		}
		switch obj := decoded.(type) {
		case *perfv1alpha1.PerfRun, *perfv1alpha1.PerfSweep:
			objs = append(objs, obj.(client.Object))
		default:
			return nil, fmt.Errorf("%s: a %s; run starts PerfRuns and PerfSweeps", info.Source, gvk.Kind)
		}
	}
	return objs, nil
}

// runFromSchedule is a run of the schedule's template, named after the schedule. It is not
// one of the schedule's runs (no owner, no schedule label): the schedule's trend, history
// and pruning are of its own slots; the annotation says where the run came from.
func runFromSchedule(ctx context.Context, c client.Client, ns, from string) (*perfv1alpha1.PerfRun, error) {
	name, err := scheduleName(from)
	if err != nil {
		return nil, err
	}
	s := &perfv1alpha1.PerfSchedule{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, s); err != nil {
		return nil, err
	}
	run := workload.RunFromTemplate(&s.Spec.Template, ns, "")
	run.GenerateName = name + "-manual-"
	run.Annotations[perfv1alpha1.AnnotationFromSchedule] = name
	return run, nil
}

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

// Package plugin is kubectl-daprbench, a kubectl plugin: report, compare, history and
// watch, with kubectl's own flags (--kubeconfig, --context, -n, …) and -o table|json|yaml.
package plugin

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Streams are where a command reads and writes.
type Streams struct {
	Out, ErrOut io.Writer
}

// options are what every subcommand shares.
type options struct {
	kubeconfig string
	overrides  clientcmd.ConfigOverrides
	streams    Streams
	output     string
	// newClient is replaced in tests.
	newClient func() (client.WithWatch, error)
}

// NewCommand returns the plugin's root command, with kubectl's connection flags
// (--kubeconfig, --context, --cluster, --user, -n/--namespace, --server, --token, …).
func NewCommand(streams Streams) *cobra.Command { return newCommand(streams, nil) }

// newCommand builds the command; tests pass the client to use.
func newCommand(streams Streams, newClient func() (client.WithWatch, error)) *cobra.Command {
	o := &options{streams: streams, newClient: newClient}
	if o.newClient == nil {
		o.newClient = o.client
	}
	root := &cobra.Command{
		Use:          "kubectl-daprbench",
		Short:        "Start daprbench's runs and sweeps from CI, and read them: reports, charts, comparisons, trends",
		SilenceUsage: true,
		// main prints the error once, beside its exit code.
		SilenceErrors: true,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.PersistentFlags().StringVar(&o.kubeconfig, clientcmd.RecommendedConfigPathFlag, "", "path to the kubeconfig file")
	clientcmd.BindOverrideFlags(&o.overrides, root.PersistentFlags(), clientcmd.RecommendedConfigOverrideFlags(""))
	root.PersistentFlags().StringVarP(&o.output, "output", "o", "table", "output format: table, json, yaml or csv (csv: commands that print rows)")
	root.AddCommand(newRunCommand(o), newReportCommand(o), newCompareCommand(o), newHistoryCommand(o), newWatchCommand(o), newExportCommand(o))
	return root
}

func (o *options) loader() clientcmd.ClientConfig {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = o.kubeconfig
	return clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &o.overrides)
}

func (o *options) client() (client.WithWatch, error) {
	cfg, err := o.loader().ClientConfig()
	if err != nil {
		return nil, err
	}
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, err
	}
	if err := perfv1alpha1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	return client.NewWithWatch(cfg, client.Options{Scheme: scheme})
}

func (o *options) namespace() (string, error) {
	if o.overrides.Context.Namespace != "" {
		return o.overrides.Context.Namespace, nil
	}
	ns, _, err := o.loader().Namespace()
	return ns, err
}

// printData writes v as JSON or YAML when -o asks for it; ok is false for table output.
func (o *options) printData(v any) (ok bool, err error) {
	switch o.output {
	case "json", "yaml":
		b, err := yaml.Marshal(v)
		if err != nil {
			return true, err
		}
		if o.output == "json" {
			if b, err = yaml.YAMLToJSON(b); err != nil {
				return true, err
			}
			b = append(b, '\n')
		}
		_, err = o.streams.Out.Write(b)
		return true, err
	case "csv":
		return true, writeCSV(o.streams.Out, v)
	case "table", "":
		return false, nil
	}
	return true, fmt.Errorf("unknown output format %q: use table, json, yaml or csv", o.output)
}

func withTimeout(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, 30*time.Second)
}

func fprintf(w io.Writer, format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) }

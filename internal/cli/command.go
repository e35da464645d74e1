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

// Package cli is kubectl-daprbench, a kubectl plugin: run, watch, list, report,
// compare, history and export, with kubectl's own connection flags and printers from
// k8s.io/cli-runtime (--kubeconfig, --context, -n, -o json|yaml|name|jsonpath|go-template|wide).
package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Streams are where a command reads and writes.
type Streams struct {
	Out, ErrOut io.Writer
}

// scheme knows the kinds the plugin reads: its own and Kubernetes' built-in ones.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := perfv1alpha1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

// options are what every subcommand shares.
type options struct {
	config  *genericclioptions.ConfigFlags
	output  *output
	streams Streams
	// newClient is replaced in tests.
	newClient func() (client.WithWatch, error)
}

// NewCommand returns the plugin's root command, with kubectl's connection flags
// (--kubeconfig, --context, --cluster, --user, -n/--namespace, --server, --token, …).
func NewCommand(streams Streams) *cobra.Command { return newCommand(streams, nil) }

// newCommand builds the command; tests pass the client to use.
func newCommand(streams Streams, newClient func() (client.WithWatch, error)) *cobra.Command {
	o := &options{config: genericclioptions.NewConfigFlags(false), output: newOutput(), streams: streams, newClient: newClient}
	if o.newClient == nil {
		o.newClient = o.client
	}
	root := &cobra.Command{
		Use:         "kubectl-daprbench",
		Annotations: map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl daprbench"},
		// Flags are checked before anything is read or any connection made.
		PersistentPreRunE: func(*cobra.Command, []string) error { return o.output.validate() },
		Short:             "Start daprbench's runs and sweeps from CI, and read them: lists, reports, charts, comparisons, trends",
		SilenceUsage:      true,
		// main prints the error once, beside its exit code.
		SilenceErrors: true,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	o.config.AddFlags(root.PersistentFlags())
	o.output.addFlags(root.PersistentFlags())
	root.AddCommand(newRunCommand(o), newWatchCommand(o), newListCommand(o), newReportCommand(o), newCompareCommand(o), newHistoryCommand(o), newExportCommand(o),
		newVersionCommand(o), newCancelCommand(o), newPresetsCommand(o), newDoctorCommand(o))
	return root
}

func (o *options) client() (client.WithWatch, error) {
	cfg, err := o.config.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	return client.NewWithWatch(cfg, client.Options{Scheme: scheme})
}

// namespaceFlag is -n as given; empty when it was not.
func (o *options) namespaceFlag() string {
	if o.config.Namespace == nil {
		return ""
	}
	return *o.config.Namespace
}

// namespace is -n, else the kubeconfig context's namespace, else default.
func (o *options) namespace() (string, error) {
	if ns := o.namespaceFlag(); ns != "" {
		return ns, nil
	}
	ns, _, err := o.config.ToRawKubeConfigLoader().Namespace()
	return ns, err
}

func withTimeout(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, 30*time.Second)
}

func fprintf(w io.Writer, format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) }

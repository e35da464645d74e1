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
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"sigs.k8s.io/yaml"

	"github.com/daprbench/daprbench/internal/cli/export"
)

// output is -o: kubectl's own printers from cli-runtime (json, yaml, name, jsonpath,
// go-template and their -file forms) beside the plugin's: the default table, wide and csv.
type output struct {
	flags *genericclioptions.PrintFlags
}

// ownFormats are the formats the plugin prints itself.
var ownFormats = []string{"table", "wide", "csv"}

func newOutput() *output {
	return &output{flags: genericclioptions.NewPrintFlags("").WithTypeSetter(scheme)}
}

// addFlags adds -o, --template, --allow-missing-template-keys and --show-managed-fields
// to fs (cli-runtime adds them to one command; the plugin shares them with every one).
func (p *output) addFlags(fs *pflag.FlagSet) {
	holder := &cobra.Command{}
	p.flags.AddFlags(holder)
	holder.Flags().Lookup("output").Usage = fmt.Sprintf("Output format. One of: (%s). "+
		"Commands that print objects (run, watch, list) print them; report, compare, history and export print their figures' document "+
		"(a list of rows as {items: [...]}), so name does not apply there; csv is for commands that print rows.",
		strings.Join(p.formats(), ", "))
	fs.AddFlagSet(holder.Flags())
}

func (p *output) formats() []string {
	return append(append([]string{}, ownFormats...), p.flags.AllowedFormats()...)
}

func (p *output) format() string { return *p.flags.OutputFormat }

// table is true when the plugin's own table is asked for (no -o, table or wide, and no
// --template that implies go-template).
func (p *output) table() bool {
	switch p.format() {
	case "table", "wide":
		return true
	case "":
		return *p.flags.TemplatePrinterFlags.TemplateArgument == ""
	}
	return false
}

func (p *output) wide() bool { return p.format() == "wide" }

// printObject prints a Kubernetes object (its kind is set from the scheme) with the
// cli-runtime printer -o names.
func (o *options) printObject(obj runtime.Object) error {
	printer, err := o.output.flags.ToPrinter()
	if err != nil {
		return o.output.unknown(err)
	}
	return printer.PrintObj(obj, o.streams.Out)
}

// printList prints objects as kubectl get does: -o name one line each, the rest as a
// v1 List whose items carry their kinds.
func (o *options) printList(objs []runtime.Object) error {
	if o.output.format() == "name" {
		for _, obj := range objs {
			if err := o.printObject(obj); err != nil {
				return err
			}
		}
		return nil
	}
	list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{}}}
	for _, obj := range objs {
		item, err := toUnstructured(obj)
		if err != nil {
			return err
		}
		list.Items = append(list.Items, *item)
	}
	return o.printObject(list)
}

func toUnstructured(obj runtime.Object) (*unstructured.Unstructured, error) {
	gvks, _, err := scheme.ObjectKinds(obj)
	if err != nil {
		return nil, err
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: content}
	u.SetGroupVersionKind(gvks[0])
	return u, nil
}

// printData prints a command's figures when -o asks for a document: json, yaml, csv
// (rows), or a jsonpath or go-template over the JSON document. A slice is the document
// {items: [...]}, as kubectl prints lists. ok is false when the table is asked for.
func (o *options) printData(v any) (ok bool, err error) {
	if o.output.table() {
		return false, nil
	}
	format := o.output.format()
	if format == "csv" {
		return true, export.CSV(o.streams.Out, v)
	}
	if s := reflect.ValueOf(v); s.Kind() == reflect.Slice {
		v = map[string]any{"items": v}
	}
	switch format {
	case "json", "yaml":
		b, err := yaml.Marshal(v)
		if err != nil {
			return true, err
		}
		if format == "json" {
			if b, err = yaml.YAMLToJSON(b); err != nil {
				return true, err
			}
			b = append(b, '\n')
		}
		_, err = o.streams.Out.Write(b)
		return true, err
	case "name", "kyaml":
		return true, fmt.Errorf("-o %s prints objects; this command prints figures: use table, json, yaml, csv, jsonpath or go-template", format)
	}
	// jsonpath and go-template need no kind: their printers take the document as is.
	printer, err := o.output.flags.TemplatePrinterFlags.ToPrinter(o.templateFormat())
	if err != nil {
		return true, o.output.unknown(err)
	}
	return true, printer.PrintObj(printable{v}, o.streams.Out)
}

// templateFormat is -o, or go-template when only --template was given (as kubectl does).
func (o *options) templateFormat() string {
	if f := o.output.format(); f != "" {
		return f
	}
	return "go-template"
}

// unknown turns cli-runtime's "no printer" error into one that lists the plugin's
// formats too.
// validate refuses an output format no command prints, before any connection is made.
func (p *output) validate() error {
	if slices.Contains(ownFormats, p.format()) || p.table() {
		return nil
	}
	_, err := p.flags.ToPrinter()
	return p.unknown(err)
}

func (p *output) unknown(err error) error {
	if genericclioptions.IsNoCompatiblePrinterError(err) {
		return fmt.Errorf("unknown output format %q: use one of %s", p.format(), strings.Join(p.formats(), ", "))
	}
	return err
}

// printable carries figures to cli-runtime's template printers, which marshal what they
// are given to JSON and read that.
type printable struct{ v any }

func (d printable) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }
func (d printable) DeepCopyObject() runtime.Object   { return d }
func (d printable) MarshalJSON() ([]byte, error)     { return json.Marshal(d.v) }

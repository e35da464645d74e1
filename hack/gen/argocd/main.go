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

// Command argocd writes the Argo CD health checks and resource actions of
// config/argocd/<group>/<kind> (laid out as argo-cd's resource_customizations: health.lua,
// actions/discovery.lua, actions/<name>/action.lua) in the two forms an Argo CD install takes
// them, so neither is maintained by hand:
//
//   - config/argocd/argocd-cm-patch.yaml: a patch of the argocd-cm ConfigMap (kubectl patch
//     --type merge --patch-file, or a kustomize patch of Argo CD's install);
//   - config/argocd/argo-cd-values.yaml: values for the argo-cd Helm chart (configs.cm).
//
// A health check's key is resource.customizations.health.<group>_<kind>, its value the script
// verbatim; a kind's actions are resource.customizations.actions.<group>_<kind>, its value the
// YAML Argo CD reads there (discovery.lua, and definitions of name and action.lua), holding
// the scripts verbatim. make verify regenerates the files and fails when they were stale;
// Render checks that both decode to the scripts byte for byte, and the package's test that
// the checked-in files are current.
//
//	go run ./hack/gen/argocd config/argocd
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

const (
	// PatchFile and ValuesFile are the generated files, in the config/argocd directory.
	PatchFile  = "argocd-cm-patch.yaml"
	ValuesFile = "argo-cd-values.yaml"
)

// Entry is one argocd-cm key, its value, and the file or directory it is made from.
type Entry struct {
	Key, Path, Value string
}

// actionName is a name Argo CD's UI and API take, and a plain YAML scalar.
var actionName = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

func main() {
	if len(os.Args) != 2 {
		fail(fmt.Errorf("usage: argocd CONFIG_ARGOCD_DIR"))
	}
	dir := os.Args[1]
	entries, err := Scripts(dir)
	fail(err)
	actions, err := Actions(dir)
	fail(err)
	patch, values, err := Render(append(entries, actions...))
	fail(err)
	fail(os.WriteFile(filepath.Join(dir, PatchFile), patch, 0o644))
	fail(os.WriteFile(filepath.Join(dir, ValuesFile), values, 0o644))
}

// Scripts reads dir/<group>/<kind>/health.lua, ordered by key.
func Scripts(dir string) ([]Entry, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*", "health.lua"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no %s/<group>/<kind>/health.lua", dir)
	}
	var scripts []Entry
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		kindDir := filepath.Dir(p)
		group, kind := filepath.Base(filepath.Dir(kindDir)), filepath.Base(kindDir)
		scripts = append(scripts, Entry{Key: "resource.customizations.health." + group + "_" + kind, Path: filepath.ToSlash(p), Value: string(b)})
	}
	slices.SortFunc(scripts, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	return scripts, nil
}

// ResourceActions is what Argo CD reads from resource.customizations.actions.<group>_<kind>
// (argo-cd's v1alpha1.ResourceActions).
type ResourceActions struct {
	DiscoveryLua string `json:"discovery.lua"`
	Definitions  []struct {
		Name      string `json:"name"`
		ActionLua string `json:"action.lua"`
	} `json:"definitions"`
}

// Actions reads dir/<group>/<kind>/actions (discovery.lua and <name>/action.lua), ordered by
// key, each kind's definitions by name. It checks that each value decodes to the scripts.
func Actions(dir string) ([]Entry, error) {
	dirs, err := filepath.Glob(filepath.Join(dir, "*", "*", "actions"))
	if err != nil {
		return nil, err
	}
	var entries []Entry
	for _, actions := range dirs {
		kindDir := filepath.Dir(actions)
		group, kind := filepath.Base(filepath.Dir(kindDir)), filepath.Base(kindDir)
		discovery, err := os.ReadFile(filepath.Join(actions, "discovery.lua"))
		if err != nil {
			return nil, fmt.Errorf("%s has no discovery.lua: %w", actions, err)
		}
		scripts, err := filepath.Glob(filepath.Join(actions, "*", "action.lua"))
		if err != nil {
			return nil, err
		}
		if len(scripts) == 0 {
			return nil, fmt.Errorf("%s: no <name>/action.lua", actions)
		}
		slices.Sort(scripts)
		var v bytes.Buffer
		path := filepath.ToSlash(filepath.Join(actions, "discovery.lua"))
		if err := literal(&v, "", "discovery.lua", path, string(discovery)); err != nil {
			return nil, err
		}
		v.WriteString("definitions:\n")
		for _, s := range scripts {
			name := filepath.Base(filepath.Dir(s))
			if !actionName.MatchString(name) {
				return nil, fmt.Errorf("%s: an action name is lower-case letters, digits and '-'", s)
			}
			lua, err := os.ReadFile(s)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&v, "  - name: %s\n", name)
			if err := literal(&v, "    ", "action.lua", filepath.ToSlash(s), string(lua)); err != nil {
				return nil, err
			}
		}
		var decoded ResourceActions
		if err := yaml.UnmarshalStrict(v.Bytes(), &decoded); err != nil {
			return nil, fmt.Errorf("%s: the actions do not decode: %w", actions, err)
		}
		if decoded.DiscoveryLua != string(discovery) || len(decoded.Definitions) != len(scripts) {
			return nil, fmt.Errorf("%s: the actions do not decode to the scripts verbatim", actions)
		}
		for i, s := range scripts {
			lua, _ := os.ReadFile(s)
			if d := decoded.Definitions[i]; d.Name != filepath.Base(filepath.Dir(s)) || d.ActionLua != string(lua) {
				return nil, fmt.Errorf("%s does not decode verbatim", s)
			}
		}
		entries = append(entries, Entry{Key: "resource.customizations.actions." + group + "_" + kind, Path: filepath.ToSlash(actions), Value: v.String()})
	}
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	return entries, nil
}

// Render returns the argocd-cm patch and the Helm values holding the entries. It checks that
// each file decodes back to the entries exactly.
func Render(scripts []Entry) (patch, values []byte, err error) {
	header := func(what string, use ...string) string {
		h := "# Generated by `make argocd-health` (hack/gen/argocd) from config/argocd/<group>/<kind>/ (health.lua, actions/): do not edit.\n# " + what + "\n"
		for _, u := range use {
			h += "#   " + u + "\n"
		}
		return h
	}
	var p bytes.Buffer
	p.WriteString(header("daprbench's Argo CD health checks and resource actions as a patch of argocd-cm (docs/gitops.md):",
		"kubectl -n argocd patch configmap argocd-cm --type merge --patch-file config/argocd/"+PatchFile,
		"or, in the kustomization that installs Argo CD (the target matches argocd-cm in any namespace):",
		"patches: [{path: "+PatchFile+", target: {kind: ConfigMap, name: argocd-cm}}]"))
	p.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cm\ndata:\n")
	var v bytes.Buffer
	v.WriteString(header("daprbench's Argo CD health checks and resource actions as values of the argo-cd Helm chart (docs/gitops.md):",
		"helm upgrade --install argocd argo/argo-cd -n argocd -f config/argocd/"+ValuesFile+" [-f your-values.yaml]"))
	v.WriteString("configs:\n  cm:\n")
	for _, s := range scripts {
		if err := literal(&p, "  ", s.Key, s.Path, s.Value); err != nil {
			return nil, nil, err
		}
		if err := literal(&v, "    ", s.Key, s.Path, s.Value); err != nil {
			return nil, nil, err
		}
	}
	// What a reader of either file gets must be the scripts, byte for byte.
	var cm struct{ Data map[string]string }
	var chart struct {
		Configs struct{ CM map[string]string }
	}
	if err := yaml.Unmarshal(p.Bytes(), &cm); err != nil {
		return nil, nil, fmt.Errorf("the patch does not decode: %w", err)
	}
	if err := yaml.Unmarshal(v.Bytes(), &chart); err != nil {
		return nil, nil, fmt.Errorf("the values do not decode: %w", err)
	}
	for _, decoded := range []map[string]string{cm.Data, chart.Configs.CM} {
		if len(decoded) != len(scripts) {
			return nil, nil, fmt.Errorf("%d keys decoded, %d scripts", len(decoded), len(scripts))
		}
		for _, s := range scripts {
			if decoded[s.Key] != s.Value {
				return nil, nil, fmt.Errorf("%s does not decode to %s verbatim", s.Key, s.Path)
			}
		}
	}
	return p.Bytes(), v.Bytes(), nil
}

// literal writes key: |<literal block of text>, indented; path names the text's source.
func literal(b *bytes.Buffer, indent, key, path, text string) error {
	if !strings.HasSuffix(text, "\n") || strings.HasSuffix(text, "\n\n") || strings.HasPrefix(text, " ") || strings.HasPrefix(text, "\n") {
		return fmt.Errorf("%s: a script starts with neither a space nor an empty line and ends with one newline (a YAML literal block keeps it verbatim)", path)
	}
	fmt.Fprintf(b, "%s%s: |\n", indent, key)
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if line != "" {
			b.WriteString(indent + "  " + line)
		}
		b.WriteString("\n")
	}
	return nil
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "argocd:", err)
		os.Exit(1)
	}
}

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

package controllers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// This file runs a Lua script as Argo CD v3.2 (util/lua/lua.go, the version make test-argocd
// builds) runs one taken from argocd-cm, so the tests judge the scripts in the interpreter,
// with the libraries, and through the conversions a user's Argo CD applies:
//
//   - gopher-lua (v1.1.1, as Argo CD's go.mod) with only the package, base and table libraries
//     open: a script from argocd-cm has no string or math library unless argocd-cm also sets
//     resource.customizations.useOpenLibs.<group>_<kind>, which config/argocd does not (Argo
//     CD also opens a safe os with time and date; no script here uses them, so a script that
//     calls them fails here rather than pass untested);
//   - the object as the global obj, converted as Argo CD's decodeValue converts it;
//   - the returned table encoded to JSON as layeh.com/gopher-json encodes it (an empty table
//     is [], a table with keys 1..n an array, one with string keys an object), then read as
//     Argo CD reads a health status, an action list or an action's result.

// argoLua runs script with obj as Argo CD does and returns the script's result encoded as JSON.
func argoLua(script string, obj map[string]any) ([]byte, error) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{{lua.LoadLibName, lua.OpenPackage}, {lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}} {
		if err := L.CallByParam(lua.P{Fn: L.NewFunction(lib.open), NRet: 0, Protect: true}, lua.LString(lib.name)); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // Argo CD's limit
	defer cancel()
	L.SetContext(ctx)
	L.SetGlobal("actionParams", L.CreateTable(0, 0))
	L.SetGlobal("obj", decodeValue(L, obj))
	if err := L.DoString(script); err != nil {
		return nil, err
	}
	ret, ok := L.Get(-1).(*lua.LTable)
	if !ok {
		return nil, fmt.Errorf("expect table output from Lua script, not %s", L.Get(-1).Type())
	}
	return encodeLua(ret, map[*lua.LTable]bool{})
}

// decodeValue converts decoded JSON or YAML to Lua values as Argo CD's decodeValue does.
func decodeValue(L *lua.LState, value any) lua.LValue {
	switch v := value.(type) {
	case bool:
		return lua.LBool(v)
	case float64:
		return lua.LNumber(v)
	case string:
		return lua.LString(v)
	case json.Number:
		return lua.LString(v)
	case int:
		return lua.LNumber(v)
	case int32:
		return lua.LNumber(v)
	case int64:
		return lua.LNumber(v)
	case []any:
		t := L.CreateTable(len(v), 0)
		for _, e := range v {
			t.Append(decodeValue(L, e))
		}
		return t
	case map[string]any:
		t := L.CreateTable(0, len(v))
		for k, e := range v {
			t.RawSetH(lua.LString(k), decodeValue(L, e))
		}
		return t
	}
	return lua.LNil
}

// encodeLua encodes a Lua value as gopher-json does for Argo CD: the same table twice (even
// side by side, not nested) is an error, as are sparse arrays and mixed keys.
func encodeLua(value lua.LValue, visited map[*lua.LTable]bool) ([]byte, error) {
	switch v := value.(type) {
	case lua.LBool:
		return json.Marshal(bool(v))
	case lua.LNumber:
		return json.Marshal(float64(v))
	case lua.LString:
		return json.Marshal(string(v))
	case *lua.LNilType:
		return []byte("null"), nil
	case *lua.LTable:
		if visited[v] {
			return nil, errors.New("cannot encode recursively nested tables to JSON")
		}
		visited[v] = true
		key, val := v.Next(lua.LNil)
		switch key.Type() {
		case lua.LTNil:
			return []byte("[]"), nil
		case lua.LTNumber:
			var b bytes.Buffer
			b.WriteByte('[')
			for want := lua.LNumber(1); key != lua.LNil; want++ {
				if key.Type() != lua.LTNumber {
					return nil, errors.New("cannot encode mixed or invalid key types")
				}
				if key != want {
					return nil, errors.New("cannot encode sparse array")
				}
				e, err := encodeLua(val, visited)
				if err != nil {
					return nil, err
				}
				if want > 1 {
					b.WriteByte(',')
				}
				b.Write(e)
				key, val = v.Next(key)
			}
			b.WriteByte(']')
			return b.Bytes(), nil
		case lua.LTString:
			obj := map[string]json.RawMessage{}
			for key != lua.LNil {
				if key.Type() != lua.LTString {
					return nil, errors.New("cannot encode mixed or invalid key types")
				}
				e, err := encodeLua(val, visited)
				if err != nil {
					return nil, err
				}
				obj[key.String()] = e
				key, val = v.Next(key)
			}
			return json.Marshal(obj)
		}
		return nil, errors.New("cannot encode mixed or invalid key types")
	}
	return nil, fmt.Errorf("cannot encode %s to JSON", value.Type())
}

// argoHealth is what Argo CD makes of a health script's result: its status and message, and
// Unknown for a status Argo CD does not know.
func argoHealth(script string, obj map[string]any) (status, message string, err error) {
	out, err := argoLua(script, obj)
	if err != nil {
		return "", "", err
	}
	var hs struct{ Status, Message string }
	if err := json.Unmarshal(out, &hs); err != nil {
		return "", "", err
	}
	switch hs.Status {
	case "Unknown", "Progressing", "Suspended", "Healthy", "Degraded", "Missing":
		return hs.Status, hs.Message, nil
	}
	return "Unknown", "Lua returned an invalid health status", nil
}

// argoAction is an action Argo CD offers, as its discovery script lists it.
type argoAction struct {
	Name        string `json:"name"`
	Disabled    bool   `json:"disabled,omitempty"`
	IconClass   string `json:"iconClass,omitempty"`
	DisplayName string `json:"displayName,omitempty"`
}

// argoDiscovery is what Argo CD makes of a discovery script's result: the actions by name
// (enabled unless disabled is true; an action whose table is empty has only its name).
func argoDiscovery(script string, obj map[string]any) ([]argoAction, error) {
	out, err := argoLua(script, obj)
	if err != nil {
		return nil, err
	}
	if string(out) == "[]" {
		return nil, nil
	}
	var byName map[string]json.RawMessage
	if err := json.Unmarshal(out, &byName); err != nil {
		return nil, err
	}
	var actions []argoAction
	for name, raw := range byName {
		a := argoAction{}
		if !bytes.HasPrefix(raw, []byte("[")) {
			if err := json.Unmarshal(raw, &a); err != nil {
				return nil, fmt.Errorf("action %s: %w", name, err)
			}
		}
		a.Name = name
		actions = append(actions, a)
	}
	return actions, nil
}

// impacted is one resource an action returns and what Argo CD does with it.
type impacted struct {
	Operation string         `json:"operation"`
	Resource  map[string]any `json:"resource"`
}

// argoRunAction is what Argo CD makes of an action script's result: a list of resources to
// create or patch (a new-style action), or the object itself to patch (an old-style one),
// whose empty tables Argo CD turns back into the objects they were in obj.
func argoRunAction(script string, obj map[string]any) ([]impacted, error) {
	out, err := argoLua(script, obj)
	if err != nil {
		return nil, err
	}
	var result []impacted
	if bytes.HasPrefix(out, []byte("[")) {
		if err := json.Unmarshal(out, &result); err != nil {
			return nil, err
		}
		for _, r := range result {
			if r.Operation != "create" && r.Operation != "patch" {
				return nil, fmt.Errorf("unsupported operation: %q", r.Operation)
			}
		}
	} else {
		var patched map[string]any
		if err := json.Unmarshal(out, &patched); err != nil {
			return nil, err
		}
		result = []impacted{{Operation: "patch", Resource: patched}}
	}
	for i := range result {
		if result[i].Operation == "patch" {
			result[i].Resource = cleanReturnedObj(result[i].Resource, obj)
		}
	}
	return result, nil
}

// cleanReturnedObj is Argo CD's: where obj held an object, an empty array the script returned
// in its place is the object again.
func cleanReturnedObj(newObj, obj map[string]any) map[string]any {
	for key, old := range obj {
		switch n := newObj[key].(type) {
		case map[string]any:
			if o, ok := old.(map[string]any); ok {
				newObj[key] = cleanReturnedObj(n, o)
			}
		case []any:
			switch o := old.(type) {
			case map[string]any:
				if len(n) == 0 {
					newObj[key] = o
				}
			case []any:
				newObj[key] = cleanReturnedArray(n, o)
			}
		}
	}
	return newObj
}

func cleanReturnedArray(newArr, arr []any) []any {
	for i := range newArr {
		if i >= len(arr) {
			break
		}
		switch n := newArr[i].(type) {
		case map[string]any:
			if o, ok := arr[i].(map[string]any); ok {
				newArr[i] = cleanReturnedObj(n, o)
			}
		case []any:
			if o, ok := arr[i].([]any); ok {
				newArr[i] = cleanReturnedArray(n, o)
			}
		}
	}
	return newArr
}

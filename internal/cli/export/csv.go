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

// Package export is a run's or a sweep's data as files other tools read: CSV rows for
// spreadsheets and results stores, one fortio result JSON per path for fortio's own report,
// and the histograms' paths checked before any is decoded or names a file.
package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

// CSV writes a slice of flat structs as CSV: a header of the fields' JSON names, then
// a row per element, for spreadsheets and results stores. Cells that a spreadsheet would
// run as formulas are neutralised (textfmt.CSVCell).
func CSV(w io.Writer, rows any) error {
	v := reflect.ValueOf(rows)
	if v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.Struct {
		return fmt.Errorf("csv needs a list of rows, not %T", rows)
	}
	t := v.Type().Elem()
	out := csv.NewWriter(w)
	var header []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		header = append(header, name)
	}
	if err := out.Write(header); err != nil {
		return err
	}
	for i := range v.Len() {
		var record []string
		for j := range t.NumField() {
			record = append(record, textfmt.CSVCell(fmt.Sprint(v.Index(i).Field(j).Interface())))
		}
		if err := out.Write(record); err != nil {
			return err
		}
	}
	out.Flush()
	return out.Error()
}

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

package textfmt

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Table collects rows and renders them aligned, as kubectl does.
type Table struct {
	rows [][]string
}

func (t *Table) Add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *Table) String() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 4, 3, ' ', 0)
	for _, r := range t.rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = TerminalCell(c) // cells repeat status strings
		}
		_, _ = fmt.Fprintf(w, "%s\n", strings.Join(cells, "\t"))
	}
	_ = w.Flush()
	return b.String()
}

// Dur is a duration to the microsecond; "-" for none.
func Dur(d *metav1.Duration) string {
	if d == nil {
		return "-"
	}
	return d.Duration.Round(time.Microsecond).String()
}

// Qty is a quantity as Kubernetes writes it; "-" for none.
func Qty(q *resource.Quantity) string {
	if q == nil {
		return "-"
	}
	return q.String()
}

// OrDash is s, or "-" for empty: the plugin's "none" in a cell.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Fixed is v with decimals digits after the point.
func Fixed(v float64, decimals int) string { return strconv.FormatFloat(v, 'f', decimals, 64) }

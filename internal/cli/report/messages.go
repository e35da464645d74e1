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

package report

import (
	"fmt"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// messageCounts are a PubSub run's messages per path, with what the outcome view does not
// count: late, duplicated, unacknowledged, and how long they were watched for.
func messageCounts(res *perfv1alpha1.Result) (header []string, rows [][]string) {
	for _, p := range messagePaths(res.Delivery) {
		rows = append(rows, messageRow(p.name, p.n))
	}
	return messageHeader, rows
}

// messageHeader heads a path's message counts (messageRow).
var messageHeader = []string{"Path", "Published", "Delivered", "Lost", "Late", "Duplicated", "Watched after", "Unacknowledged", "Receipt lag p99"}

type messagePath struct {
	name string
	n    *perfv1alpha1.MessageCounts
}

// messagePaths is each path of d with message counts.
func messagePaths(d *perfv1alpha1.DeliveryResult) []messagePath {
	var out []messagePath
	for _, p := range []messagePath{{"dapr", d.Messages}, {"baseline", d.BaselineMessages}} {
		if p.n != nil {
			out = append(out, p)
		}
	}
	return out
}

// messageRow is one path's counts: late (after the drain, still lost) and duplicated through
// the watch after the phases (its shortest), and the subscriber's own receipt lag.
func messageRow(name string, n *perfv1alpha1.MessageCounts) []string {
	watched, lag := "-", "-"
	if n.WatchedFor != nil {
		watched = n.WatchedFor.Duration.String()
	}
	if n.ReceiptLag != nil {
		lag = n.ReceiptLag.P99.Duration.String()
	}
	return []string{name, fmt.Sprint(n.Published), fmt.Sprint(n.Delivered), fmt.Sprint(n.Lost), fmt.Sprint(n.Late),
		fmt.Sprint(n.Duplicated), watched, fmt.Sprint(n.Unacknowledged), lag}
}

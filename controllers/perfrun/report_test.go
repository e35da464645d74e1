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

package perfrun

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// logsAnswering answers every log read with log, or err.
type logsAnswering struct {
	log   []byte
	err   error
	reads int
}

func (l *logsAnswering) Tail(context.Context, string, string, string, int64, int64) ([]byte, error) {
	l.reads++
	return l.log, l.err
}

// A log read that fails for a moment (the kubelet unreachable) is tried for ReportPatience,
// not three polls: the report is the whole result. A log that holds no frame of the
// pointer's digest is given ReportRetries more polls, then the report is lost.
func TestAReportIsWaitedForWhileItsReadFailsForAMoment(t *testing.T) {
	var log bytes.Buffer
	p, err := result.WriteFrame(&log, result.Report{Summary: result.Summary{RequestedQPS: 10}}, "")
	if err != nil {
		t.Fatal(err)
	}
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r", UID: "1"}}
	testers := []corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "r-load-0"}}}
	clock := clocktesting.NewFakePassiveClock(time.Unix(1_800_000_000, 0))
	unreachable := &logsAnswering{err: apierrors.NewInternalError(errors.New("dial tcp 10.0.0.2:10250: connect: connection refused"))}
	r := &Reconciler{Logs: unreachable, Clock: clock}

	for range 20 {
		if rep, lost, wait := r.readReport(context.Background(), run, testers, p); rep != nil || lost != nil || !wait {
			t.Fatalf("a kubelet unreachable for %s: report %v, lost %v, wait %v", clock.Since(time.Unix(1_800_000_000, 0)), rep, lost, wait)
		}
		clock.SetTime(clock.Now().Add(15 * time.Second))
	}
	unreachable.log, unreachable.err = log.Bytes(), nil
	if rep, lost, wait := r.readReport(context.Background(), run, testers, p); rep == nil || rep.Summary.RequestedQPS != 10 || lost != nil || wait {
		t.Fatalf("the kubelet back: report %v, lost %v, wait %v", rep, lost, wait)
	}

	gone := run.DeepCopy()
	gone.UID = "2"
	r.Logs = &logsAnswering{err: apierrors.NewInternalError(errors.New("connection refused"))}
	for i := 0; ; i++ {
		_, lost, wait := r.readReport(context.Background(), gone, testers, p)
		if !wait {
			if lost == nil || !strings.Contains(lost.Error(), "in 11 tries: ") || clock.Since(time.Unix(1_800_000_000, 0)) < 5*time.Minute+ReportPatience {
				t.Fatalf("after %d tries: lost %v", i+1, lost)
			}
			break
		}
		clock.SetTime(clock.Now().Add(time.Minute))
	}

	noFrame := run.DeepCopy()
	noFrame.UID = "3"
	empty := &logsAnswering{log: []byte("fortio: done\n")}
	r.Logs = empty
	for i := 0; ; i++ {
		_, lost, wait := r.readReport(context.Background(), noFrame, testers, p)
		if !wait {
			if !errors.Is(lost, result.ErrNoFrame) || empty.reads != ReportRetries+1 {
				t.Fatalf("after %d reads: lost %v", empty.reads, lost)
			}
			break
		}
	}
}

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
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	toolscache "k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

// errDeleted: the object followed was deleted before it finished.
var errDeleted = errors.New("deleted before it finished")

// follow watches one object (a real watch, resumed from where it broke off, not polling)
// until finished says so, the object is deleted, or ctx ends; show sees every version.
// It returns the last version seen; empty is an object of the kind followed.
func follow[T client.Object](ctx context.Context, c client.WithWatch, key client.ObjectKey, empty T, newList func() client.ObjectList,
	finished func(T) bool, show func(T)) (T, error) {
	var last T
	name := "metadata.name=" + key.Name
	lw := &toolscache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			opts.FieldSelector = name
			list := newList()
			return list, c.List(ctx, list, &client.ListOptions{Namespace: key.Namespace, Raw: &opts})
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.FieldSelector = name
			return c.Watch(ctx, newList(), &client.ListOptions{Namespace: key.Namespace, Raw: &opts})
		},
	}
	_, err := watchtools.UntilWithSync(ctx, lw, empty, nil, func(e watch.Event) (bool, error) {
		if e.Type == watch.Deleted {
			return false, errDeleted
		}
		obj, ok := e.Object.(T)
		if !ok {
			return false, nil
		}
		last = obj
		show(obj)
		return finished(obj), nil
	})
	return last, err
}

// followToEnd follows a PerfRun or PerfSweep until it finishes and judges it; show gets
// each version's progress line.
func followToEnd(ctx context.Context, c client.WithWatch, obj client.Object, strict bool, show func(func(time.Time) string)) (client.Object, verdict.Outcome, error) {
	key := client.ObjectKeyFromObject(obj)
	if _, ok := obj.(*perfv1alpha1.PerfSweep); ok {
		sw, err := follow(ctx, c, key, &perfv1alpha1.PerfSweep{}, func() client.ObjectList { return &perfv1alpha1.PerfSweepList{} },
			sweepFinished, func(sw *perfv1alpha1.PerfSweep) { show(func(time.Time) string { return sweepProgress(sw) }) })
		if err != nil {
			return nil, verdict.Outcome{}, err
		}
		return sw, verdict.SweepOutcome(sw), nil
	}
	run, err := follow(ctx, c, key, &perfv1alpha1.PerfRun{}, func() client.ObjectList { return &perfv1alpha1.PerfRunList{} },
		(*perfv1alpha1.PerfRun).Finished, func(run *perfv1alpha1.PerfRun) { show(func(now time.Time) string { return Progress(run, now) }) })
	if err != nil {
		return nil, verdict.Outcome{}, err
	}
	return run, verdict.RunOutcome(run, strict), nil
}

// progressWriter shows a run's progress line: redrawn in place every second on a terminal
// (so elapsed and remaining time move), else printed once per change, as CI logs want.
type progressWriter struct {
	out      io.Writer
	terminal bool
	mu       sync.Mutex
	render   func(now time.Time) string // the latest object's line
	printed  string
}

func newProgressWriter(out io.Writer) *progressWriter {
	f, ok := out.(*os.File)
	return &progressWriter{out: out, terminal: ok && term.IsTerminal(int(f.Fd()))}
}

// show takes the latest version's line.
func (p *progressWriter) show(render func(now time.Time) string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.render = render
	p.draw(time.Now())
}

func (p *progressWriter) draw(now time.Time) {
	if p.render == nil {
		return
	}
	line := textfmt.TerminalCell(p.render(now)) // it quotes condition messages
	switch {
	case p.terminal:
		fprintf(p.out, "\r%s\x1b[K", line)
	case line != p.printed:
		fprintf(p.out, "%s\n", line)
	}
	p.printed = line
}

// tick redraws on a terminal until ctx ends; stop ends the line.
func (p *progressWriter) tick(ctx context.Context) (stop func()) {
	if !p.terminal {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				p.mu.Lock()
				p.draw(now)
				p.mu.Unlock()
			}
		}
	}()
	return func() {
		cancel()
		<-done
		fprintf(p.out, "\n")
	}
}

// waitError turns follow's error into the command's: still running past the timeout (6),
// deleted (2), or an API error (1).
func waitError(kind string, key client.ObjectKey, timeout time.Duration, err error) error {
	switch {
	case errors.Is(err, errDeleted):
		return verdict.Exit(verdict.ExitFailed, fmt.Sprintf("%s %s was %v", kind, key, err))
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, watchtools.ErrWatchClosed) || strings.Contains(err.Error(), "timed out waiting"):
		return verdict.Exit(verdict.ExitStillRunning, fmt.Sprintf("%s %s has not finished within %v; it goes on in the cluster", kind, key, timeout))
	}
	return err
}

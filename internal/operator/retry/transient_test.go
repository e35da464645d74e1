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

package retry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestTransientTellsABlipFromARefusal(t *testing.T) {
	cm := schema.GroupResource{Resource: "configmaps"}
	for err, want := range map[error]bool{
		apierrors.NewTimeoutError("etcd", 1):                                  true,
		apierrors.NewServerTimeout(cm, "get", 1):                              true,
		apierrors.NewTooManyRequests("slow down", 1):                          true,
		apierrors.NewServiceUnavailable("restarting"):                         true,
		apierrors.NewInternalError(errors.New("dial tcp: the kubelet")):       true,
		fmt.Errorf("reading: %w", apierrors.NewInternalError(io.EOF)):         true,
		fmt.Errorf("reading: %w", context.DeadlineExceeded):                   true,
		fmt.Errorf("dial: %w", syscall.ECONNREFUSED):                          true,
		io.ErrUnexpectedEOF:                                                   true,
		apierrors.NewNotFound(cm, "run-result-x"):                             false,
		apierrors.NewForbidden(cm, "run-result-x", errors.New("no")):          false,
		apierrors.NewBadRequest("container loadtester is not valid"):          false,
		errors.New("the result document's digest is sha256:1, not the run's"): false,
		context.Canceled: false,
		nil:              false,
	} {
		if got := Transient(err); got != want {
			t.Errorf("Transient(%v) = %v, want %v", err, got, want)
		}
	}
}

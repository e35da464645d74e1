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

package manager

import (
	"context"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// One stored object that cannot be decoded into its Go type (a field an older CRD
// admitted, such as a duration that overflows) fails the typed informer's whole list: no
// object of its kind is reconciled, and a restarted manager never syncs its cache. The
// informers of daprbench's own kinds therefore list and watch through the dynamic client
// and decode object by object, leaving out (and logging, once per version) an object that
// does not decode. Fix or delete it and it comes back.

// ownResources are daprbench's kinds, by the resource their informer lists.
var ownResources = map[string]string{"PerfRun": "perfruns", "PerfSchedule": "perfschedules", "PerfSweep": "perfsweeps"}

// LenientInformers returns the cache's NewInformer: daprbench's kinds decoded object by
// object (see above), every other kind as controller-runtime would.
func LenientInformers(cfg *rest.Config, scheme *runtime.Scheme) (func(toolscache.ListerWatcher, runtime.Object, time.Duration, toolscache.Indexers) toolscache.SharedIndexInformer, error) {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return func(lw toolscache.ListerWatcher, obj runtime.Object, resync time.Duration, indexers toolscache.Indexers) toolscache.SharedIndexInformer {
		if gvks, _, err := scheme.ObjectKinds(obj); err == nil && gvks[0].Group == perfv1alpha1.GroupVersion.Group {
			if resource, ok := ownResources[gvks[0].Kind]; ok {
				lw = &lenientListWatch{
					client: dyn.Resource(perfv1alpha1.GroupVersion.WithResource(resource)),
					scheme: scheme, gvk: gvks[0],
				}
			}
		}
		return toolscache.NewSharedIndexInformer(lw, obj, resync, indexers)
	}, nil
}

// lenientListWatch lists and watches one kind in every namespace, unstructured, and
// converts each object to its Go type, leaving out those that do not convert.
type lenientListWatch struct {
	client dynamic.NamespaceableResourceInterface
	scheme *runtime.Scheme
	gvk    schema.GroupVersionKind
}

func (l *lenientListWatch) List(opts metav1.ListOptions) (runtime.Object, error) {
	ul, err := l.client.List(context.Background(), opts)
	if err != nil {
		return nil, err
	}
	list, err := l.scheme.New(l.gvk.GroupVersion().WithKind(l.gvk.Kind + "List"))
	if err != nil {
		return nil, err
	}
	var items []runtime.Object
	for i := range ul.Items {
		if typed, ok := l.decode(&ul.Items[i]); ok {
			items = append(items, typed)
		}
	}
	if err := apimeta.SetList(list, items); err != nil {
		return nil, err
	}
	accessor, err := apimeta.ListAccessor(list)
	if err != nil {
		return nil, err
	}
	accessor.SetResourceVersion(ul.GetResourceVersion())
	accessor.SetContinue(ul.GetContinue())
	return list, nil
}

func (l *lenientListWatch) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	w, err := l.client.Watch(context.Background(), opts)
	if err != nil {
		return nil, err
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		u, isObject := e.Object.(*unstructured.Unstructured)
		if !isObject || e.Type == watch.Error {
			return e, true
		}
		typed, ok := l.decode(u)
		if ok {
			e.Object = typed
			return e, true
		}
		if e.Type == watch.Added {
			return e, false // never cached: nothing to take back
		}
		// An object that was cached and no longer decodes (changed, or deleted) leaves the
		// cache as a deletion: else its last decodable version, a Running exclusive run,
		// would hold the queue until the manager restarts.
		tombstone, err := l.scheme.New(l.gvk)
		if err != nil {
			return e, false
		}
		accessor, err := apimeta.Accessor(tombstone)
		if err != nil {
			return e, false
		}
		accessor.SetNamespace(u.GetNamespace())
		accessor.SetName(u.GetName())
		// Its owners and labels, so the sweep or schedule that owns it learns it is gone.
		accessor.SetLabels(u.GetLabels())
		accessor.SetOwnerReferences(u.GetOwnerReferences())
		accessor.SetUID(u.GetUID())
		accessor.SetResourceVersion(u.GetResourceVersion())
		return watch.Event{Type: watch.Deleted, Object: tombstone}, true
	}), nil
}

// decode converts u to its Go type; false (and a log line) when it does not convert.
func (l *lenientListWatch) decode(u *unstructured.Unstructured) (runtime.Object, bool) {
	typed, err := l.scheme.New(l.gvk)
	if err == nil {
		err = runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed)
	}
	if err != nil {
		ctrl.Log.WithName("cache").Error(err, "Left out an object that cannot be decoded: fix or delete it",
			"kind", l.gvk.Kind, "namespace", u.GetNamespace(), "name", u.GetName(), "resourceVersion", u.GetResourceVersion())
		return nil, false
	}
	return typed, true
}

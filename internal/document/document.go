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

// Package document is how a run's result document (perf.daprbench.io/result/v1) is kept
// and read: its JSON, exactly as `kubectl daprbench export` prints it, gzipped into the
// binaryData of an immutable ConfigMap the run owns, its SHA-256 in the run's status. The
// operator writes it once; every reader reads it through Read, which refuses a document
// whose digest is not the status's, so a ConfigMap edited or replaced by anyone who may
// write ConfigMaps in the namespace is never read as the run's result.
package document

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

const (
	// Key is the document's key in its ConfigMap's binaryData.
	Key = "result.json.gz"
	// MaxBytes bounds the gzipped document: a ConfigMap holds at most 1 MiB of data (the
	// API server's validation; etcd's default request limit, 1.5 MiB, is above it). The
	// rest of the ConfigMap — its key, labels and annotations — fits the 8 KiB kept aside.
	MaxBytes = 1<<20 - 8<<10
	// maxJSONBytes bounds a document once decompressed.
	maxJSONBytes = 64 << 20
)

// Encoded is a document as kept: its JSON (what export prints), gzipped, and the JSON's
// digest, "sha256:<hex>".
type Encoded struct {
	JSON, Gzip []byte
	Digest     string
}

// TooLarge is a document its store cannot hold: its size (gzipped) and the limit.
type TooLarge struct{ Bytes, Limit int }

func (e *TooLarge) Error() string {
	return fmt.Sprintf("the result document takes %d bytes gzipped, more than the %d a ConfigMap holds", e.Bytes, e.Limit)
}

// Encode is d as kept; a document over MaxBytes gzipped is a *TooLarge error (Encoded is
// still filled, so its size can be said).
func Encode(d *perfv1alpha1.ResultDocument) (Encoded, error) {
	js, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return Encoded{}, fmt.Errorf("encoding the result document: %w", err)
	}
	js = append(js, '\n')
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(js) // a bytes.Buffer does not fail
	_ = zw.Close()
	enc := Encoded{JSON: js, Gzip: gz.Bytes(), Digest: Digest(js)}
	if len(enc.Gzip) > MaxBytes {
		return enc, &TooLarge{Bytes: len(enc.Gzip), Limit: MaxBytes}
	}
	return enc, nil
}

// Digest is the SHA-256 of b as the status and the document name what they bind: a
// document's JSON (status.result.digest), a stored profile (its sidecar's digest).
func Digest(js []byte) string {
	sum := sha256.Sum256(js)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Decode reads a kept document, gzipped, and checks it against digest: the JSON it holds
// (what export prints) and the document.
func Decode(gz []byte, digest string) (*perfv1alpha1.ResultDocument, []byte, error) {
	if len(gz) > MaxBytes {
		return nil, nil, &TooLarge{Bytes: len(gz), Limit: MaxBytes}
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, nil, fmt.Errorf("the result document does not decompress: %w", err)
	}
	js, err := io.ReadAll(io.LimitReader(zr, maxJSONBytes+1))
	if err != nil || len(js) > maxJSONBytes {
		return nil, nil, fmt.Errorf("the result document does not decompress within %d bytes: %v", maxJSONBytes, err)
	}
	if got := Digest(js); got != digest {
		return nil, nil, fmt.Errorf("the result document's digest is %s, not the run's %s: it was changed after the operator wrote it", got, digest)
	}
	var d perfv1alpha1.ResultDocument
	if err := json.Unmarshal(js, &d); err != nil {
		return nil, nil, fmt.Errorf("decoding the result document: %w", err)
	}
	if d.Schema != perfv1alpha1.ResultSchema {
		return nil, nil, fmt.Errorf("a result document of schema %q, want %q", d.Schema, perfv1alpha1.ResultSchema)
	}
	return &d, js, nil
}

// ConfigMap is the ConfigMap that keeps a run's document: immutable (the API server refuses
// any change of its data), named by the API server (generateName <run>-result-), with
// labels (the run's). The writer makes the run its controller.
func ConfigMap(run *perfv1alpha1.PerfRun, enc Encoded, labels map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{GenerateName: run.Name + "-result-", Namespace: run.Namespace, Labels: labels,
			Annotations: map[string]string{perfv1alpha1.GroupVersion.Group + "/generation": strconv.FormatInt(run.Generation, 10),
				perfv1alpha1.GroupVersion.Group + "/schema": perfv1alpha1.ResultSchema}},
		Immutable:  ptr.To(true),
		BinaryData: map[string][]byte{Key: enc.Gzip},
	}
}

// ErrNone says a run has no result document (yet, or ever: the run's Failed condition says
// why).
var ErrNone = errors.New("no result document")

// Read reads run's current result document (status.result's).
func Read(ctx context.Context, c client.Reader, run *perfv1alpha1.PerfRun) (*perfv1alpha1.ResultDocument, []byte, error) {
	h := run.Status.Result
	if h == nil || h.Document == "" {
		return nil, nil, fmt.Errorf("run %s/%s: %w (phase %s)", run.Namespace, run.Name, ErrNone, orDash(string(run.Status.Phase)))
	}
	return ReadRef(ctx, c, run.Namespace, h.Document, h.Digest)
}

// ReadRef reads the document kept in ConfigMap name of namespace, checked against digest.
func ReadRef(ctx context.Context, c client.Reader, namespace, name, digest string) (*perfv1alpha1.ResultDocument, []byte, error) {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, cm); err != nil {
		return nil, nil, fmt.Errorf("reading the result document %s/%s: %w", namespace, name, err)
	}
	d, js, err := Decode(cm.BinaryData[Key], digest)
	if err != nil {
		return nil, nil, fmt.Errorf("ConfigMap %s/%s: %w", namespace, name, err)
	}
	return d, js, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Run is a run as its readers read it: the object, for its state and spec, and its result
// document (nil: none yet, or none ever).
type Run struct {
	*perfv1alpha1.PerfRun
	Doc *perfv1alpha1.ResultDocument
}

// Result is the document's figures; nil without a document.
func (r Run) Result() *perfv1alpha1.Result {
	if r.Doc == nil {
		return nil
	}
	return r.Doc.Result
}

// Histograms are the document's histograms; empty without a document.
func (r Run) Histograms() []perfv1alpha1.PathHistograms {
	if r.Doc == nil {
		return nil
	}
	return r.Doc.Histograms
}

// Load reads run's document, if its status names one; an error is a document named but not
// read (gone, or not the one the status's digest names).
func Load(ctx context.Context, c client.Reader, run *perfv1alpha1.PerfRun) (Run, error) {
	if h := run.Status.Result; h == nil || h.Document == "" {
		return Run{PerfRun: run}, nil
	}
	d, _, err := Read(ctx, c, run)
	return Run{PerfRun: run, Doc: d}, err
}

// With is run with doc, for readers that have both (a test, an exported file).
func With(run *perfv1alpha1.PerfRun, doc *perfv1alpha1.ResultDocument) Run {
	return Run{PerfRun: run, Doc: doc}
}

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

package perfapp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/daprbench/daprbench/internal/cliflags"
)

// Serve serves h on l until ctx ends, then shuts down gracefully: in-flight requests get
// up to grace to finish.
func Serve(ctx context.Context, l net.Listener, h http.Handler, grace time.Duration) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("graceful shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Main is cmd/perfapp: it parses flags (and DAPRBENCH_* variables) and serves until ctx ends.
func Main(ctx context.Context, args []string, lookupEnv func(string) (string, bool), stderr io.Writer) int {
	fs := flag.NewFlagSet("perfapp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = cliflags.UsageWithEnv(fs, "perfapp is the target app of a daprbench run: POST /test, the Dapr actor host protocol, GET /healthz.")
	var cfg Config
	addr := fs.String("listen", "", "address to listen on (overrides --port), e.g. 127.0.0.1:0")
	port := fs.Int("port", 3000, "port to listen on, all interfaces")
	grace := fs.Duration("shutdown-grace", 5*time.Second, "time in-flight requests get on SIGTERM")
	fs.IntVar(&cfg.ResponseBytes, "response-bytes", 2, "size of the invocation response body")
	fs.StringVar(&cfg.ActorType, "actor-type", "", "actor type to host (empty: none)")
	fs.DurationVar(&cfg.ActorIdleTimeout, "actor-idle-timeout", time.Hour, "actorIdleTimeout reported to daprd")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err == nil {
		err = cliflags.ApplyEnv(fs, lookupEnv)
	}
	if err != nil {
		fmt.Fprintln(stderr, "perfapp:", err)
		return 2
	}
	if *addr == "" {
		*addr = fmt.Sprintf(":%d", *port)
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "perfapp:", err)
		return 1
	}
	fmt.Fprintf(stderr, "perfapp: listening on %s (actor type %q)\n", l.Addr(), cfg.ActorType)
	if err := Serve(ctx, l, New(cfg).Handler(), *grace); err != nil {
		fmt.Fprintln(stderr, "perfapp:", err)
		return 1
	}
	return 0
}

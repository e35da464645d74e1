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

	"google.golang.org/grpc"

	"github.com/daprbench/daprbench/internal/contract/cliflags"
	"github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// Serve serves h on l until ctx ends, then shuts down gracefully: in-flight requests get
// up to grace to finish.
func Serve(ctx context.Context, l net.Listener, h http.Handler, grace time.Duration) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	return serveUntil(ctx, func() error { return srv.Serve(l) }, func() error {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
		defer cancel()
		return srv.Shutdown(sctx)
	})
}

// serveUntil runs an HTTP server's serve until ctx ends, then its graceful shutdown.
func serveUntil(ctx context.Context, serve, shutdown func() error) error {
	errc := make(chan error, 1)
	go func() { errc <- serve() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if err := shutdown(); err != nil {
		return fmt.Errorf("graceful shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// serveHTTP serves the app's HTTP port on addr until ctx ends: its own server and handler,
// or with the GoSDK host the Go SDK's service, which listens itself and stops in its own
// five seconds (grace is not the SDK's to take).
func serveHTTP(ctx context.Context, app *App, addr string, grace time.Duration, log io.Writer) error {
	if app.cfg.ActorHost == ActorHostGoSDK {
		fmt.Fprintf(log, "perfapp: HTTP on %s through Dapr's Go SDK (actor type %q)\n", addr, app.cfg.ActorType)
		s := app.sdkService(addr)
		return serveUntil(ctx, s.Start, s.GracefulStop)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "perfapp: HTTP on %s (actor type %q)\n", l.Addr(), app.cfg.ActorType)
	return Serve(ctx, l, app.Handler(), grace)
}

// ServeGRPC serves s on l until ctx ends, then stops gracefully: in-flight calls get up to
// grace to finish before the server stops hard.
func ServeGRPC(ctx context.Context, l net.Listener, s *grpc.Server, grace time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stopped := make(chan struct{})
	go func() { s.GracefulStop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(grace):
		s.Stop()
	}
	return <-errc
}

// Main is cmd/perfapp: it parses flags (and DAPRBENCH_* variables, env in os.Environ's form)
// and serves until ctx ends.
func Main(ctx context.Context, args, env []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("perfapp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = cliflags.UsageWithEnv(fs, "perfapp is the target app of a daprbench run: POST /test, the Dapr actor host protocol, GET /healthz;\nDapr's app-callback gRPC service (OnInvoke \"test\") on its own port.")
	var cfg Config
	addr := fs.String("listen", "", "address to listen on (overrides --port), e.g. 127.0.0.1:0")
	port := fs.Int("port", 3000, "HTTP port to listen on, all interfaces")
	grpcAddr := fs.String("grpc-listen", "", "address of the gRPC server (overrides --grpc-port), e.g. 127.0.0.1:0")
	grpcPort := fs.Int("grpc-port", 3001, "gRPC port to listen on, all interfaces (0: no gRPC server)")
	grace := fs.Duration("shutdown-grace", 5*time.Second, "time in-flight requests get on SIGTERM")
	fs.IntVar(&cfg.ResponseBytes, "response-bytes", 2, "size of the invocation response body")
	fs.StringVar(&cfg.ActorType, "actor-type", "", "actor type to host (empty: none)")
	fs.DurationVar(&cfg.ActorIdleTimeout, "actor-idle-timeout", time.Hour, "actorIdleTimeout reported to daprd")
	cfg.ActorHost = ActorHostMinimal
	fs.Var(&cfg.ActorHost, "actor-host", "the actor runtime: Minimal (answers daprd's actor calls by hand) or GoSDK (serves the HTTP port through Dapr's Go SDK, its actor's one method "+SDKActorMethod+"; --listen must then name a port)")
	fs.StringVar(&cfg.DaprdProfiler, "daprd-profiler", "", "this pod's daprd profiling server, e.g. http://localhost:7777: its CPU profile is served at "+ProfileCapturePath+" to the bearer of --profile-token")
	fs.StringVar(&cfg.ProfileToken, "profile-token", "", "the token "+ProfileCapturePath+" asks for (set from the run's Secret as DAPRBENCH_PROFILE_TOKEN; never on the command line)")
	fs.StringVar(&cfg.FaultToken, loadsettings.FaultToken, "", "lets the bearer of this token (the run's, set from its Secret as DAPRBENCH_FAULT_TOKEN; never on the command line) switch a fault on at "+loadsettings.FaultPath+" (spec.faults)")
	fs.DurationVar(&cfg.DaprDelay, "dapr-delay", 0, "test knob: delay every HTTP invocation that arrived through a Dapr sidecar by this much (a known answer for the added latency)")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err == nil {
		err = cliflags.ApplyEnv(fs, env)
	}
	if err != nil {
		fmt.Fprintln(stderr, "perfapp:", err)
		return 2
	}
	if *addr == "" {
		*addr = fmt.Sprintf(":%d", *port)
	}
	if *grpcAddr == "" && *grpcPort != 0 {
		*grpcAddr = fmt.Sprintf(":%d", *grpcPort)
	}
	app := New(cfg)
	if err := serveBoth(ctx, app, *addr, *grpcAddr, *grace, stderr); err != nil {
		fmt.Fprintln(stderr, "perfapp:", err)
		return 1
	}
	return 0
}

// serveBoth serves HTTP on httpAddr and, unless grpcAddr is empty, gRPC on grpcAddr, until
// ctx ends or either server fails (which stops the other).
func serveBoth(ctx context.Context, app *App, httpAddr, grpcAddr string, grace time.Duration, log io.Writer) error {
	var gl net.Listener
	if grpcAddr != "" {
		var err error
		if gl, err = net.Listen("tcp", grpcAddr); err != nil {
			return err
		}
		fmt.Fprintf(log, "perfapp: gRPC on %s\n", gl.Addr())
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	errc := make(chan error, 2)
	go func() { errc <- serveHTTP(ctx, app, httpAddr, grace, log); stop() }()
	servers := 1
	if gl != nil {
		servers++
		go func() { errc <- ServeGRPC(ctx, gl, app.GRPCServer(), grace); stop() }()
	}
	var errs []error
	for range servers {
		if err := <-errc; err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

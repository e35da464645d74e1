#!/usr/bin/env bash
# Measures the cost of recording every request's latency (fortio's per-request hook into an
# HDR histogram) against fortio alone: perfapp on CPU 0, the client on CPU 1 with one
# GOMAXPROCS, so the client's CPU per request is the figure. Takes ~1 minute.
#   hack/bench/latency-hook.sh [--duration 5s] [--pairs 6]
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p bin
CGO_ENABLED=0 go build -o bin/perfapp ./cmd/perfapp
go build -o bin/bench-latency-hook ./hack/bench/latency-hook
GOMAXPROCS=1 taskset -c 1 bin/bench-latency-hook "$@"

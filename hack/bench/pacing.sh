#!/usr/bin/env bash
# What the load tester's pacer changes (issue #44): the load tester with its pacer and with
# fortio's own sleeps (--fortio-pacing), alternated against one perfapp on loopback: the
# tester's own lateness, latency, service time and CPU per 1000 requests. ~3 minutes.
#   hack/bench/pacing.sh [--duration 20s] [--pairs 3] ...
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p bin
CGO_ENABLED=0 go build -o bin/loadtester ./cmd/loadtester
CGO_ENABLED=0 go build -o bin/perfapp ./cmd/perfapp
go run ./hack/bench/pacing "$@"

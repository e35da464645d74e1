#!/usr/bin/env bash
# Benchmarks the load tester against the fortio CLI of the same fortio version on loopback
# (issue: data plane). Builds both, then runs hack/bench/loadtester. Takes ~2.5 minutes.
#   hack/bench/loadtester.sh [--duration 30s] [--pairs 2] ...
set -euo pipefail
cd "$(dirname "$0")/../.."
FORTIO_VERSION=$(go list -m -f '{{.Version}}' fortio.org/fortio)
mkdir -p bin
CGO_ENABLED=0 go build -o bin/loadtester ./cmd/loadtester
CGO_ENABLED=0 go build -o bin/perfapp ./cmd/perfapp
[ -x "bin/fortio-$FORTIO_VERSION" ] || GOBIN="$PWD/bin/.fortio" go install "fortio.org/fortio@$FORTIO_VERSION"
[ -x "bin/fortio-$FORTIO_VERSION" ] || mv bin/.fortio/fortio "bin/fortio-$FORTIO_VERSION"
go run ./hack/bench/loadtester --fortio "bin/fortio-$FORTIO_VERSION" "$@"

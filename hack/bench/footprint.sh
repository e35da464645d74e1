#!/usr/bin/env bash
# The operator's own footprint against envtest (issue #14, item 4): the manager idle beside
# 10,000 unrelated pods and Deployments, then with 1,000 PerfRuns created at once — memory,
# CPU, the time until all are provisioned, API requests per reconcile. A few minutes.
#   hack/bench/footprint.sh [-pods 10000] [-runs 1000]
set -euo pipefail
cd "$(dirname "$0")/../.."
make --no-print-directory -s envtest-assets setup-envtest >/dev/null
KUBEBUILDER_ASSETS="$(SETUP_ENVTEST=bin/setup-envtest hack/toolchain/envtest-assets.sh)"
export KUBEBUILDER_ASSETS
CGO_ENABLED=0 go build -o bin/manager ./cmd/manager
go run ./hack/bench/footprint "$@"

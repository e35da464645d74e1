#!/usr/bin/env bash
# The manager's resident memory against envtest, idle and beside unrelated pods (issue #11,
# item 13). Builds the manager, then runs hack/bench-manager-rss. About a minute.
#   hack/bench-manager-rss.sh [-pods 2000]
set -euo pipefail
cd "$(dirname "$0")/.."
make --no-print-directory -s envtest-assets setup-envtest >/dev/null
KUBEBUILDER_ASSETS="$(SETUP_ENVTEST=bin/setup-envtest hack/envtest-assets.sh)"
export KUBEBUILDER_ASSETS
CGO_ENABLED=0 go build -o bin/manager ./cmd/manager
go run ./hack/bench-manager-rss "$@"

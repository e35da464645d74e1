#!/usr/bin/env bash
# Prints the directory of Dapr's CRDs (charts/dapr/crds) in the github.com/dapr/dapr Go
# module at the given version, downloading the module into the Go module cache if needed.
set -euo pipefail
version=${1:-v1.14.0}
dir=$(go mod download -json "github.com/dapr/dapr@$version" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
[ -d "$dir/charts/dapr/crds" ] || { echo "no charts/dapr/crds in github.com/dapr/dapr@$version" >&2; exit 1; }
echo "$dir/charts/dapr/crds"

# Sourced by the bench scripts, from the repository's root: a run's figures come from its
# result document (the plugin's export), its state from the PerfRun. status.result holds only
# the headline.
#
#   run_jsonpath NS RUN JSONPATH
#     a jsonpath over RUN: .status.result.X is read as the document's .result.X (one
#     expression reads one or the other, not both); anything else from the PerfRun.

daprbench_plugin=${KUBECTL_DAPRBENCH:-bin/kubectl-daprbench}

# The plugin is built from this checkout once a script: export decodes the document into the
# binary's own types, so an older binary would drop the fields it does not know.
build_daprbench_plugin() {
  [ -n "${daprbench_plugin_built:-}" ] && return
  [ -n "${KUBECTL_DAPRBENCH:-}" ] || CGO_ENABLED=0 go build -o "$daprbench_plugin" ./cmd/kubectl-daprbench
  daprbench_plugin_built=1
}

run_jsonpath() {
  local ns=$1 run=$2 path=$3
  case "$path" in
    *.status.result.*)
      build_daprbench_plugin
      "$daprbench_plugin" -n "$ns" export "$run" -o jsonpath="${path//.status.result./.result.}" 2>/dev/null || true ;;
    *) "${KUBECTL:-kubectl}" -n "$ns" get perfrun "$run" -o jsonpath="$path" ;;
  esac
}

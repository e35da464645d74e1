# Sourced by the bench scripts: a run's figures come from its result document (the plugin's
# export), its state from the PerfRun. status.result holds only the headline.
#
#   run_jsonpath NS RUN JSONPATH
#     a jsonpath over RUN: .status.result.X is read as the document's .result.X (one
#     expression reads one or the other, not both); anything else from the PerfRun.

daprbench_plugin=${DAPRBENCH_PLUGIN:-bin/kubectl-daprbench}

run_jsonpath() {
  local ns=$1 run=$2 path=$3
  case "$path" in
    *.status.result.*)
      [ -x "$daprbench_plugin" ] || CGO_ENABLED=0 go build -o "$daprbench_plugin" ./cmd/kubectl-daprbench
      "$daprbench_plugin" -n "$ns" export "$run" -o jsonpath="${path//.status.result./.result.}" 2>/dev/null || true ;;
    *) kubectl -n "$ns" get perfrun "$run" -o jsonpath="$path" ;;
  esac
}

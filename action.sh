#!/usr/bin/env bash
# The GitHub Action's step (action.yml), usable from any CI: builds kubectl-daprbench from
# this checkout, starts the run in FILE, follows it, writes a JUnit file, a Markdown summary
# and the run's report, and exits with the plugin's code (0 passed, 1 could not run,
# 2 failed, 3 gate missed or inconclusive, 4 regressed, 5 strict, 6 timed out).
#
#   FILE=run.yaml [KUBECONFIG_DATA=…] [NAMESPACE=…] [OUT=daprbench-out] [STRICT=true] \
#     [TIMEOUT=30m] [SUMMARY=$GITHUB_STEP_SUMMARY] action.sh
set -euo pipefail

: "${FILE:?FILE names the PerfRun or PerfSweep to run}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-daprbench-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [[ -n "${KUBECONFIG_DATA:-}" ]]; then
	# A kubeconfig given as a secret's text: written where only this job reads it.
	KUBECONFIG=$(mktemp)
	export KUBECONFIG
	printf '%s\n' "$KUBECONFIG_DATA" >"$KUBECONFIG"
	trap 'rm -f "$KUBECONFIG"' EXIT
fi

# Built from the checkout the script is in (incremental: seconds once Go's cache is warm).
plugin="$here/bin/kubectl-daprbench"
(cd "$here" && CGO_ENABLED=0 go build -o "$plugin" ./cmd/kubectl-daprbench)

args=(run -f "$FILE" --wait --junit "$out/junit.xml" --summary "${SUMMARY:-$out/summary.md}")
[[ -n "${NAMESPACE:-}" ]] && args+=(-n "$NAMESPACE")
[[ -n "${TIMEOUT:-}" ]] && args+=(--timeout "$TIMEOUT")
[[ "${STRICT:-false}" == true ]] && args+=(--strict)

set +e
"$plugin" "${args[@]}" 2>&1 | tee "$out/run.log"
code=${PIPESTATUS[0]}
set -e

# The run's report (tables, charts, report.html) beside the JUnit file, whatever the verdict.
created=$(sed -nE 's#^(perfrun|perfsweep)/([^ ]+) created$#\1/\2#p' "$out/run.log" | head -1)
if [[ -n "$created" && $code -ne 1 ]]; then
	ns_args=()
	[[ -n "${NAMESPACE:-}" ]] && ns_args=(-n "$NAMESPACE")
	"$plugin" report "$created" "${ns_args[@]}" --dir "$out/report" >"$out/report.txt" 2>&1 ||
		echo "daprbench: no report of $created (see $out/report.txt)" >&2
fi
echo "daprbench: exit $code; JUnit, summary and report in $out"
exit "$code"

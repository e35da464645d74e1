#!/usr/bin/env bash
# The GitHub Action's step (action.yml), usable from any CI: gets kubectl-daprbench (the
# release's archive, or built from this checkout), starts the run in FILE, follows it, writes
# a JUnit file, a Markdown summary and the run's report, and exits with the plugin's code
# (0 passed, 1 could not run, 2 failed, 3 gate missed or inconclusive, 4 regressed, 5 strict,
# 6 timed out).
#
#   FILE=run.yaml [KUBECONFIG_DATA=…] [NAMESPACE=…] [OUT=daprbench-out] [STRICT=true] \
#     [TIMEOUT=30m] [SUMMARY=$GITHUB_STEP_SUMMARY] [PLUGIN_FROM=release|source] \
#     [PLUGIN_VERSION=v0.1.0] [PLUGIN_REPOSITORY=daprbench/daprbench] \
#     [PLUGIN_DOWNLOAD_URL=file://$PWD/dist] action.sh   # (a mirror of the release's assets)
#   action.sh --plugin-from    # prints where the plugin would come from (action.yml's first step)
#
# The plugin: PLUGIN_FROM=release downloads kubectl-daprbench_<os>_<arch>.tar.gz of
# PLUGIN_VERSION from PLUGIN_REPOSITORY's GitHub release and checks its sha256 against the
# release's checksums.txt; PLUGIN_FROM=source builds it from this checkout with Go. Empty:
# release when the Action runs at a version tag (ACTION_REF, or the ref in the Action's path
# …/_actions/<owner>/<repo>/<ref>), else source — so a branch, a fork or this script run
# from a clone builds what it has.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
version_tag='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'

# action_ref is the ref the Action runs at: ACTION_REF, else the runner's checkout path of it.
action_ref() {
	if [[ -n "${ACTION_REF:-}" ]]; then
		echo "$ACTION_REF"
	elif [[ "$here" == */_actions/*/*/* ]]; then
		basename "$here"
	fi
}

# plugin_from is release or source (see the header).
plugin_from() {
	case "${PLUGIN_FROM:-}" in
	release | source) echo "$PLUGIN_FROM" ;;
	"") if [[ -n "${PLUGIN_VERSION:-}" || "$(action_ref)" =~ $version_tag ]]; then echo release; else echo source; fi ;;
	*)
		echo "daprbench: PLUGIN_FROM=$PLUGIN_FROM: want release or source" >&2
		return 1
		;;
	esac
}

# release_plugin downloads the release's archive for this OS and architecture into $1,
# verifies it against checksums.txt, unpacks it and prints the binary's path.
release_plugin() {
	local dir=$1 ver=${PLUGIN_VERSION:-$(action_ref)} repo=${PLUGIN_REPOSITORY:-} os arch exe=""
	[[ "$ver" =~ $version_tag ]] || { echo "daprbench: no release version to download (PLUGIN_VERSION or the Action's tag; got '$ver')" >&2; return 1; }
	if [[ -z "$repo" && "$here" == */_actions/*/*/* ]]; then
		repo=$(basename "$(dirname "$(dirname "$here")")")/$(basename "$(dirname "$here")")
	fi
	repo=${repo:-daprbench/daprbench}
	case "$(uname -s)" in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	MINGW* | MSYS* | CYGWIN*) os=windows exe=.exe ;;
	*) echo "daprbench: no release archive for $(uname -s)" >&2; return 1 ;;
	esac
	case "$(uname -m)" in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) echo "daprbench: no release archive for $(uname -m)" >&2; return 1 ;;
	esac
	local archive=kubectl-daprbench_${os}_${arch}.tar.gz base=${PLUGIN_DOWNLOAD_URL:-https://github.com/$repo/releases/download/$ver}
	mkdir -p "$dir"
	curl -fsSL --retry 3 -o "$dir/$archive" "$base/$archive"
	curl -fsSL --retry 3 -o "$dir/checksums.txt" "$base/checksums.txt"
	local want got
	want=$(awk -v f="$archive" '$2 == f {print $1}' "$dir/checksums.txt")
	if command -v sha256sum >/dev/null; then got=$(sha256sum "$dir/$archive" | cut -d' ' -f1); else got=$(shasum -a 256 "$dir/$archive" | cut -d' ' -f1); fi
	if [[ -z "$want" || "$want" != "$got" ]]; then
		echo "daprbench: $archive of $repo $ver has sha256 $got, checksums.txt says '${want}'" >&2
		return 1
	fi
	tar -xzf "$dir/$archive" -C "$dir"
	echo "daprbench: kubectl-daprbench $ver ($os/$arch) from $base, sha256 verified" >&2
	echo "$dir/kubectl-daprbench$exe"
}

if [[ "${1:-}" == --plugin-from ]]; then
	plugin_from
	exit
fi

: "${FILE:?FILE names the PerfRun or PerfSweep to run}"
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

from=$(plugin_from)
if [[ $from == release ]]; then
	plugin=$(release_plugin "${RUNNER_TEMP:-$out}/daprbench-plugin")
else
	# Built from the checkout the script is in (incremental: seconds once Go's cache is warm).
	plugin="$here/bin/kubectl-daprbench"
	(cd "$here" && CGO_ENABLED=0 go build -o "$plugin" ./cmd/kubectl-daprbench)
fi

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

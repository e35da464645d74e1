#!/usr/bin/env bash
# The GitHub Action's step (action.yml), usable from any CI: gets kubectl-daprbench (the
# release's archive, or built from this checkout), starts the run in FILE, follows it, writes
# a JUnit file, a Markdown summary and the run's report, and exits with the plugin's code
# (0 passed, 1 could not run, 2 failed, 3 gate missed or inconclusive, 4 regressed, 5 strict,
# 6 timed out, 7 cancelled: internal/cli/verdict's ExitCodes, which the Action's test checks this
# against).
#
#   FILE=run.yaml [KUBECONFIG_DATA=…] [NAMESPACE=…] [OUT=daprbench-out] [STRICT=true] \
#     [TIMEOUT=30m] [SUMMARY=$GITHUB_STEP_SUMMARY] [PLUGIN_FROM=release|source] \
#     [PLUGIN_VERSION=v0.1.0] [PLUGIN_REPOSITORY=daprbench/daprbench] [ARTIFACT_NAME=…] \
#     [PLUGIN_VERIFY=attestation|checksum] [PLUGIN_ALLOW_LATEST=true] \
#     [PLUGIN_DOWNLOAD_URL=file://$PWD/dist] action.sh   # (a mirror of the release's assets)
#   action.sh --plugin-from    # prints where the plugin would come from (action.yml's first step)
#   action.sh --plugin [DIR]   # gets the plugin as a run would and prints its path
#
# Outputs, appended to $GITHUB_OUTPUT when it is set (and summed up on stderr): exit-code;
# verdict (passed, could-not-run, failed, thresholds, regressed, not-clean, timeout,
# cancelled: the exit code's word); run-name (the run's or sweep's generated name, from `run -o name`:
# empty when none finished, e.g. on a timeout); report-path (the directory of junit.xml,
# run.log, report/report.html and the charts: OUT, else a new daprbench-XXXXXX under
# RUNNER_TEMP, else daprbench-out); artifact-name (ARTIFACT_NAME, else daprbench-<run name>).
#
# The plugin: PLUGIN_FROM=release downloads kubectl-daprbench_<os>_<arch>.tar.gz of
# PLUGIN_VERSION from PLUGIN_REPOSITORY's GitHub release, checks its sha256 against the
# release's checksums.txt and — since checksums.txt comes from the same, mutable release —
# verifies the archive's build provenance with `gh attestation verify`: signed by
# PLUGIN_REPOSITORY's own release workflow for that very tag (--source-ref; PLUGIN_VERIFY=attestation, the default for
# GitHub's downloads; PLUGIN_VERIFY=checksum, the default for a PLUGIN_DOWNLOAD_URL mirror,
# trusts checksums.txt alone). `latest`, a version that moves, is refused unless
# PLUGIN_ALLOW_LATEST=true. PLUGIN_FROM=source builds it from this checkout with Go. Empty:
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

# plugin_from is release or source (see the header). Falling back to source because the
# Action's ref names no release (a branch, a commit SHA pin, a clone) is said on stderr: the
# plugin is then built with Go, not the release's verified archive.
plugin_from() {
	local ref
	case "${PLUGIN_FROM:-}" in
	release | source) echo "$PLUGIN_FROM" ;;
	"")
		ref=$(action_ref)
		if [[ -n "${PLUGIN_VERSION:-}" || "$ref" =~ $version_tag ]]; then
			echo release
		else
			if [[ "$ref" =~ ^[0-9a-f]{40}$ ]]; then
				ref="commit $ref (a SHA pin names no release)"
			fi
			echo "daprbench: the Action runs at ${ref:-a checkout with no ref}, not a release tag (vX.Y.Z): building the plugin from source with Go." \
				"To download a release's verified plugin instead, set plugin-version to the release you pin (uses: …@<commit> # v0.2.0 with plugin-version: v0.2.0)." >&2
			echo source
		fi
		;;
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
	[[ "$ver" =~ ^[0-9] ]] && ver=v$ver # 0.1.0 names the tag v0.1.0
	[[ "$ver" =~ $version_tag || "$ver" == latest ]] ||
		{ echo "daprbench: no release version to download (PLUGIN_VERSION, vX.Y.Z or latest, or the Action's tag; got '$ver')" >&2; return 1; }
	[[ "$ver" != latest || "${PLUGIN_ALLOW_LATEST:-}" == true ]] ||
		{ echo "daprbench: plugin-version latest moves with every release: pin a version (vX.Y.Z), or set allow-latest (PLUGIN_ALLOW_LATEST=true)" >&2; return 1; }
	local verify=${PLUGIN_VERIFY:-}
	[[ -n "$verify" ]] || if [[ -n "${PLUGIN_DOWNLOAD_URL:-}" ]]; then verify=checksum; else verify=attestation; fi
	[[ "$verify" == attestation || "$verify" == checksum ]] ||
		{ echo "daprbench: PLUGIN_VERIFY=$verify: want attestation or checksum" >&2; return 1; }
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
	# GitHub serves the newest release's assets under releases/latest/download/.
	[[ $ver != latest || -n "${PLUGIN_DOWNLOAD_URL:-}" ]] || base=https://github.com/$repo/releases/latest/download
	# Called in $(…), where bash drops set -e: each step stops the function itself.
	mkdir -p "$dir" || return 1
	curl -fsSL --retry 3 -o "$dir/$archive" "$base/$archive" || return 1
	curl -fsSL --retry 3 -o "$dir/checksums.txt" "$base/checksums.txt" || return 1
	local want got
	want=$(awk -v f="$archive" '$2 == f {print $1}' "$dir/checksums.txt")
	if command -v sha256sum >/dev/null; then got=$(sha256sum "$dir/$archive" | cut -d' ' -f1); else got=$(shasum -a 256 "$dir/$archive" | cut -d' ' -f1); fi
	if [[ -z "$want" || "$want" != "$got" ]]; then
		echo "daprbench: $archive of $repo $ver has sha256 $got, checksums.txt says '${want}'" >&2
		return 1
	fi
	if [[ "$verify" == attestation ]]; then
		command -v gh >/dev/null ||
			{ echo "daprbench: verifying $archive's provenance needs the GitHub CLI (gh, on GitHub's runners); plugin-verify checksum trusts checksums.txt alone" >&2; return 1; }
		# Bound to the tag asked for: another tag's archive (an older one, signed all the same)
		# beside a swapped checksums.txt must not pass. `latest` names no tag to bind.
		local bind=()
		if [[ "$ver" =~ $version_tag ]]; then
			bind=(--source-ref "refs/tags/$ver")
		else
			echo "daprbench: $ver names no tag: the provenance is checked against $repo's release workflow, not bound to a version" >&2
		fi
		gh attestation verify "$dir/$archive" --repo "$repo" --signer-workflow "$repo/.github/workflows/release.yml" "${bind[@]}" >&2 ||
			{ echo "daprbench: $archive of $repo $ver carries no build provenance signed by $repo's release workflow for tag $ver: not run" >&2; return 1; }
	fi
	tar -xzf "$dir/$archive" -C "$dir" || return 1
	[[ -x "$dir/kubectl-daprbench$exe" ]] || { echo "daprbench: $archive holds no kubectl-daprbench$exe" >&2; return 1; }
	echo "daprbench: kubectl-daprbench $ver ($os/$arch) from $base, sha256 verified$([[ $verify == checksum ]] || echo ", provenance verified")" >&2
	echo "$dir/kubectl-daprbench$exe"
}

# verdict names an exit code (the Action's output verdict).
verdict() {
	case $1 in
	0) echo passed ;;
	2) echo failed ;;
	3) echo thresholds ;;
	4) echo regressed ;;
	5) echo not-clean ;;
	6) echo timeout ;;
	7) echo cancelled ;;
	*) echo could-not-run ;;
	esac
}

# get_plugin prints the path of kubectl-daprbench, downloaded (release) or built (source).
get_plugin() {
	local from
	from=$(plugin_from)
	if [[ $from == release ]]; then
		release_plugin "$1"
	else
		[[ -z "${PLUGIN_VERSION:-}" ]] || echo "daprbench: plugin-from source: plugin-version $PLUGIN_VERSION is not used" >&2
		echo "daprbench: building kubectl-daprbench from source ($here)" >&2
		# Built from the checkout the script is in (incremental: seconds once Go's cache is warm).
		(cd "$here" && CGO_ENABLED=0 go build -o "$here/bin/kubectl-daprbench" ./cmd/kubectl-daprbench) >&2 || return 1
		echo "$here/bin/kubectl-daprbench"
	fi
}

case "${1:-}" in
--plugin-from)
	plugin_from
	exit
	;;
--plugin) # prints the plugin's path, getting it as a run would (into $2 for a release)
	get_plugin "${2:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/daprbench-plugin}"
	exit
	;;
esac

# From here on the script always ends through finish: it writes the outputs (to
# $GITHUB_OUTPUT when set) and exits with the plugin's code, or 1 (could not run) when
# anything before the plugin's verdict failed — a download, a build, a missing FILE.
code="" name="" out="" artifact="" kubeconfig_tmp=""
finish() {
	local status=$?
	if [[ -z "$code" ]]; then
		code=1
		echo "daprbench: stopped (status $status) before the plugin could run: exit 1" >&2
	fi
	[[ -z "$kubeconfig_tmp" ]] || rm -f "$kubeconfig_tmp"
	if [[ -z "$artifact" ]]; then
		artifact=${ARTIFACT_NAME:-}
		if [[ -z "$artifact" && -n "$name" ]]; then artifact=daprbench-$name; fi
		if [[ -z "$artifact" && -n "$out" ]]; then artifact=$(basename "$out"); fi
		artifact=${artifact:-daprbench}
	fi
	if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
		{
			echo "exit-code=$code"
			echo "verdict=$(verdict "$code")"
			echo "run-name=$name"
			echo "report-path=$out"
			echo "artifact-name=$artifact"
		} >>"$GITHUB_OUTPUT"
	fi
	echo "daprbench: exit $code ($(verdict "$code")); run ${name:-(none)}; JUnit, summary and report in ${out:-(none)}" >&2
	exit "$code"
}
trap finish EXIT

: "${FILE:?FILE names the PerfRun or PerfSweep to run}"
# Each use gets its own directory (two runs in one job must not mix their files): OUT, else
# a new one under the runner's temp directory, else daprbench-out.
if [[ -n "${OUT:-}" ]]; then
	out=$OUT
elif [[ -n "${RUNNER_TEMP:-}" ]]; then
	out=$(mktemp -d "$RUNNER_TEMP/daprbench-XXXXXX")
else
	out=daprbench-out
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [[ -n "${KUBECONFIG_DATA:-}" ]]; then
	# A kubeconfig given as a secret's text: written where only this job reads it.
	kubeconfig_tmp=$(mktemp)
	export KUBECONFIG=$kubeconfig_tmp
	printf '%s\n' "$KUBECONFIG_DATA" >"$KUBECONFIG"
fi

plugin=$(get_plugin "${RUNNER_TEMP:-$out}/daprbench-plugin")

# -o name: the object's name alone on stdout (perfrun.perf.daprbench.io/NAME);
# progress, the verdict and errors go to stderr, shown live and kept in run.log.
args=(run -f "$FILE" --wait -o name --junit "$out/junit.xml" --summary "${SUMMARY:-$out/summary.md}")
[[ -n "${NAMESPACE:-}" ]] && args+=(-n "$NAMESPACE")
[[ -n "${TIMEOUT:-}" ]] && args+=(--timeout "$TIMEOUT")
[[ "${STRICT:-false}" == true ]] && args+=(--strict)

set +e
{ "$plugin" "${args[@]}" 2>&1 >&3 | tee "$out/run.log" >&2; } 3>"$out/name.txt"
code=${PIPESTATUS[0]}
set -e

object=$(head -n 1 "$out/name.txt")
if [[ "$object" =~ ^(perfrun|perfsweep)\.perf\.daprbench\.io/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$ ]]; then
	kind=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]}
	# The run's report (tables, charts, report.html) beside the JUnit file, whatever the verdict.
	ns_args=()
	[[ -n "${NAMESPACE:-}" ]] && ns_args=(-n "$NAMESPACE")
	"$plugin" report "$kind/$name" "${ns_args[@]}" --dir "$out/report" >"$out/report.txt" 2>&1 ||
		echo "daprbench: no report of $kind/$name (see $out/report.txt)" >&2
elif [[ -n "$object" ]]; then
	echo "daprbench: the plugin printed '$object', not perfrun|perfsweep.perf.daprbench.io/NAME" >&2
elif [[ $code -ne 1 ]]; then
	# run --wait prints the object however the wait ends (finished, timed out, cancelled);
	# none means nothing was created.
	echo "daprbench: the plugin named no object (exit $code): see $out/run.log" >&2
fi
exit "$code"

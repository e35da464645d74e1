#!/usr/bin/env bash
# Prepares a helper Go module that builds commands of a module whose go.mod has replace
# lines (Prometheus, Argo CD): only a main module may carry them, so `go install M@V` fails.
# The helper requires the module at VERSION, copies its replace lines and imports the
# commands, so that `go build PKG` works from it. Prepared once (.ready), reused after.
#
#   hack/toolchain/helper-module.sh MODULE VERSION DIR PKG...
#   e.g. hack/toolchain/helper-module.sh github.com/prometheus/prometheus v0.305.0 ~/.cache/daprbench/prometheus-helper-v0.305.0 \
#          github.com/prometheus/prometheus/cmd/prometheus
set -euo pipefail

module=${1:?usage: helper-module.sh MODULE VERSION DIR PKG...}
version=${2:?usage: helper-module.sh MODULE VERSION DIR PKG...}
helper=${3:?usage: helper-module.sh MODULE VERSION DIR PKG...}
shift 3
[ $# -gt 0 ] || { echo "helper-module.sh: name at least one package to build" >&2; exit 2; }
[ -f "$helper/.ready" ] && exit 0

echo ">> preparing helper module for $module $version in $helper" >&2
mkdir -p "$helper"
cd "$helper"
rm -f go.mod go.sum tools.go
go mod init "daprbench.local/$(basename "$helper")" >/dev/null 2>&1
gomod=$(go mod download -json "$module@$version" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
[ -n "$gomod" ] || { echo "helper-module.sh: $module@$version is not served" >&2; exit 1; }
edits=(-require "$module@$version")
# "replace old [oldv] => new newv", single lines and blocks alike.
while read -r line; do
  old=${line%%=>*} new=${line#*=>}
  read -r -a o <<<"$old"; read -r -a n <<<"$new"
  # A directory inside the module's repository is not in its module zip: the helper can only
  # use the version the module requires, which the proxy must then serve.
  if [ ${#n[@]} -lt 2 ]; then echo ">> not copied (a directory of its repository): replace $line" >&2; continue; fi
  from=${o[0]}; [ ${#o[@]} -gt 1 ] && from="${o[0]}@${o[1]}"
  edits+=(-replace "$from=${n[0]}@${n[1]}")
done < <(awk '/^replace \($/ {b=1; next} b && /^\)/ {b=0; next} b && /=>/ {print; next}
              /^replace [^(]/ && /=>/ {sub(/^replace /, ""); print}' "$gomod")
go mod edit "${edits[@]}"
{
  printf '//go:build tools\n\npackage tools\n\nimport (\n'
  for pkg in "$@"; do printf '\t_ "%s"\n' "$pkg"; done
  printf ')\n'
} >tools.go
go mod tidy
touch .ready

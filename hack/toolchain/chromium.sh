#!/usr/bin/env bash
# Prints the path of a headless-capable Chromium, installing Debian's package first when
# none is on PATH (make test-report-browser renders the HTML report in it).
#
# Chromium comes from Debian's archive, never a browser download of its own: apt-get as
# root (or through sudo). Everything but the path goes to stderr.
set -euo pipefail

find_chromium() { command -v chromium || command -v chromium-browser || true; }

path=$(find_chromium)
if [ -z "$path" ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "chromium is not installed and installing it needs root (apt-get install chromium)" >&2; exit 1; }
    sudo="sudo -n"
  fi
  echo ">> chromium missing; installing Debian's package (cold: ~10 s with a near mirror)" >&2
  export DEBIAN_FRONTEND=noninteractive
  # The package lists may be stale or absent on a fresh machine: refresh them once.
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq --no-install-recommends chromium >&2
  path=$(find_chromium)
fi
[ -n "$path" ] || { echo "chromium is still not on PATH after installing it" >&2; exit 1; }
echo "$path"

#!/usr/bin/env bash
# make bench-compare: installs the pinned JavaScript engines (package-lock.json)
# into a temporary folder, then times them and zaria's core in one run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$here/engines.mjs" "$tmp/"
(cd "$tmp" && npm ci --no-audit --no-fund --loglevel=error >&2)
cd "$root"
CGO_ENABLED=1 go run -tags goolm ./bench/compare --node-script "$tmp/engines.mjs" "$@"

#!/usr/bin/env bash
# Installs the pinned telegram-test-api (package-lock.json) for the
# Telegram adapter's smoke tests. Called by .ci/run and the Makefile.
set -euo pipefail
cd "$(dirname "$0")"
command -v node >/dev/null || { echo "setup.sh: node is missing (Debian package nodejs, Node >= 18)" >&2; exit 1; }
command -v npm >/dev/null || { echo "setup.sh: npm is missing" >&2; exit 1; }
npm ci --no-audit --no-fund --loglevel=error

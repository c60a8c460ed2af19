#!/usr/bin/env bash
# Installs the page's real hosts for the browser tests (package-lock.json):
# Telegram's telegram-web-app.js as @twa-dev/sdk 8.0.2 ships it
# (src/telegram-web-apps.js, Telegram's file unmodified) and matrix-org's
# matrix-widget-api 1.19.0 (dist/api.js, a UMD build: no bundler needed).
# npm's cache is kept in ~/.cache/zaria/npm, so a second install works
# offline. Called by .ci/run and make test-setup.
set -euo pipefail
cd "$(dirname "$0")"
command -v npm >/dev/null || { echo "setup.sh: npm is missing (Debian package npm)" >&2; exit 1; }
cache="${XDG_CACHE_HOME:-$HOME/.cache}/zaria/npm"
if [ -f node_modules/@twa-dev/sdk/src/telegram-web-apps.js ] && [ -f node_modules/matrix-widget-api/dist/api.js ] &&
	[ node_modules/.package-lock.json -nt package-lock.json ]; then
	exit 0
fi
npm ci --cache "$cache" --prefer-offline --no-audit --no-fund --loglevel=error

#!/bin/sh
# Installs Synapse 1.67.0 (the Matrix homeserver most self-hosted rooms run,
# used by the adapter's integration tests beside Dendrite) into a cache
# folder, from the source release in ../shared/vendor on Debian's own Python
# packages: nothing is downloaded but Debian packages. Idempotent: skips if
# installed. Runs apt-get (as root, or with sudo) only for packages missing.
#
#   ZARIA_SYNAPSE_DIR      target folder (default: $HOME/.cache/zaria/synapse-1.67.0)
#   ZARIA_SYNAPSE_TARBALL  the source release (default: ../shared/vendor/matrix-synapse-1.67.0-src.tar.gz
#                          beside the repository)
#
# Prints the folder on stdout when done.
set -eu
VERSION=1.67.0
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DIR="${ZARIA_SYNAPSE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zaria/synapse-$VERSION}"
NAME="matrix-synapse-$VERSION-src.tar.gz"
TARBALL="${ZARIA_SYNAPSE_TARBALL:-}"
if [ -z "$TARBALL" ]; then
	# Beside the clone; for a git worktree, also beside the main clone.
	TARBALL="$ROOT/../shared/vendor/$NAME"
	common=$(git -C "$ROOT" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	if [ ! -f "$TARBALL" ] && [ -n "$common" ] && [ -f "$(dirname "$common")/../shared/vendor/$NAME" ]; then
		TARBALL="$(dirname "$common")/../shared/vendor/$NAME"
	fi
fi
PY="$DIR/venv/bin/python"

if [ -x "$PY" ] && "$PY" -c 'import synapse, sys; sys.exit(synapse.__version__ != "'"$VERSION"'")' 2>/dev/null; then
	echo "$DIR"
	exit 0
fi
if [ ! -f "$TARBALL" ]; then
	echo "install-synapse: the Synapse $VERSION source release is not at $TARBALL (set ZARIA_SYNAPSE_TARBALL)" >&2
	exit 1
fi

PKGS="python3-venv python3-pip python3-poetry-core python3-jsonschema python3-frozendict python3-unpaddedbase64
python3-canonicaljson python3-signedjson python3-service-identity python3-twisted python3-treq python3-openssl
python3-yaml python3-pyasn1 python3-pyasn1-modules python3-bcrypt python3-pil python3-sortedcontainers
python3-pymacaroons python3-msgpack python3-phonenumbers python3-prometheus-client python3-attr python3-netaddr
python3-jinja2 python3-bleach python3-typing-extensions python3-cryptography python3-ijson python3-matrix-common
python3-packaging python3-pydantic python3-idna"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "install-synapse: installing Debian packages:$missing" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq >&2
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends $missing >&2
fi

# Build beside the target and move into place only when complete, so a
# half-made install is never used.
mkdir -p "$(dirname "$DIR")"
TMP=$(mktemp -d "$DIR.tmp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 -m venv --system-site-packages "$TMP/venv" >&2
mkdir -p "$TMP/src"
tar -xzf "$TARBALL" -C "$TMP/src"
SRC="$TMP/src"
[ -f "$SRC/pyproject.toml" ] || SRC="$TMP/src/matrix-synapse-$VERSION"
"$TMP/venv/bin/pip" install -q --no-deps --no-build-isolation --no-index "$SRC" >&2
rm -rf "$TMP/src"
# The venv's python is a link to /usr/bin/python3 and the tests run
# "python -m synapse.app.homeserver": the folder may move.
rm -rf "$DIR"
mv "$TMP" "$DIR"
"$PY" -c 'import synapse; print("install-synapse: Synapse", synapse.__version__)' >&2
echo "$DIR"

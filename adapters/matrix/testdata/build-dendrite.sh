#!/bin/sh
# Builds Dendrite v0.13.8 (the Matrix homeserver used by the adapter's integration tests)
# into a cache folder, outside this project's module graph. Idempotent: skips if built.
#
#   ZARIA_DENDRITE_DIR  target folder (default: $HOME/.cache/zaria/dendrite-v0.13.8)
#
# Prints the folder on stdout when done.
set -eu
VERSION=v0.13.8
DIR="${ZARIA_DENDRITE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zaria/dendrite-$VERSION}"
mkdir -p "$DIR"
if [ -x "$DIR/dendrite" ]; then
	echo "$DIR"
	exit 0
fi
# Build in an empty scratch dir so the project's go.mod, vendor mode or go.work play no part.
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
cd "$SCRATCH"
GOFLAGS=$(printf '%s' "${GOFLAGS:-}" | sed 's/-mod=vendor//g')
export GOFLAGS
GOBIN="$SCRATCH/bin" GOWORK=off CGO_ENABLED=1 go install \
	"github.com/matrix-org/dendrite/cmd/dendrite@$VERSION" >&2
# Move into place only when complete, so a half-built cache is never used.
mv "$SCRATCH/bin/dendrite" "$DIR/dendrite.tmp"
mv "$DIR/dendrite.tmp" "$DIR/dendrite"
echo "$DIR"

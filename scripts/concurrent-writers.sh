#!/usr/bin/env bash
# Issue 9's two processes on one image: pairs of release `baton image write` processes started
# together on one image file (a new file, then every other pair a file an earlier launch wrote).
# Each pair must see both writes exit 0, every value both wrote in the file, each row stamped
# by the last launch that wrote it, and the newer write read back whole in the next launch.
#
#   scripts/concurrent-writers.sh [PAIRS (200)]
set -euo pipefail
cd "$(dirname "$0")/.."

pairs=${1:-200}
nice -n 10 swift build -c release --product baton >/dev/null
baton=$(swift build -c release --show-bin-path)/baton
work=$(mktemp -d "${TMPDIR:-/tmp}/baton-race.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$baton" image race --pairs "$pairs" --directory "$work"

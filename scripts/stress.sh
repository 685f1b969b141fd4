#!/usr/bin/env bash
# Issue 9's real-process stress: a release `baton stress` starts children of itself that commit a
# seeded workload (the Rick and Morty world's responses) into one image with the production
# background writer, kills each with SIGKILL at a seeded moment, and checks the file after every
# kill against the states the reference model allows. The image lives on across the kills, so it
# grows and ages (rows unread for a launch age out).
#
#   scripts/stress.sh [KILLS (1000)] [SEED (1)]
#
# Exit 0 when every kill left an allowed state; 1 on a violation (the line names the seed and the
# kill, and the work folder with the image is kept and printed).
set -uo pipefail
cd "$(dirname "$0")/.."

kills=${1:-1000}
seed=${2:-1}

nice -n 10 swift build -c release --product baton >/dev/null || exit 1
baton=$(swift build -c release --show-bin-path)/baton
work=$(mktemp -d "${TMPDIR:-/tmp}/baton-stress.XXXXXX")
"$baton" stress --kills "$kills" --seed "$seed" --dir "$work"
status=$?
if [ "$status" -eq 0 ]; then rm -rf "$work"; else echo "kept $work" >&2; fi
exit "$status"

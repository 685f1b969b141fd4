#!/usr/bin/env bash
# Regenerates docs/timeline.png: the timeline page of a shipped scenario under its mutant (the
# 2026-10-06 race with the merge rule taken out), rendered by a real headless browser. A debug
# build, since mutants exist in debug builds only.
#
#   scripts/timeline-screenshot.sh [SCENARIO (header-before-screen-writer-first.json)] [MUTANT (partialSnapshotReplaces)]
set -euo pipefail
cd "$(dirname "$0")/.."

scenario=${1:-header-before-screen-writer-first.json}
mutant=${2:-partialSnapshotReplaces}
browser=$(command -v chromium-headless-shell || command -v chromium || true)
if [ -z "$browser" ]; then
  echo "no headless browser: apt-get install -y chromium-headless-shell" >&2
  exit 1
fi

nice -n 10 swift build --product baton >/dev/null
baton=$(swift build --show-bin-path)/baton
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The replay fails (exit 1) under the mutant: that failure is what the page shows.
"$baton" sim replay "Fixtures/scenarios/$scenario" --mutant "$mutant" --html "$work/timeline.html" >/dev/null || true
test -s "$work/timeline.html"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
  --window-size=1400,1000 --screenshot="$work/timeline.png" "file://$work/timeline.html" 2>/dev/null
cp "$work/timeline.png" docs/timeline.png
echo "docs/timeline.png from Fixtures/scenarios/$scenario under $mutant"

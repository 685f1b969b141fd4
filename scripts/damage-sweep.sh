#!/usr/bin/env bash
# The damage sweep of issue 9: seeded damage to real-shaped images (flipped bits, zeroed and
# swapped pages, truncations, swapped ranges, garbage, header bytes, and names and fetch rows
# aimed at), each followed by a read, a dump and a relaunch with a write, all checked against
# the undamaged image. Runs a release `baton image sweep` in shards, one process each, so a
# crash names its shard and the rest still report; a damage that hangs for a minute ends its
# shard with exit 4.
#
#   scripts/damage-sweep.sh [DAMAGES (10000)] [SEED (1)] [SHARDS (2)]
#
# Exit 0 when every shard found 0 wrong answers and none crashed or hung.
set -uo pipefail
cd "$(dirname "$0")/.."

damages=${1:-10000}
seed=${2:-1}
shards=${3:-2}

nice -n 10 swift build -c release --product baton >/dev/null || exit 1
baton=$(swift build -c release --show-bin-path)/baton
work=$(mktemp -d "${TMPDIR:-/tmp}/baton-damage-sweep.XXXXXX")
# A memory file system when there is one: the sweep writes and syncs many small files.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then work=$(mktemp -d /dev/shm/baton-damage-sweep.XXXXXX); fi
trap 'rm -rf "$work"' EXIT

per=$(( (damages + shards - 1) / shards ))
pids=()
for ((shard = 0; shard < shards; shard++)); do
  first=$(( shard * per ))
  count=$(( damages - first < per ? damages - first : per ))
  (( count > 0 )) || break
  mkdir -p "$work/$shard"
  nice -n 10 "$baton" image sweep --damages "$count" --first "$first" --seed "$seed" --directory "$work/$shard" \
    >"$work/$shard.out" 2>"$work/$shard.err" &
  pids+=($!)
done

status=0
for shard in "${!pids[@]}"; do
  wait "${pids[$shard]}"
  code=$?
  echo "== shard $shard (exit $code)"
  cat "$work/$shard.out"
  if (( code != 0 )); then
    status=1
    tail -3 "$work/$shard.err"
    (( code > 128 )) && echo "shard $shard crashed (signal $(( code - 128 )))"
  fi
done
exit $status

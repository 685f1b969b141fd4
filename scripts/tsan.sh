#!/usr/bin/env bash
# Issue 9's ThreadSanitizer run: the suites that use the production background writer
# (BackgroundWriterExecutor), erases racing it, OpeningImage, two processes on one image, ingests of one plan at
# once (the shapes a plan keeps between ingests), and the kill stress's
# quick slice (whose child `baton` is built with TSan too, so its store, writer queue and
# pipe-reporting threads run under the sanitizer), built with `--sanitize=thread` into a build
# folder of their own (.build-tsan) so the ordinary debug build is left alone.
#
# Then the TSan build of `baton stress` runs KILLS more kills (default 200) directly, so every
# child runs the production writer under the sanitizer.
#
#   scripts/tsan.sh [KILLS (200)]
#
# Exit 0 when every test passed, every kill left an allowed state, and ThreadSanitizer reported
# nothing (halt_on_error=1: a report ends the test process with status 66; in a stress child it
# ends the child before its kill, which the parent reports with the sanitizer's SUMMARY line).
set -euo pipefail
cd "$(dirname "$0")/.."

suites='ImageExecutorTests|StoreEraseTests|OpeningImageTests|StorePersistenceTests|ImageConcurrencyTests|ImageProcessTests|ForeignDatabaseTests|StressTests|IngestShapeReuseTests'
# Suppressions for Synchronization.Mutex's lock, which TSan cannot see (the file says why).
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan-suppressions.txt${TSAN_OPTIONS:+ $TSAN_OPTIONS}"
kills=${1:-200}
nice -n 10 swift test --sanitize=thread --scratch-path .build-tsan --filter "$suites"
work=$(mktemp -d "${TMPDIR:-/tmp}/baton-tsan-stress.XXXXXX")
.build-tsan/debug/baton stress --kills "$kills" --seed 2 --dir "$work"
rm -rf "$work"

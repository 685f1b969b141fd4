#!/usr/bin/env bash
# Issue 9's ThreadSanitizer run: the suites that use the production background writer
# (BackgroundWriterExecutor), OpeningImage, two processes on one image, and the kill stress's
# quick slice (whose child `baton` is built with TSan too, so its store, writer queue and
# pipe-reporting threads run under the sanitizer), built with `--sanitize=thread` into a build
# folder of their own (.build-tsan) so the ordinary debug build is left alone.
#
#   scripts/tsan.sh [EXTRA swift test ARGUMENTS…]
#
# Exit 0 when every test passed and ThreadSanitizer reported nothing (a report fails the test
# process: TSAN_OPTIONS halt_on_error=1, exitcode=66).
set -euo pipefail
cd "$(dirname "$0")/.."

suites='ImageExecutorTests|OpeningImageTests|StorePersistenceTests|ImageConcurrencyTests|ImageProcessTests|ForeignDatabaseTests|StressTests'
# One suppression, for Synchronization.Mutex's lock that TSan cannot see (the file says why).
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan-suppressions.txt${TSAN_OPTIONS:+ $TSAN_OPTIONS}"
nice -n 10 swift test --sanitize=thread --scratch-path .build-tsan --filter "$suites" "$@"

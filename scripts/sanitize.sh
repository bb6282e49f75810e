#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer, in a build
# of its own (build-sanitize/, RelWithDebInfo): scripts/sanitize.sh [CTEST ARGS...]
# Leak checking is off: Qt, fontconfig and Mesa keep caches until exit by design.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build-sanitize"
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DATTNBOOK_SANITIZE=address,undefined "${launcher[@]}" >/dev/null
cmake --build "$build" -j "${ATTNBOOK_JOBS:-2}"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$build" --output-on-failure --parallel "${ATTNBOOK_JOBS:-2}" "$@"

#!/usr/bin/env bash
# Sets up (scripts/setup.sh), runs the whole test suite headless, then the static checks
# (scripts/lint.sh: clang-format and qmllint).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$here/build" --output-on-failure --parallel "${ATTNBOOK_JOBS:-2}"
"$here/scripts/lint.sh" "$here/build"

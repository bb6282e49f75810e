#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the whole test suite headless.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$here/build" --output-on-failure --parallel "${ATTNBOOK_JOBS:-2}"

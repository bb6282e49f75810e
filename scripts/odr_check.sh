#!/usr/bin/env bash
# The One Definition Rule over the whole program (CMakeLists.txt, ATTNBOOK_ODR_CHECK): builds
# attnbook in build-odr/ as LTO bytecode at -O0 and links it with -Werror=odr, which fails
# when one type has two different definitions anywhere in the program. Run by .ci/run after
# the tests; scripts/setup.sh must have installed the packages. Usage: scripts/odr_check.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
  # Paths under the checkout are hashed relative to it: another clone hits the same cache.
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$here}"
fi
# No optimisation and no debug information: the link compares types, it needs no fast code.
cmake -S "$here" -B "$here/build-odr" -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_CXX_FLAGS="-g0" -DATTNBOOK_ODR_CHECK=ON "${launcher[@]}" >/dev/null
start=$SECONDS
echo "odr: building attnbook with the ODR check in build-odr/"
cmake --build "$here/build-odr" --parallel "${ATTNBOOK_JOBS:-2}" --target attnbook
echo "odr: no type has two definitions (attnbook linked with -Werror=odr in $((SECONDS - start)) s)"

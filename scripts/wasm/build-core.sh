#!/bin/bash
# Compiles core/{math,document,present,live} of $SRC with em++ one file at a time (-j1, niced)
# into $OBJ, then archives the four libraries the native CMake makes. A file that fails is
# listed in $OBJ/failed.txt with its log beside it; the script carries on with the rest.
# Usage: build-core.sh [SRC]   (default: this repository; CLEAN=1 recompiles everything)
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ROOT=${ROOT:-$REPO/build-wasm}
SRC=${1:-$REPO}
OBJ=${OBJ:-$ROOT/obj}
PREFIX=$ROOT/prefix
export NODE_PATH=/usr/share/nodejs
[ "${CLEAN:-0}" = 1 ] && rm -rf "$OBJ"
mkdir -p "$OBJ"
# What core/CMakeLists.txt and the top-level CMakeLists.txt give every core file, plus
# -DNDEBUG as the native Release build (asserts off), and
# Armadillo header-only (no wrapper library, no BLAS/LAPACK/ARPACK/SuperLU, no OpenMP).
# -fexceptions: the core catches (InvalidConfig, YAML::Exception, mu::ParserError); emscripten's
# default (-fignore-exceptions) compiles every catch away and aborts on the first throw.
FLAGS=(-std=c++20 -O2 -DNDEBUG -fexceptions -Wall -Wextra
       -DQT_NO_KEYWORDS -DARMA_NO_DEBUG '-DATTNBOOK_VERSION="0.1.0"'
       -DARMA_DONT_USE_WRAPPER -DARMA_DONT_USE_BLAS -DARMA_DONT_USE_LAPACK
       -DARMA_DONT_USE_ARPACK -DARMA_DONT_USE_SUPERLU -DARMA_DONT_USE_OPENMP
       -DARMA_DONT_USE_HDF5 -DCMARK_STATIC_DEFINE
       -I"$SRC" -isystem "$PREFIX/include")
: >"$OBJ/failed.txt"
: >"$OBJ/times.txt"
start_all=$(date +%s)
# PCH=1: Armadillo and the standard headers precompiled once, as the native build does
# (cmake/precompiled_headers.cmake, ATTNBOOK_PCH_core), and included in every file.
if [ "${PCH:-0}" = 1 ]; then
    printf '#include <%s>\n' armadillo algorithm functional map memory optional set string variant vector >"$OBJ/pch.h"
    t0=$(date +%s.%N)
    nice -n 15 em++ "${FLAGS[@]}" -x c++-header "$OBJ/pch.h" -o "$OBJ/pch.h.pch"
    printf '%-40s %6.1f %s\n' pch "$(echo "$(date +%s.%N) - $t0" | bc)" ok | tee -a "$OBJ/times.txt"
    FLAGS+=(-include-pch "$OBJ/pch.h.pch")
fi
for lib in math document present live; do
    objs=()
    for cpp in "$SRC"/core/$lib/*.cpp; do
        name=$lib/$(basename "$cpp" .cpp)
        o=$OBJ/$name.o; mkdir -p "$OBJ/$lib"
        objs+=("$o")
        if [ -f "$o" ] && [ "$o" -nt "$cpp" ]; then continue; fi
        t0=$(date +%s.%N)
        if nice -n 15 em++ "${FLAGS[@]}" -c "$cpp" -o "$o" >"$OBJ/$name.log" 2>&1; then
            status=ok
        else
            status=FAILED; rm -f "$o"; echo "$name" >>"$OBJ/failed.txt"
        fi
        t1=$(date +%s.%N)
        printf '%-40s %6.1f %s\n' "$name" "$(echo "$t1 - $t0" | bc)" "$status" | tee -a "$OBJ/times.txt"
    done
    rm -f "$OBJ/libattnbook_$lib.a"
    existing=(); for o in "${objs[@]}"; do [ -f "$o" ] && existing+=("$o"); done
    emar rcs "$OBJ/libattnbook_$lib.a" "${existing[@]}"
done
echo "total compile wall time: $(( $(date +%s) - start_all )) s" | tee -a "$OBJ/times.txt"
echo "failed: $(wc -l <"$OBJ/failed.txt")"; cat "$OBJ/failed.txt"

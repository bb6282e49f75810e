#!/bin/bash
# Compiles driver.cpp and links it with the core's four libraries and the deps into one
# self-contained attnbook_core.js (the wasm inlined as base64), a factory for node and browsers:
#   const core = await require('./attnbook_core.js')();   core.compute(md, path, files)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ROOT=${ROOT:-$REPO/build-wasm}
SRC=${1:-$REPO}
OBJ=${OBJ:-$ROOT/obj}
PREFIX=$ROOT/prefix
OUT=${OUT:-$ROOT/attnbook_core.js}
export NODE_PATH=/usr/share/nodejs
t0=$(date +%s.%N)
nice -n 15 em++ -std=c++20 -O2 -DNDEBUG -fexceptions -Wall -Wextra \
    -DQT_NO_KEYWORDS -DARMA_NO_DEBUG -DARMA_DONT_USE_WRAPPER -DARMA_DONT_USE_BLAS \
    -DARMA_DONT_USE_LAPACK -DARMA_DONT_USE_ARPACK -DARMA_DONT_USE_SUPERLU -DARMA_DONT_USE_OPENMP \
    -DARMA_DONT_USE_HDF5 -I"$SRC" -isystem "$PREFIX/include" -c "$HERE/driver.cpp" -o "$OBJ/driver.o"
t1=$(date +%s.%N)
# Libraries in dependency order: live → present → document → math, then the third parties.
nice -n 15 em++ -O2 -fexceptions --bind "$OBJ/driver.o" \
    "$OBJ/libattnbook_live.a" "$OBJ/libattnbook_present.a" "$OBJ/libattnbook_document.a" \
    "$OBJ/libattnbook_math.a" \
    "$PREFIX/lib/libyaml-cpp.a" "$PREFIX/lib/libcmark.a" "$PREFIX/lib/libmuparser.a" \
    "$PREFIX/lib/libcsv.a" "$PREFIX/lib/libdouble-conversion.a" \
    -sSINGLE_FILE=1 -sMODULARIZE=1 -sEXPORT_NAME=createAttnbookCore \
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sDISABLE_EXCEPTION_CATCHING=0 \
    -o "$OUT"
t2=$(date +%s.%N)
printf 'driver compile %.1f s, link %.1f s\n' "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
size=$(stat -c %s "$OUT"); gz=$(gzip -9 -c "$OUT" | wc -c)
echo "$OUT: $size bytes, gzip -9 $gz bytes"

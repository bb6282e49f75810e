#!/bin/bash
# Builds the core's third-party libraries for wasm32-emscripten into $PREFIX (static, -O2).
# Debian bookworm: apt-get install emscripten dpkg-dev; deb-src enabled; `apt-get source
# yaml-cpp cmark muparser libcsv3 double-conversion` in $DEPS. Header-only: Armadillo and nlohmann-json are
# copied from the native -dev packages (libarmadillo-dev, nlohmann-json3-dev).
# Every compile is niced and serial (-j1): it shares 2 cores with other builds.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ROOT=${ROOT:-$REPO/build-wasm}
DEPS=$ROOT/deps
PREFIX=$ROOT/prefix
# Debian's emscripten runs /usr/bin/node, which (NodeSource's, here) does not look in
# /usr/share/nodejs for acorn: without this the link step fails "Cannot find module 'acorn'".
export NODE_PATH=/usr/share/nodejs
JOBS=1
NICE="nice -n 15"
mkdir -p "$PREFIX/include" "$PREFIX/lib" "$ROOT/times"
# -fexceptions: yaml-cpp and muParser throw to the core, which catches; without it emscripten
# compiles their code with -fignore-exceptions (no destructors run while a throw passes).
CMAKE_COMMON=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$PREFIX"
              -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG"
              -DCMAKE_CXX_FLAGS="-fexceptions"
              -DBUILD_SHARED_LIBS=OFF)

timed() { # name command...
    local name=$1; shift
    local start=$(date +%s.%N)
    "$@"
    local end=$(date +%s.%N)
    printf '%s %.1f\n' "$name" "$(echo "$end - $start" | bc)" | tee -a "$ROOT/times/deps.txt"
}

build_yaml() {
    local b=$DEPS/build-yaml-cpp; rm -rf "$b"
    $NICE emcmake cmake -S "$DEPS"/yaml-cpp-0.7.0+dfsg -B "$b" "${CMAKE_COMMON[@]}" \
        -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF -DYAML_CPP_BUILD_CONTRIB=ON \
        -DYAML_BUILD_SHARED_LIBS=OFF >"$b.log" 2>&1
    $NICE cmake --build "$b" -j$JOBS >>"$b.log" 2>&1
    cmake --install "$b" >>"$b.log" 2>&1
}

build_cmark() {
    local b=$DEPS/build-cmark; rm -rf "$b"
    $NICE emcmake cmake -S "$DEPS"/cmark-0.30.2 -B "$b" "${CMAKE_COMMON[@]}" \
        -DCMARK_TESTS=OFF -DCMARK_SHARED=OFF -DCMARK_STATIC=ON >"$b.log" 2>&1
    $NICE cmake --build "$b" -j$JOBS --target cmark_static >>"$b.log" 2>&1
    # install copies the cmark executable too: build what install wants, then install
    $NICE cmake --build "$b" -j$JOBS >>"$b.log" 2>&1
    cmake --install "$b" >>"$b.log" 2>&1
}

build_muparser() {
    local b=$DEPS/build-muparser; rm -rf "$b"
    $NICE emcmake cmake -S "$DEPS"/muparser-2.3.3 -B "$b" "${CMAKE_COMMON[@]}" \
        -DENABLE_OPENMP=OFF -DENABLE_SAMPLES=OFF -DENABLE_WIDE_CHAR=OFF >"$b.log" 2>&1
    $NICE cmake --build "$b" -j$JOBS --target muparser >>"$b.log" 2>&1
    cmake --install "$b" >>"$b.log" 2>&1
}

build_double_conversion() { # Google's double-conversion (what decimal_text.cpp uses)
    local b=$DEPS/build-double-conversion; rm -rf "$b"
    $NICE emcmake cmake -S "$DEPS"/double-conversion-3.2.1 -B "$b" "${CMAKE_COMMON[@]}" \
        -DBUILD_TESTING=OFF >"$b.log" 2>&1
    $NICE cmake --build "$b" -j$JOBS >>"$b.log" 2>&1
    cmake --install "$b" >>"$b.log" 2>&1
}

build_libcsv() { # one C file; its autotools build adds nothing the wasm build needs
    local s=$DEPS/libcsv-3.0.3+dfsg b=$DEPS/build-libcsv; rm -rf "$b"; mkdir -p "$b"
    $NICE emcc -O2 -DNDEBUG -c "$s/libcsv.c" -I"$s" -o "$b/libcsv.o"
    emar rcs "$PREFIX/lib/libcsv.a" "$b/libcsv.o"
    cp "$s/csv.h" "$PREFIX/include/"
}

headers() { # header-only: Armadillo (as Debian ships it) and nlohmann-json
    rm -rf "$PREFIX/include/armadillo" "$PREFIX/include/armadillo_bits" "$PREFIX/include/nlohmann"
    cp -r /usr/include/armadillo /usr/include/armadillo_bits /usr/include/nlohmann "$PREFIX/include/"
}

if [ $# -gt 0 ]; then for step in "$@"; do timed "$step" "build_$step"; done; exit 0; fi
: >"$ROOT/times/deps.txt"
timed headers headers
timed libcsv build_libcsv
timed cmark build_cmark
timed muparser build_muparser
timed yaml-cpp build_yaml
timed double-conversion build_double_conversion
ls -la "$PREFIX/lib" "$PREFIX/lib/pkgconfig" 2>/dev/null || true

#!/usr/bin/env bash
# Installs (only when missing) every Debian 12 package that attnbook needs to
# build, test and run, then configures a Release tree in build/ and builds TARGET...
# Usage: scripts/setup.sh [TARGET...]   (default: all; as root, or a user with sudo)
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache clang-format
  # numbers: Armadillo on OpenBLAS (not the slow reference BLAS)
  libarmadillo-dev libopenblas-dev libopenblas0-pthread
  # SLEEF: the vectorised exp of the softmax (core/math/vector_kernels.cpp)
  libsleef-dev
  # document model
  libyaml-cpp-dev libmuparser-dev libcmark-dev
  # {file: PATH} cell values: .csv/.tsv fields and the .safetensors JSON header
  libcsv-dev nlohmann-json3-dev
  # doubles as text and back, locale-free (core/document/decimal_text.h)
  libdouble-conversion-dev
  # tests of core/ and its documents: doctest (header-only), so they link no Qt
  doctest-dev
  # tests: NumPy writes the data-file fixtures and recomputes documents/real-head.md
  python3-numpy
  # tests: exported notebooks validated (nbformat) and executed (nbclient on ipykernel)
  python3-nbformat python3-nbclient python3-ipykernel
  # tests: the web page export is read back by a strict HTML5 parser
  python3-html5lib
  # the PDF outline (bookmarks) and document information
  libqpdf-dev
  # Qt 6: libraries, QML modules the window loads, offscreen platform
  qt6-base-dev qt6-declarative-dev qt6-declarative-dev-tools qt6-charts-dev
  qt6-pdf-dev qt6-svg-dev libgl-dev qt6-qpa-plugins
  qml6-module-qtqml qml6-module-qtqml-models qml6-module-qtqml-workerscript
  qml6-module-qtquick qml6-module-qtquick-controls qml6-module-qtquick-templates
  qml6-module-qtquick-layouts qml6-module-qtquick-window
  qml6-module-qtquick-dialogs qml6-module-qtquick-shapes
  qml6-module-qt-labs-settings qml6-module-qtcore
  # the Qt Quick file dialogs (Open, Export) where the platform has no native one
  qml6-module-qt-labs-folderlistmodel
  qml6-module-qtcharts qml6-module-qtquick-pdf qml6-module-qttest
  # bundles
  libquazip1-qt6-dev
  # fonts for the window and the PDFs; tools to look at PDFs and the window
  fonts-dejavu-core poppler-utils mupdf-tools
  # the install test: the desktop entry and AppStream validators, CPack's dpkg-shlibdeps
  desktop-file-utils appstream dpkg-dev
  # benchmark
  libbenchmark-dev
)

# The live web page's module (docs/web-page.md): Debian's emscripten compiles the core to
# WebAssembly, and Chromium runs the page in its test. ATTNBOOK_WEB=0 builds without them: the
# web page is then static.
web="${ATTNBOOK_WEB:-1}"
if [ "$web" = 1 ]; then
  packages+=(emscripten chromium)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ATTNBOOK_SETUP_ONLY_PACKAGES=1: the packages only, no build (scripts/fuzz.sh builds its own).
[ -z "${ATTNBOOK_SETUP_ONLY_PACKAGES:-}" ] || exit 0

here="$(cd "$(dirname "$0")/.." && pwd)"
build_type="${ATTNBOOK_BUILD_TYPE:-Release}"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Precompiled headers (core/, exports/, app/) are cacheable only with these.
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
  # Paths under the checkout are hashed relative to it: another clone hits the same cache.
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$here}"
fi
# The module's five libraries come from Debian's source packages (web/CMakeLists.txt).
if [ "$web" = 1 ] && ! "$here/scripts/web-sources.sh" "$here/build/web-sources"; then
  echo "setup: WARNING: the Debian sources the web page's module needs could not be fetched;" \
       "building without it (exported web pages stay static)" >&2
  web=0
fi
web_option=OFF
[ "$web" = 0 ] || web_option=ON
cmake -S "$here" -B "$here/build" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" "${launcher[@]}" \
  -DATTNBOOK_WEB="$web_option" -DATTNBOOK_WEB_SOURCES="$here/build/web-sources" >/dev/null
# Only what is asked for: the window (scripts/run.sh, scripts/package.sh) or everything with the
# tests (scripts/test.sh). Ninja prints each step as it goes: "[12/180] Building ... file.cpp.o".
targets=("$@")
((${#targets[@]})) || targets=(all)
echo "setup: building ${targets[*]} in build/ (a first build takes minutes on 2 cores; see README)"
start=$SECONDS
cmake --build "$here/build" --parallel "${ATTNBOOK_JOBS:-2}" --target "${targets[@]}"
echo "setup: built ${targets[*]} in $((SECONDS - start)) s"

#!/usr/bin/env bash
# Builds the Debian package of attnbook from this checkout, in one command:
#   scripts/package.sh            -> dist/attnbook_VERSION_ARCH.deb
# It installs what is missing and builds a Release tree first (scripts/setup.sh), then lets
# CPack make the .deb from the `cmake --install` rules (packaging/CMakeLists.txt).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh" attnbook
mkdir -p "$here/dist"
(cd "$here/build" && cpack -G DEB -B "$here/dist" >/dev/null)
rm -rf "$here/dist/_CPack_Packages"
deb="$(ls -t "$here"/dist/attnbook_*.deb | head -n 1)"
echo "package: $deb"
dpkg-deb --field "$deb" Package Version Architecture Depends

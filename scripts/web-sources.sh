#!/usr/bin/env bash
# Fetches the Debian 12 source packages of the live page module's libraries (web/CMakeLists.txt)
# into FOLDER, once: yaml-cpp, cmark, muparser, libcsv3, double-conversion. Enables Debian's
# deb-src entries when they are missing (as root, or a user with sudo).
# Usage: scripts/web-sources.sh FOLDER
set -euo pipefail
folder=${1:?usage: scripts/web-sources.sh FOLDER}
mkdir -p "$folder"
cd "$folder"
wanted=(yaml-cpp-0.7.0+dfsg cmark-0.30.2 muparser-2.3.3 libcsv-3.0.3+dfsg double-conversion-3.2.1)
missing=0
for dir in "${wanted[@]}"; do [ -d "$dir" ] || missing=1; done
[ "$missing" = 1 ] || exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
  # deb822 form: a one-line .list entry conflicts with debian.sources' Signed-By.
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
    $sudo tee /etc/apt/sources.list.d/attnbook-src.sources >/dev/null
  $sudo apt-get update -qq
fi
apt-get source -qq yaml-cpp cmark muparser libcsv3 double-conversion >/dev/null

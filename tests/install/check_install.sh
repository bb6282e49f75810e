#!/usr/bin/env bash
# CTest: what `cmake --install` lays out and what the .deb holds. The cheap half of the install
# test; scripts/test-deb-chroot.sh installs the .deb into a clean Debian 12 root.
#   check_install.sh BUILD_DIR
set -euo pipefail
build="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

prefix="$work/usr"
cmake --install "$build" --prefix "$prefix" >/dev/null
id=org.attnbook.attnbook
for f in bin/attnbook share/applications/$id.desktop share/icons/hicolor/scalable/apps/$id.svg \
         share/metainfo/$id.metainfo.xml share/attnbook/lessons/attention.md \
         share/attnbook/lessons/transformers.md share/attnbook/lessons/template.md; do
  [ -f "$prefix/$f" ] || fail "cmake --install put no $f"
done
[ -x "$prefix/bin/attnbook" ] || fail "bin/attnbook is not executable"
! readelf -d "$prefix/bin/attnbook" | grep -qE 'RPATH|RUNPATH' || fail "the installed binary has an RPATH"
version="$("$prefix/bin/attnbook" --version)"
[[ "$version" =~ ^attnbook\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version printed '$version'"
desktop-file-validate "$prefix/share/applications/$id.desktop" || fail "desktop-file-validate"
grep -q "^Exec=attnbook" "$prefix/share/applications/$id.desktop" || fail "Exec is not attnbook on PATH"
grep -q "^Icon=$id$" "$prefix/share/applications/$id.desktop" || fail "Icon is not the installed icon"
appstreamcli validate --no-net "$prefix/share/metainfo/$id.metainfo.xml" || fail "appstreamcli validate"
grep -q "<release version=\"${version#attnbook }\"" "$prefix/share/metainfo/$id.metainfo.xml" ||
  fail "the metainfo's release is not the binary's version"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" \
  "$prefix/share/metainfo/$id.metainfo.xml" || fail "metainfo launches another desktop id"
head -c 200 "$prefix/share/icons/hicolor/scalable/apps/$id.svg" | grep -q "<svg\|<?xml" || fail "icon is not SVG"

# The package: CPack from the same rules; its contents and what it depends on.
(cd "$build" && cpack -G DEB -B "$work/dist" >/dev/null)
deb="$(ls "$work"/dist/attnbook_*.deb)"
contents="$(dpkg-deb -c "$deb" | awk '{print $6}')"
for f in ./usr/bin/attnbook ./usr/share/applications/$id.desktop \
         ./usr/share/icons/hicolor/scalable/apps/$id.svg ./usr/share/metainfo/$id.metainfo.xml \
         ./usr/share/attnbook/lessons/attention.md; do
  grep -qx "$f" <<<"$contents" || fail "the .deb holds no $f"
done
depends="$(dpkg-deb -f "$deb" Depends)"
# Every QML module the window imports, and every library the binary links (from shlibdeps).
for p in qml6-module-qtquick qml6-module-qtquick-controls qml6-module-qtquick-layouts \
         qml6-module-qtquick-dialogs qml6-module-qtcharts qml6-module-qtquick-pdf \
         fonts-dejavu-core libqt6core6 libqt6quick6 libarmadillo11 libyaml-cpp0.7 libcmark0.30.2 \
         libmuparser2v5 libquazip1-qt6-1; do
  grep -qE "(^|, )$p( |,|$)" <<<"$depends" || fail "the .deb does not depend on $p ($depends)"
done
[ "$(dpkg-deb -f "$deb" Version)" = "${version#attnbook }" ] || fail "package version"
echo "install layout, validators and package contents: OK"

#!/usr/bin/env bash
# Installs the .deb into a fresh Debian 12 root and checks it there, as a user's machine would:
# apt resolves every dependency the package names, `attnbook --version` runs from PATH, the
# installed lesson exports to PDF, a shot of it renders (the QML modules the window imports are
# all there), and the window opens its bundled lesson and stays open.
#   scripts/test-deb-chroot.sh [DEB]     (root; DEB defaults to the newest dist/attnbook_*.deb)
# The base root is made once with debootstrap (from the mirror apt already uses, or
# $DEBIAN_MIRROR) and kept in $ATTNBOOK_ROOTS (default /var/tmp/attnbook-roots); every run
# installs into a fresh copy of it. Takes a few minutes: not part of CTest.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
deb="${1:-$(ls -t "$here"/dist/attnbook_*.deb 2>/dev/null | head -n 1)}"
[ -f "$deb" ] || { echo "test-deb-chroot: no .deb (run scripts/package.sh first)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "test-deb-chroot: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap

roots="${ATTNBOOK_ROOTS:-/var/tmp/attnbook-roots}"
base="$roots/bookworm-base"
mirror="${DEBIAN_MIRROR:-$(grep -hoE '^URIs: *http[^ ]+/debian$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1 | awk '{print $2}')}"
mirror="${mirror:-http://deb.debian.org/debian}"
if [ ! -x "$base/bin/sh" ]; then
  echo "test-deb-chroot: making a Debian 12 root in $base from $mirror"
  rm -rf "$base.partial"
  mkdir -p "$roots"
  debootstrap --variant=minbase bookworm "$base.partial" "$mirror" >"$roots/debootstrap.log" 2>&1 ||
    { echo "test-deb-chroot: debootstrap failed (see $roots/debootstrap.log)" >&2; exit 1; }
  mv "$base.partial" "$base"
fi

root="$(mktemp -d "$roots/run.XXXXXX")"
cleanup() {
  for m in "$root/proc" "$root/dev"; do mountpoint -q "$m" && umount -l "$m"; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
cp -a "$base/." "$root/"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cp "$deb" "$root/tmp/attnbook.deb"

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root "$@"; }
echo "test-deb-chroot: installing $(basename "$deb") with apt in a fresh root"
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  /tmp/attnbook.deb >"$root/tmp/apt.log" 2>&1 || { tail -n 30 "$root/tmp/apt.log" >&2; exit 1; }

fail() { echo "test-deb-chroot: FAIL: $*" >&2; exit 1; }
version="$(in_root attnbook --version)" || fail "attnbook --version"
[ "$(in_root sh -c 'command -v attnbook')" = /usr/bin/attnbook ] || fail "attnbook is not on PATH"
echo "test-deb-chroot: attnbook --version -> $version"
in_root attnbook export /usr/share/attnbook/lessons/attention.md --pdf /tmp/lesson.pdf >/dev/null ||
  fail "export of the installed lesson"
[ -s "$root/tmp/lesson.pdf" ] || fail "no PDF"
in_root env QT_QPA_PLATFORM=offscreen attnbook shot /usr/share/attnbook/lessons/attention.md \
  --out /tmp/shot.png >"$root/tmp/shot.log" 2>&1 || { cat "$root/tmp/shot.log" >&2; fail "shot"; }
[ -s "$root/tmp/shot.png" ] || fail "no shot"
# The window on its bundled lesson: it must still be running after 10 s, with no QML error.
set +e
in_root env QT_QPA_PLATFORM=offscreen timeout 10 attnbook >"$root/tmp/window.log" 2>&1
rc=$?
set -e
if [ "$rc" -ne 124 ] || grep -qiE 'is not installed|module .* not found|qrc:.*error|cannot load' "$root/tmp/window.log"; then
  cat "$root/tmp/window.log" >&2
  fail "the window did not stay open on its default lesson (exit $rc)"
fi
echo "test-deb-chroot: OK: installed, on PATH, exports, shoots and opens in a clean Debian 12 root"

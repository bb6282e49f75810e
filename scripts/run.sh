#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and opens attnbook on FILE, or on the bundled
# default lesson. Without a display it falls back to the offscreen platform.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh" attnbook
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "run: no display found; rendering the window offscreen to attnbook-window.png instead"
  exec "$here/build/app/attnbook" shot "${1:-$here/documents/attention.md}" --out attnbook-window.png
fi
exec "$here/build/app/attnbook" "$@"

#!/usr/bin/env bash
# The window's resident memory over a reader's session:
#
#     scripts/window_memory.sh [LESSON]        (default documents/attention.md)
#
# Starts the real window on LESSON under Xvfb and prints VmRSS, RssAnon and RssFile from
# /proc/PID/status at three moments: opened, after scrolling to the end of the lesson (600 wheel
# steps), and after File → New lesson replaced it (driven through the menu with xdotool). Needs
# xvfb, xdotool and a build (build/app/attnbook). A benchmark, not a test: the figures depend on
# the machine and on the renderer (Help → About says which draws the window; set
# QT_QUICK_BACKEND or QSG_RHI_BACKEND to choose one).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
lesson="${1:-$here/documents/attention.md}"
display=":$((90 + RANDOM % 100))"

Xvfb "$display" -screen 0 1400x1000x24 >/dev/null 2>&1 &
xvfb=$!
scratch="$(mktemp -d)"
cleanup() {
    kill "${app:-}" 2>/dev/null || true
    kill "$xvfb" 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT
sleep 1
export DISPLAY="$display" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data"

"$here/build/app/attnbook" "$lesson" >"$scratch/log" 2>&1 &
app=$!
xdotool search --sync --onlyvisible --name attnbook >/dev/null 2>&1
sleep 6 # the rows near the top are built, and the worker is idle

resident() {
    printf '%-9s' "$1"
    grep -E '^(VmRSS|RssAnon|RssFile):' "/proc/$app/status" |
        awk '{ printf "  %s %4d MB", $1, $2 / 1024 }'
    echo
}

resident opened
xdotool mousemove 700 500
for _ in $(seq 60); do
    xdotool click --repeat 10 --delay 5 5
    sleep 0.15
done
sleep 3
resident scrolled
xdotool mousemove 14 12 click 1 # File
sleep 1
xdotool key Down Return # New lesson, the menu's first entry
sleep 6                 # the window lets go of the old lesson 0.5 s after it is replaced
resident new

#!/bin/bash
# A clean WebAssembly build of the core, as CI would run it: the deps, the 80 core files and
# the module, one compile at a time (-j1, nice 15). Prints the time of each part.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ROOT=${ROOT:-$REPO/build-wasm}
cd "$ROOT"
t0=$(date +%s)
./build-deps.sh >"$ROOT/build-deps.log" 2>&1
t1=$(date +%s)
CLEAN=1 "$HERE/build-core.sh" >"$ROOT/build-core.log" 2>&1
t2=$(date +%s)
"$HERE/link-module.sh" >"$ROOT/link.log" 2>&1
t3=$(date +%s)
echo "deps $((t1 - t0)) s, core $((t2 - t1)) s, driver + link $((t3 - t2)) s, total $((t3 - t0)) s"
cat "$ROOT/times/deps.txt"; tail -2 "$ROOT/build-core.log"; tail -1 "$ROOT/link.log"

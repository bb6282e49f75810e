#!/bin/bash
# Native `attnbook compute` (a copy of the binary: attnbook-native) against the wasm module on
# every shipped lesson: writes out/native/NAME.{json,err,ms} and runs compare.mjs.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ROOT=${ROOT:-$REPO/build-wasm}
DOCS=${DOCS:-$REPO/documents}
LESSONS=(attention.md transformers.md guide.md real-head.md transformer.md training.md)
mkdir -p "$ROOT/out/native"
for lesson in "${LESSONS[@]}"; do
    name=${lesson%.md}
    t0=$(date +%s%N)
    QT_QPA_PLATFORM=offscreen nice -n 15 "${NATIVE:-$REPO/build/app/attnbook}" compute "$DOCS/$lesson" \
        >"$ROOT/out/native/$name.json" 2>"$ROOT/out/native/$name.err"
    rc=$?
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000000 )) >"$ROOT/out/native/$name.ms"
    echo "native $name: exit $rc, $(( (t1 - t0) / 1000000 )) ms"
done
nice -n 15 node "$HERE/compare.mjs" "$ROOT" "$DOCS" "${LESSONS[@]}"

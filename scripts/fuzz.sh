#!/usr/bin/env bash
# Fuzzes the document reader, the bundle reader, --set values, the data-file readers, the
# notebook generator and the web page generator (tests/fuzz) with libFuzzer, under
# AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     SECONDS per target (60), TARGET document, bundle,
#                                             set_value, data_file, notebook, html (all six)
#
# ATTNBOOK_FUZZ_SEED=S fixes libFuzzer's random seed (CI sets it): the same build then tries
# the same inputs in the same order, so that a finding in CI is found again by the same
# command on another machine. Without it every run explores afresh.
#
# Installs what it needs when missing (scripts/setup.sh's packages, and Debian 12's clang 14
# with libclang-rt-14-dev, which holds libFuzzer), builds with clang in build-fuzz/, seeds
# each target from documents/, the error fixtures and tests/fuzz/corpus/TARGET, and runs one
# job at a time (the machine is shared). New inputs go to build-fuzz/corpus/TARGET; a finding
# is saved as build-fuzz/findings/TARGET-crash-* (or -timeout-, -oom-, -leak-) and replays
# with build-fuzz/tests/fuzz/fuzz_TARGET FILE. Add a fixed finding to tests/fuzz/corpus/TARGET
# so that every build replays it. Exit 1 when a target found something.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(document bundle set_value data_file notebook html)
fi
ATTNBOOK_SETUP_ONLY_PACKAGES=1 "$here/scripts/setup.sh"
for p in clang libclang-rt-14-dev; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$p"
    fi
done
build="$here/build-fuzz"
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DATTNBOOK_FUZZ=ON -DATTNBOOK_SANITIZE=address,undefined \
    "${launcher[@]}" >/dev/null
cmake --build "$build" -j "${ATTNBOOK_JOBS:-2}" --target "${targets[@]/#/fuzz_}"

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
# Third-party caches that live as long as the process (tests/fuzz/lsan.supp says which).
export LSAN_OPTIONS="suppressions=$here/tests/fuzz/lsan.supp:${LSAN_OPTIONS:-}"
status=0
for target in "${targets[@]}"; do
    seeds="$build/seeds/$target"
    rm -rf "$seeds"
    mkdir -p "$seeds" "$build/corpus/$target" "$build/findings"
    cp "$here/tests/fuzz/corpus/$target"/* "$seeds/" 2>/dev/null || true
    if [ "$target" = document ] || [ "$target" = notebook ] || [ "$target" = html ]; then
        cp "$here"/documents/*.md "$here"/tests/fixtures/errors/*.md "$seeds/"
    fi
    log="$build/findings/$target.log"
    echo "== fuzz_$target for ${seconds}s (log: $log)"
    seed=()
    [ -z "${ATTNBOOK_FUZZ_SEED:-}" ] || seed=(-seed="$ATTNBOOK_FUZZ_SEED")
    if ! "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=65536 \
        -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 "${seed[@]}" \
        -artifact_prefix="$build/findings/$target-" \
        "$build/corpus/$target" "$seeds" >"$log" 2>&1; then
        status=1
        echo "   FOUND something: $(grep -m1 -E 'ERROR|SUMMARY|deadly' "$log" || tail -1 "$log")"
        # What a reader of the CI's output needs to replay it: the report and the input.
        grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse|INITED)' "$log" | tail -60 | sed 's/^/   | /'
        for finding in "$build/findings/$target"-*; do
            [ -f "$finding" ] || continue
            echo "   input $(basename "$finding") ($(stat -c %s "$finding") bytes), gzip | base64:"
            gzip -9c "$finding" | base64 -w 100 | head -400 | sed 's/^/   > /'
        done
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | sed 's/^/   /' || true
done
exit $status

#!/usr/bin/env bash
# The static checks that the README's test command (scripts/test.sh, so .ci/run) runs after the
# build: clang-format (the checked-in .clang-format) over every C++ file, the layers' include
# rules (scripts/check_layers.py), and qmllint over
# every QML file with no warning. Usage: scripts/lint.sh [BUILD_DIR]   (default build/)
# Fix formatting with: clang-format -i FILE...
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
cd "$here"
status=0

mapfile -t sources < <(find app bench core exports files tests web \( -name '*.cpp' -o -name '*.h' \) \
    -not -path '*/fixtures/*' | sort)
if clang-format --dry-run --Werror "${sources[@]}" 2>/tmp/attnbook-format.$$; then
    echo "lint: clang-format: ${#sources[@]} files formatted"
else
    grep -E '^[^ ].*: error:' /tmp/attnbook-format.$$ | cut -d: -f1 | sort -u |
        sed 's/^/lint: not formatted: /'
    echo "lint: run clang-format -i on the files above"
    status=1
fi
rm -f /tmp/attnbook-format.$$

# The layers' include rules (docs/architecture.md).
if ! python3 "$here/scripts/check_layers.py" "$here"; then
    status=1
fi

# qmllint reads the types of Attnbook.Models from the build's QML modules. Debian's QtQuick.Pdf
# 6.4 type information defines PdfStyle twice, and qmllint reports that with no file or line,
# so no comment in the file can switch it off: the one file that imports QtQuick.Pdf is
# checked with import problems reported as information, every other check at full strength.
qmllint=/usr/lib/qt6/bin/qmllint
mapfile -t qml < <(find qml -name '*.qml' | sort | xargs grep -L '^import QtQuick.Pdf')
mapfile -t pdf_qml < <(find qml -name '*.qml' | sort | xargs grep -l '^import QtQuick.Pdf')
if "$qmllint" -I "$build/qml_modules" "${qml[@]}" &&
    { [ ${#pdf_qml[@]} -eq 0 ] || "$qmllint" --import info -I "$build/qml_modules" "${pdf_qml[@]}"; }; then
    echo "lint: qmllint: $((${#qml[@]} + ${#pdf_qml[@]})) QML files, no warnings"
else
    echo "lint: qmllint found warnings (above)"
    status=1
fi
exit $status

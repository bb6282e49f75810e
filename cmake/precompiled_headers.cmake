# Precompiled headers (issue 23): most of a translation unit's compile time here is spent
# parsing Armadillo (about 5 s per file on the CI machine), Qt (about 3 s) and doctest, not our
# code. Each library and test executable with several files precompiles the heavy headers
# it uses once. `attnbook_precompile(TARGET LEVEL)` with LEVEL one of
#   core    Armadillo and the standard library (core/, doctest tests)
#   gui     core + QtCore and QtGui (exports/, app/)
#   quick   gui + QtQml and QtQuick (app/models, the window's tests)
#   qml_cache  the QtQml headers of qmlcachegen's C++ (qml/)
# ccache caches files compiled with them when CCACHE_SLOPPINESS has pch_defines,time_macros
# (scripts/setup.sh sets it). ATTNBOOK_PCH=OFF builds without them.
option(ATTNBOOK_PCH "Precompile Armadillo, Qt and doctest headers" ON)

set(ATTNBOOK_PCH_core
    <armadillo> <algorithm> <functional> <map> <memory> <optional> <set> <string> <variant>
    <vector>)
set(ATTNBOOK_PCH_gui ${ATTNBOOK_PCH_core}
    <QtCore/QByteArray> <QtCore/QFile> <QtCore/QFileInfo> <QtCore/QObject> <QtCore/QString>
    <QtCore/QStringList> <QtGui/QColor> <QtGui/QFont> <QtGui/QImage> <QtGui/QPainter>
    <QtGui/QTextDocument>)
set(ATTNBOOK_PCH_quick ${ATTNBOOK_PCH_gui}
    <QtCore/QAbstractItemModel> <QtQml/qqmlregistration.h> <QtQml/QQmlEngine>
    <QtQuick/QQuickItem> <QtQuick/QQuickPaintedItem>)

# What qmlcachegen's C++ for every QML file includes (qml/).
set(ATTNBOOK_PCH_qml_cache
    <cmath> <limits> <type_traits> <QtCore/qdatetime.h> <QtCore/qobject.h> <QtCore/qstring.h>
    <QtCore/qstringlist.h> <QtCore/qurl.h> <QtCore/qvariant.h> <QtQml/qjsengine.h>
    <QtQml/qjsprimitivevalue.h> <QtQml/qjsvalue.h> <QtQml/qqmlcomponent.h>
    <QtQml/qqmlcontext.h> <QtQml/qqmlengine.h> <QtQml/qqmlprivate.h>)

function(attnbook_precompile target level)
    if(ATTNBOOK_PCH)
        target_precompile_headers(${target} PRIVATE ${ATTNBOOK_PCH_${level}} ${ARGN})
    endif()
endfunction()

# A target made of one file gains nothing from a header of its own; it takes another's.
# Both must be compiled with the same options (GCC ignores a header made with others).
function(attnbook_precompile_from target donor)
    if(ATTNBOOK_PCH)
        target_precompile_headers(${target} REUSE_FROM ${donor})
    endif()
endfunction()

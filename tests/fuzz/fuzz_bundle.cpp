// libFuzzer target: the bundle reader (files/bundle_reader.h) on arbitrary zip bytes, then
// the lesson inside, when there is one, through the document reader.
#include "core/document/data_files.h"
#include "core/document/lesson.h"
#include "files/bundle_reader.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QString>
#include <QtCore/QTemporaryFile>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

// One temporary file per process, in the system's temporary folder (QTemporaryFile: TMPDIR,
// a unique name), rewritten for every input (readBundle reads a path) and removed when the
// process ends: a replay run leaves nothing behind.
struct ScratchFile {
    QTemporaryFile file{QDir::tempPath() + QStringLiteral("/attnbook-fuzz-bundle-XXXXXX")};
    QString path;
    ScratchFile() {
        if (file.open()) {
            path = file.fileName();
            file.close(); // the name stays reserved until the object goes
        }
    }
};

QString scratchPath() {
    static const ScratchFile scratch;
    return scratch.path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace attnbook;
    const QString path = scratchPath();
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            std::abort(); // the harness itself is broken
        }
        file.write(reinterpret_cast<const char*>(data), qint64(size));
    }
    QString error;
    const std::optional<Bundle> bundle = readBundle(path, &error);
    if (bundle && bundle->entries.count(kBundleLessonName)) {
        (void)parseLesson(bundle->lesson().toStdString(), "fuzz.zip", memoryDataFiles({}));
    }
    return 0;
}

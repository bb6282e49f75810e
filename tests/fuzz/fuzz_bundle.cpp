// libFuzzer target: the bundle reader (exports/bundle_reader.h) on arbitrary zip bytes, then
// the lesson inside, when there is one, through the document reader.
#include "core/document/data_files.h"
#include "core/document/lesson.h"
#include "exports/bundle_reader.h"

#include <QtCore/QFile>
#include <QtCore/QString>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <unistd.h>

namespace {

// One temporary file per process, rewritten for every input (readBundle reads a path), and
// removed when the process ends: a replay run leaves nothing behind in /tmp.
struct ScratchFile {
    QString path;
    ScratchFile() {
        char name[] = "/tmp/attnbook-fuzz-bundle-XXXXXX";
        const int fd = ::mkstemp(name);
        if (fd >= 0) {
            ::close(fd);
        }
        path = QString::fromLocal8Bit(name);
    }
    ~ScratchFile() { QFile::remove(path); }
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

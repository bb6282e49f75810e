#pragma once
// The rules every bundle obeys, shared by the writer and the reader
// (cli.md "Bundles", reliability.md 15-21).

#include <QtCore/QString>
#include <QtCore/QtGlobal>

namespace attnbook {

// Caps checked on the declared sizes before inflating and on the real bytes while inflating.
struct BundleLimits {
    int maxEntries = 10000;             // entries in the zip, manifest.json included
    qint64 maxTotalBytes = 256LL << 20; // uncompressed bytes of all entries together
    double maxRatio = 200.0;            // uncompressed / compressed, per entry
    qint64 maxLessonBytes = 16LL << 20; // lesson.md: the limit of a lesson file on disk
};

inline constexpr int kBundleFormat = 1;
inline const QString kBundleManifestName = QStringLiteral("manifest.json");
inline const QString kBundleLessonName = QStringLiteral("lesson.md");
// Where a bundle keeps the files that cells read: data/files/PATH.
inline const QString kBundleDataFilesFolder = QStringLiteral("data/files/");

// Why NAME may not be a bundle entry, or an empty string when it may. A name is a plain
// relative path with '/' between non-empty parts: no absolute path, no "..", no ".", no
// backslash, no drive letter or other ':', no control character. A trailing '/' marks a folder.
QString bundleEntryNameProblem(const QString& name);

// NAME in double quotes, with control characters shown as \xNN, for messages.
QString quotedEntryName(const QString& name);

// The key under which two names count as the same file: case-folded, Unicode NFC
// ("Lesson.md" and "lesson.md", or a composed and a decomposed "é", collide on disk).
QString bundleEntryNameKey(const QString& name);

} // namespace attnbook

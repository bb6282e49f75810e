#pragma once
// Writing a bundle (cli.md "Bundles"): manifest.json first, then every entry, UTF-8 names.

#include "files/bundle_limits.h"

#include <QtCore/QByteArray>
#include <QtCore/QDateTime>
#include <QtCore/QString>

#include <vector>

namespace attnbook {

struct BundleEntry {
    QString name; // "lesson.md", "data/colour.json", ...
    QByteArray bytes;
};

struct BundleMetadata {
    QString title;
    QString appVersion;
    QDateTime created; // written as ISO-8601 UTC; also the entries' timestamp. Invalid: now.
};

// Writes ZIPPATH atomically (QSaveFile): manifest.json holding {"format": 1, "title",
// "app_version", "created", "entries": {NAME: sha256 hex}}, then the entries. Refuses what
// readBundle would refuse with the default limits (names, duplicates, sizes); an entry that
// deflates past the ratio cap is stored uncompressed so the bundle always reads back.
// On failure returns false with *error naming the path and the reason; no partial file is left
// and an existing ZIPPATH is untouched.
bool writeBundle(const QString& zipPath, const BundleMetadata& metadata,
                 const std::vector<BundleEntry>& entries, QString* error);

// The same bundle as bytes in memory (the window's preview, and writeExport), with the same
// checks; false with *error (no path in it) when the entries cannot be packed.
bool bundleBytes(const BundleMetadata& metadata, const std::vector<BundleEntry>& entries,
                 QByteArray* out, QString* error);

} // namespace attnbook

#pragma once
// Opening a bundle: every entry is read into memory and checked; nothing is ever written to
// disk, so no entry can land outside a folder (reliability.md 15-20). No JlCompress::extract*.

#include "files/bundle_limits.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QString>

#include <map>
#include <optional>

namespace attnbook {

struct Bundle {
    QJsonObject manifest;                  // manifest.json as written by writeBundle
    std::map<QString, QByteArray> entries; // every entry but manifest.json and folders
    QByteArray lesson() const;             // lesson.md, empty when the bundle has none
};

// The bundle at ZIPPATH, or nullopt with *error set to "ZIPPATH: what, where, why" (one line
// per problem found). Refused: unsafe names, links and other special entries, duplicate names
// (also by case), encrypted entries, unknown compression methods, more than the limits allow
// (declared sizes and ratio before inflating, real bytes while inflating), a truncated or
// corrupt zip, and a manifest that is missing, malformed or does not match the entries.
std::optional<Bundle> readBundle(const QString& zipPath, QString* error,
                                 const BundleLimits& limits = {});

} // namespace attnbook

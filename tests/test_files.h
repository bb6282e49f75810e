#pragma once
// Whole-file reads and writes for the Qt tests (tests/app and the other Qt test folders): one
// copy here instead of one in every test file (issue 24). tests/core has its own, without Qt
// (tests/core/test_support.h).

#include <QtCore/QByteArray>
#include <QtCore/QFile>
#include <QtCore/QString>

// The file's bytes, or nothing when it cannot be opened.
inline QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Writes the bytes, replacing the file; false when they cannot all be written.
inline bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

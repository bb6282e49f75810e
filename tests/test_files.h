#pragma once
// Whole-file reads and writes for the Qt tests (tests/app and the other Qt test folders): one
// copy here instead of one in every test file. tests/core has its own, without Qt
// (tests/core/test_support.h).

#include <QtCore/QByteArray>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QString>
#include <QtCore/QTemporaryDir>

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

// Where a test saves the screenshots it draws for people to look at: the folder named by
// $ATTNBOOK_SHOTS (made when missing), else a temporary folder of this test process, removed
// when it ends. Never a fixed path under /tmp: a test must not depend on another test, or on
// what an earlier run left behind.
inline QString shotPath(const QString& name) {
    static const QString folder = [] {
        const QString chosen = qEnvironmentVariable("ATTNBOOK_SHOTS");
        if (!chosen.isEmpty()) {
            QDir().mkpath(chosen);
            return chosen;
        }
        static const QTemporaryDir own;
        return own.path();
    }();
    return folder + QLatin1Char('/') + name;
}

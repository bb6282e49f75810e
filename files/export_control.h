#pragma once
// What every export function takes and returns: a progress callback, a cancel flag, and an
// outcome that says whether the outputs were written. The window shows the progress and offers
// Cancel; the command line passes neither.

#include <QtCore/QString>

#include <atomic>
#include <functional>

namespace attnbook {

struct ExportControl {
    // Called from the thread that runs the export: `done` of `total` steps, and what is being
    // done ("page 3", "variant 12"). May be empty.
    std::function<void(int done, int total, const QString& step)> progress;
    // Set from any thread to stop the export; checked between steps. May be null.
    const std::atomic<bool>* cancel = nullptr;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(int done, int total, const QString& step) const {
        if (progress) {
            progress(done, total, step);
        }
    }
};

// Refused: the request asks what this lesson cannot give (variants of a lesson where nothing
// varies, more variants than a question has different answers); the command line's usage error.
enum class ExportStatus { Done, Cancelled, Failed, InvalidDocument, Refused };

struct ExportResult {
    ExportStatus status = ExportStatus::Done;
    QString error; // Failed: "PATH: cannot write: why"; InvalidDocument: "LINE:COLUMN: ..."
    int line = 0;  // InvalidDocument: where in the lesson, 0 for the file as a whole
    int column = 0;

    bool ok() const { return status == ExportStatus::Done; }
    static ExportResult done() { return {}; }
    static ExportResult cancelled() {
        return {ExportStatus::Cancelled, QStringLiteral("cancelled")};
    }
    static ExportResult failed(QString why) { return {ExportStatus::Failed, std::move(why)}; }
    static ExportResult refused(QString why) { return {ExportStatus::Refused, std::move(why)}; }
};

} // namespace attnbook

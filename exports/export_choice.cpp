#include "exports/export_choice.h"

#include "exports/worksheet/worksheet_pdf.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QStandardPaths>

namespace attnbook {

QString exportSuffix(ExportKind kind) {
    switch (kind) {
    case ExportKind::Bundle:
        return QStringLiteral("zip");
    case ExportKind::Notebook:
        return QStringLiteral("ipynb");
    case ExportKind::WebPage:
        return QStringLiteral("html");
    case ExportKind::LessonPdf:
    case ExportKind::Worksheet:
        break;
    }
    return QStringLiteral("pdf");
}

QString withExportSuffix(const QString& path, ExportKind kind) {
    if (path.isEmpty() || !QFileInfo(path).suffix().isEmpty()) {
        return path;
    }
    return path + u'.' + exportSuffix(kind);
}

QString suggestedExportName(ExportKind kind, const QString& lessonFile) {
    QString base = QFileInfo(lessonFile).completeBaseName();
    if (base.isEmpty()) {
        base = QStringLiteral("lesson");
    }
    if (kind == ExportKind::Worksheet) {
        return base + QStringLiteral("-worksheet.pdf");
    }
    const QString name = base + u'.' + exportSuffix(kind);
    // A bundle opened in the window is never offered as the name to save over.
    if (kind == ExportKind::Bundle && name.compare(lessonFile, Qt::CaseInsensitive) == 0) {
        return base + QStringLiteral("-bundle.zip");
    }
    return name;
}

QString exportFolderFor(const QString& lessonPath) {
    if (!lessonPath.isEmpty() && !lessonPath.startsWith(u':')) {
        return QFileInfo(lessonPath).absolutePath();
    }
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

void ExportChoice::readRosterFile() {
    roster.clear();
    rosterProblem.clear();
    if (rosterFile.isEmpty()) {
        return;
    }
    if (const std::optional<QStringList> names = readRoster(rosterFile, &rosterProblem)) {
        roster = *names;
    }
}

QString ExportChoice::problem() const {
    // The readers' words name the option in the middle of a sentence; here it starts one.
    const auto sentence = [](QString text) {
        if (!text.isEmpty()) {
            text[0] = text[0].toUpper();
        }
        return text;
    };
    QString why;
    if (!readPaper(paper, &why)) {
        return sentence(why);
    }
    if (kind != ExportKind::Worksheet) {
        return {};
    }
    if (seedUsed() && !readSeed(seed, &why)) {
        return sentence(why);
    }
    return rosterProblem;
}

ExportRequest ExportChoice::request() const {
    ExportRequest r;
    r.lessonPdf = kind == ExportKind::LessonPdf;
    r.worksheet = kind == ExportKind::Worksheet;
    r.bundle = kind == ExportKind::Bundle;
    r.notebook = kind == ExportKind::Notebook;
    r.html = kind == ExportKind::WebPage;
    r.paper = readPaper(paper, nullptr).value_or(Paper::A4);
    if (r.worksheet) {
        r.answers = answers;
        r.variants = variants;
        r.seed = seedUsed() ? readSeed(seed, nullptr).value_or(1) : 1;
        r.roster = roster;
    }
    return r;
}

QStringList ExportChoice::targetPaths(const QString& path) const {
    const QString file = withExportSuffix(path, kind);
    return file.isEmpty() ? QStringList() : ExportTargets::allAt(file).paths(request());
}

} // namespace attnbook

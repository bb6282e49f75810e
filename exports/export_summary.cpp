#include "exports/export_summary.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QLocale>

namespace attnbook {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExportSummary", text);
}

// "1 page", "3 pages".
QString count(int n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(tr(n == 1 ? one : many));
}

QString sizeText(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

QString worksheetSummary(const ExportRequest& r, const RenderedExport& rendered,
                         const QString& paper) {
    QStringList parts{tr("Worksheet: %1").arg(count(rendered.worksheetPages, "page", "pages"))};
    if (r.answers) {
        parts << tr("answer key: %1").arg(count(rendered.answerPages, "page", "pages"));
    }
    const bool roster = !r.roster.isEmpty();
    if (r.variants > 0) {
        parts << tr("%1, seed %2").arg(count(r.variants, "variant", "variants")).arg(r.seed);
    } else if (roster) {
        parts << tr("a variant for each name, seed %1").arg(r.seed);
    } else {
        parts << tr("the lesson's own numbers");
    }
    if (roster) {
        parts << tr("%1 on the roster").arg(count(int(r.roster.size()), "name", "names"));
    }
    parts << paper;
    return parts.join(QStringLiteral(" · "));
}

} // namespace

QString exportSummary(const ExportRequest& request, const RenderedExport& rendered) {
    const QString paper = request.paper == Paper::Letter ? tr("Letter") : tr("A4");
    if (const RenderedPart* bundle = rendered.part(QStringLiteral("bundle"))) {
        return tr("Bundle: %1 · %2 · %3 · the preview shows its lesson.pdf")
            .arg(count(rendered.bundleEntries, "file", "files"), sizeText(bundle->bytes.size()),
                 paper);
    }
    if (const RenderedPart* notebook = rendered.part(QStringLiteral("notebook"))) {
        // No page to preview: what it holds, and where it opens.
        return tr("Notebook: %1 · %2 · nbformat 4 for the python3 kernel, no outputs stored")
            .arg(count(int(notebook->bytes.count("\"cell_type\": ")), "cell", "cells"),
                 sizeText(notebook->bytes.size()));
    }
    if (const RenderedPart* page = rendered.part(QStringLiteral("html"))) {
        // A page, not pages: what it holds, and where it opens.
        return tr("Web page: %1 · %2 · one offline file with its figures inside, for any "
                  "browser or a course site")
            // every view of every cell: tables and bars (HTML the live page redraws) and the
            // PDF's figures (SVG) alike
            .arg(count(int(page->bytes.count("<figure class=\"view")), "figure", "figures"),
                 sizeText(page->bytes.size()));
    }
    if (const RenderedPart* lesson = rendered.part(QStringLiteral("lesson"))) {
        return tr("Lesson PDF · %1 · %2").arg(paper, sizeText(lesson->bytes.size()));
    }
    if (request.worksheet) {
        return worksheetSummary(request, rendered, paper);
    }
    return {};
}

QString savedSentence(const QStringList& paths) {
    if (paths.isEmpty()) {
        return {};
    }
    QStringList names;
    for (const QString& p : paths) {
        names << QFileInfo(p).fileName();
    }
    const QString list = names.size() < 2
                             ? names.front()
                             : names.mid(0, names.size() - 1).join(QStringLiteral(", ")) +
                                   tr(" and ") + names.back();
    return tr("Saved %1 in %2")
        .arg(list, QDir::toNativeSeparators(QFileInfo(paths.front()).absolutePath()));
}

QString sharedAnswersNote(const ExportRequest& request, const RenderedExport& rendered) {
    const int names = int(request.roster.size());
    if (!request.worksheet || names < 2 || request.variants > 0) {
        return {}; // with --variants N, fewer answers than N are refused before anything is drawn
    }
    QStringList short_;
    for (const QuestionSpread& q : rendered.worksheetSpread) {
        if (q.found > 1 && q.distinct < names) { // it varies, but not enough for every name
            short_
                << QStringLiteral("%1 %2").arg(QString::fromStdString(q.question)).arg(q.distinct);
        }
    }
    if (short_.isEmpty()) {
        return {};
    }
    const QString first = short_.takeFirst();
    const int cut = int(first.lastIndexOf(u' '));
    QString note = QStringLiteral("%1 names, but %2 has only %3 different answers")
                       .arg(names)
                       .arg(first.left(cut), first.mid(cut + 1));
    if (!short_.isEmpty()) {
        note += QStringLiteral(" (%1)").arg(short_.join(QStringLiteral(", ")));
    }
    return note + QStringLiteral(" within the ranges of worksheet.vary, so some students share an "
                                 "answer: every name still gets a sheet of its own");
}

} // namespace attnbook

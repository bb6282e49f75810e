#pragma once
// What QPdfWriter (Qt 6.4) cannot write: the outline (bookmarks) a PDF reader shows beside the
// pages, and the document information (Title, Author, Subject). Added to a finished PDF with
// qpdf, which rewrites the file with the new objects.

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <vector>

namespace attnbook {

struct PdfDocumentInfo {
    PdfDocumentInfo() = default;
    PdfDocumentInfo(QString t) : title(std::move(t)) {} // NOLINT: a title alone is the common case
    QString title;
    QString author;
    QString subject;
};

// One bookmark: a heading at `level` (1 = top), pointing at `top` points from the top of page
// `page` (counted from 0).
struct PdfOutlineEntry {
    int level = 1;
    QString title;
    int page = 0;
    qreal top = 0;
};

// Returns `pdf` with the outline (entries in reading order; a level deeper than the one
// before nests under it) and the information set, or an empty array and `error` when qpdf
// cannot read or write it.
QByteArray addOutlineAndInfo(const QByteArray& pdf, const std::vector<PdfOutlineEntry>& outline,
                             const PdfDocumentInfo& info, QString* error);

} // namespace attnbook

#pragma once
// The text of every page of a PDF as a reader's search finds it (QPdfDocument, PDFium), with
// every run of white space as one space, for the tests of the printed exports.

#include <QtCore/QFile>
#include <QtCore/QRegularExpression>
#include <QtCore/QStringList>
#include <QtCore/QTemporaryDir>
#include <QtPdf/QPdfDocument>

inline QStringList pdfPageTexts(const QByteArray& pdf) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.pdf"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(pdf) != pdf.size()) {
        return {};
    }
    file.close();
    QPdfDocument document;
    if (document.load(path) != QPdfDocument::Error::None) {
        return {};
    }
    QStringList pages;
    static const QRegularExpression space(QStringLiteral("\\s+"));
    for (int i = 0; i < document.pageCount(); ++i) {
        pages << document.getAllText(i).text().replace(space, QStringLiteral(" "));
    }
    return pages;
}

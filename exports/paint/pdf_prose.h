#pragma once
// Markdown prose for print: QTextDocument reads the Markdown (with bindings already replaced),
// then every block gets its print style (serif body, sans headings, monospace code on a tint,
// ruled tables). The laid-out document is cut into boxes at its top-level blocks, so pages break
// between paragraphs, or between lines of a long one, and a heading never ends a page.

#include "exports/paint/pdf_layout.h"

#include <QtCore/QString>

#include <memory>
#include <vector>

class QTextBlock;
class QTextDocument;

namespace attnbook {

struct PrintProseStyle {
    qreal bodySize = pdf::kBody;
    // Justified print opens wide gaps in narrow columns and around long numbers: ragged right.
    bool justify = false;
    int headingShift = 0; // 1: "#" prints like "##" (quiz text, worksheet sections)
};

// A document laid out at `width` points for the 72-dpi layout device.
std::shared_ptr<QTextDocument> markdownDocument(const QString& markdown, qreal width,
                                                const PrintProseStyle& style = {});

// A document from simple HTML, in `font`, laid out at `width` (or narrower: its ideal width
// when `shrink`).
std::shared_ptr<QTextDocument> htmlDocument(const QString& html, const QFont& font, qreal width,
                                            bool shrink = false);

// The document as page-layout boxes; the first gets `spaceBefore`.
std::vector<PdfBoxPtr> proseBoxes(const std::shared_ptr<QTextDocument>& document,
                                  qreal spaceBefore = 0);

// The whole document as one figure.
Figure textFigure(const std::shared_ptr<QTextDocument>& document);

// A line of plain text as a figure.
Figure labelFigure(const QString& text, const QFont& font, const QColor& colour = pdf::kInk,
                   qreal width = -1);

QString htmlEscaped(const QString& text);

// Whether a block of a document read from Markdown is (a line of) a fenced or indented code
// block. The web page (html_prose.h) asks the same question of the same reader.
bool isCodeBlock(const QTextBlock& block);

// A formula as one unit for line breaking: the spaces inside brackets and around "=", "×", "·",
// "/", "÷", "−" and "^" become no-break spaces, so "√4 = 2" or "[0.5, 0]" never wrap inside; a
// long line still wraps, between the terms of a sum or after a comma between numbers.
QString keptTogether(const QString& text);

} // namespace attnbook

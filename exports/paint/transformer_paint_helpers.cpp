#include "exports/paint/transformer_paint_helpers.h"

#include "core/present/transformer_settings.h"
#include "core/present/transformer_summary.h"

#include "core/present/view_titles.h"
#include "exports/paint/pdf_transformer.h" // shortWord

#include "core/document/json.h"
#include "core/math/blockwise_attention.h"
#include "core/math/layer_norm.h"
#include "core/math/number_format.h"
#include "core/math/transformer_engine.h"
#include "core/present/transformer_views.h"
#include "exports/paint/heat_palette.h"
#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_prose.h"

#include <QtCore/QRegularExpression>
#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace attnbook::transformer_paint {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString fixed(double v, int digits) {
    return qs(fixedNumber(v, digits));
}

QString readable(double v, int digits) {
    return qs(readableNumber(v, digits));
}

// A setting as the author wrote it: T = 0.5, not 0.5000.
QString shortest(double v) {
    return qs(settingText(v));
}

QString trainingMethod(const TrainingSpec& t) {
    return qs(trainingMethodText(t));
}

qreal textWidth(const QFont& font, const QString& text) {
    return QFontMetricsF(font, layoutDevice()).horizontalAdvance(text);
}

QString elided(const QString& text, const QFont& font, qreal width) {
    return QFontMetricsF(font, layoutDevice()).elidedText(text, Qt::ElideRight, width);
}

// "¹", "²", … for a layer's number in X¹.
QString superscript(int k) {
    static const char* const digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    QString out;
    for (QChar c : QString::number(k)) {
        out += QString::fromUtf8(digits[c.digitValue()]);
    }
    return out;
}

QString subscript(int k) {
    static const char* const digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    QString out;
    for (QChar c : QString::number(k)) {
        out += QString::fromUtf8(digits[c.digitValue()]);
    }
    return out;
}

QString tokenAt(const TransformerResult& r, int row) {
    return row >= 0 && size_t(row) < r.tokens.size() ? shortWord(r.tokens[size_t(row)])
                                                     : QStringLiteral("#%1").arg(row + 1);
}

// A font per use, never shared: variants are laid out on several threads, and a QFont's
// engine is resolved per thread.
QFont smallFont() {
    return pdf::font(pdf::kSans, 8);
}

// A paragraph of small print as a figure (notes under a table, the cache in words).
Figure noteFigure(const QString& html, qreal width, const QColor& colour) {
    return textFigure(
        htmlDocument(QStringLiteral("<p style=\"color:%1\">%2</p>").arg(colour.name(), html),
                     smallFont(), width));
}

void addNote(FigureRowsBox& box, const QString& html, const CellPrintArea& area, qreal spaceBefore,
             const QColor& colour) {
    box.addRow({{noteFigure(html, area.width, colour)}, 0, spaceBefore});
}

bool hasLayerNorm(const LayerNormParams& ln) {
    return !ln.identity;
}

QString normWords(const LayerNormParams& ln) {
    return qs(layerNormWords(ln));
}

CellSources cellSources(const LessonCell& cell, const TransformerCellSpec& spec) {
    const CellSourceTexts texts = cellSourceTexts(cell, spec);
    const auto escapedList = [](const std::vector<std::string>& files) {
        QStringList out;
        for (const std::string& file : files) {
            out << htmlEscaped(qs(file));
        }
        return out.join(QStringLiteral("; "));
    };
    return {escapedList(texts.weights), escapedList(texts.sentences)};
}

QString tokenList(const std::vector<std::string>& tokens, size_t most) {
    return qs(tokenListText(tokens, most));
}

} // namespace attnbook::transformer_paint

// Print styling of Markdown: a sequence of small passes over one QTextDocument (runs, blocks,
// bullets, formulas kept together, tables, code frames, empty blocks); each pass needs the
// document as the previous one left it, so they stay in one file in the order they run. The
// cut of the styled document into page boxes is pdf_prose_boxes.cpp.
#include "exports/paint/pdf_prose.h"

#include "exports/paint/pdf_prose_marks.h"

#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>
#include <QtGui/QTextBlock>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>
#include <QtGui/QTextFrame>
#include <QtGui/QTextList>
#include <QtGui/QTextTable>

#include <algorithm>
#include <map>
#include <vector>

namespace attnbook {

bool isCodeBlock(const QTextBlock& block) {
    const QTextBlockFormat bf = block.blockFormat();
    if (bf.hasProperty(QTextFormat::BlockCodeFence) ||
        bf.hasProperty(QTextFormat::BlockCodeLanguage)) {
        return true;
    }
    // An indented code block: every run is monospace and lines do not wrap.
    if (!bf.nonBreakableLines() || block.length() <= 1) {
        return false;
    }
    for (QTextBlock::iterator it = block.begin(); !it.atEnd(); ++it) {
        if (!it.fragment().charFormat().fontFixedPitch()) {
            return false;
        }
    }
    return true;
}

namespace {

constexpr qreal kCodeSize = 8.5;
constexpr qreal kTableSize = 8.5;
constexpr qreal kCodeHang = 18; // the indent of a wrapped code line's continuation

enum class Role { Body, Heading, Code, TableCell, TableHead, Quote };

// The font of one run of text for its role, keeping its bold, italic and code marks.
void styleFragment(QTextCharFormat& fmt, Role role, int headingLevel,
                   const PrintProseStyle& style) {
    QString family = pdf::kSerif;
    qreal size = style.bodySize;
    bool bold = fmt.fontWeight() >= QFont::DemiBold;
    bool italic = fmt.fontItalic();
    switch (role) {
    case Role::Heading: {
        static const qreal sizes[] = {15.0, 12.0, 10.5, 10.0, 10.0, 10.0};
        family = pdf::kSans;
        size = sizes[std::clamp(headingLevel - 1 + style.headingShift, 0, 5)];
        bold = true;
        fmt.setForeground(headingLevel + style.headingShift == 1 ? pdf::kAccent : pdf::kInk);
        break;
    }
    case Role::Code:
        family = pdf::kMono;
        size = kCodeSize;
        break;
    case Role::TableHead:
        bold = true;
        [[fallthrough]];
    case Role::TableCell:
        family = pdf::kSans;
        size = kTableSize;
        break;
    case Role::Quote:
        italic = true;
        fmt.setForeground(pdf::kMuted);
        break;
    case Role::Body:
        break;
    }
    if (fmt.fontFixedPitch() && role != Role::Code) { // a code span
        family = pdf::kMono;
        size *= 0.88;
        fmt.setBackground(pdf::kCodeBackground);
    }
    if (fmt.isAnchor()) {
        fmt.setForeground(pdf::kAccent);
    }
    fmt.clearProperty(QTextFormat::FontSizeAdjustment);
    fmt.setFontFamilies(QStringList{family});
    fmt.setFontPointSize(size);
    fmt.setFontWeight(bold ? QFont::Bold : QFont::Normal);
    fmt.setFontItalic(italic);
    fmt.setFontHintingPreference(QFont::PreferNoHinting);
    fmt.setFontKerning(true);
    fmt.setFontStyleStrategy(QFont::PreferNoShaping); // no ligatures: see pdf::font
}

// Rewrites the format of every run of text in `block` with `change` (collected first: setting a
// format may merge runs and would upset the iteration).
template <typename Change>
void restyleRuns(QTextDocument& doc, const QTextBlock& block, Change change) {
    std::vector<std::pair<int, int>> ranges;
    std::vector<QTextCharFormat> formats;
    for (QTextBlock::iterator it = block.begin(); !it.atEnd(); ++it) {
        QTextCharFormat fmt = it.fragment().charFormat();
        change(fmt);
        ranges.emplace_back(it.fragment().position(), it.fragment().length());
        formats.push_back(fmt);
    }
    QTextCursor cursor(&doc);
    for (size_t i = 0; i < ranges.size(); ++i) {
        cursor.setPosition(ranges[i].first);
        cursor.setPosition(ranges[i].first + ranges[i].second, QTextCursor::KeepAnchor);
        cursor.setCharFormat(formats[i]);
    }
}

void styleBlockText(QTextDocument& doc, const QTextBlock& block, Role role, int level,
                    const PrintProseStyle& style) {
    restyleRuns(doc, block, [&](QTextCharFormat& fmt) { styleFragment(fmt, role, level, style); });
    // The block's own char format sizes an empty block and the list marker.
    QTextCharFormat blockChar = block.charFormat();
    styleFragment(blockChar, role, level, style);
    QTextCursor(block).setBlockCharFormat(blockChar);
}

// Which blocks are table cells, and of those which are in a header row, read before any block
// is restyled: once a table's text changes, asking a cell for its row recounts the whole table
// (Qt marks it dirty), so asking as the blocks are restyled took time quadratic in its rows.
std::map<int, Role> tableCellRoles(QTextDocument& doc) {
    std::map<int, Role> roles; // by block number
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        const QTextCursor cursor(block);
        if (QTextTable* table = cursor.currentTable()) {
            roles[block.blockNumber()] =
                table->cellAt(cursor).row() == 0 ? Role::TableHead : Role::TableCell;
        }
    }
    return roles;
}

void styleBlocks(QTextDocument& doc, const PrintProseStyle& style) {
    const qreal lead = style.bodySize * 0.62;
    const std::map<int, Role> cellRoles = tableCellRoles(doc);
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        QTextCursor cursor(block);
        QTextBlockFormat bf = block.blockFormat();
        Role role = Role::Body;
        const int level = bf.headingLevel();
        if (const auto cell = cellRoles.find(block.blockNumber()); cell != cellRoles.end()) {
            role = cell->second;
            bf.setTopMargin(0);
            bf.setBottomMargin(0);
            bf.setLineHeight(115, QTextBlockFormat::ProportionalHeight);
        } else if (level > 0) {
            role = Role::Heading;
            const int shown = level + style.headingShift;
            bf.setTopMargin(shown == 1 ? 18 : shown == 2 ? 13 : 10);
            bf.setBottomMargin(shown == 1 ? 7 : 5);
            bf.setLineHeight(112, QTextBlockFormat::ProportionalHeight);
            bf.setAlignment(Qt::AlignLeft);
        } else if (isCodeBlock(block)) {
            role = Role::Code;
            bf.setTopMargin(0);
            bf.setBottomMargin(0);
            // A long line wraps inside the shaded block, its continuation indented.
            bf.setNonBreakableLines(false);
            bf.setLeftMargin(kCodeHang);
            bf.setTextIndent(-kCodeHang);
            bf.setLineHeight(118, QTextBlockFormat::ProportionalHeight);
            bf.setAlignment(Qt::AlignLeft);
        } else {
            role = bf.intProperty(QTextFormat::BlockQuoteLevel) > 0 ? Role::Quote : Role::Body;
            bf.setTopMargin(0);
            bf.setBottomMargin(block.textList() ? lead * 0.45 : lead);
            bf.setLineHeight(132, QTextBlockFormat::ProportionalHeight);
            bf.setAlignment(style.justify ? Qt::AlignJustify : Qt::AlignLeft);
            if (role == Role::Quote) {
                bf.setLeftMargin(14);
            }
        }
        cursor.setBlockFormat(bf);
        styleBlockText(doc, block, role, level, style);
    }
    // The list that a last list item closes gets a little more room below.
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        QTextList* list = block.textList();
        if (list && list->itemNumber(block) == list->count() - 1) {
            QTextBlockFormat bf = block.blockFormat();
            bf.setBottomMargin(lead);
            QTextCursor(block).setBlockFormat(bf);
        }
        if (list) {
            QTextListFormat lf = list->format();
            lf.setIndent(std::max(1, lf.indent()));
            list->setFormat(lf);
        }
    }
}

// Bulleted lists get their bullet as text, "• " in the body font, on a hanging indent: a
// bullet drawn by the layout has no space after it at print sizes, is not text (a reader's
// search and copy lose it), and is drawn with its item even when only a later line is shown.
void textBullets(QTextDocument& doc, const PrintProseStyle& style) {
    struct Item {
        QTextBlock block;
        QTextList* list;
    };
    std::vector<Item> items;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        QTextList* list = block.textList();
        if (!list) {
            continue;
        }
        const QTextListFormat::Style kind = list->format().style();
        if (kind == QTextListFormat::ListDisc || kind == QTextListFormat::ListCircle ||
            kind == QTextListFormat::ListSquare) {
            items.push_back({block, list});
        }
    }
    const QFont body = pdf::font(pdf::kSerif, style.bodySize);
    const QString bullet = QStringLiteral("• ");
    const qreal hang = QFontMetricsF(body, layoutDevice()).horizontalAdvance(bullet);
    QTextCharFormat bulletFormat;
    bulletFormat.setFont(body);
    bulletFormat.setForeground(pdf::kInk);
    for (auto it = items.rbegin(); it != items.rend(); ++it) {
        const int indent = std::max(1, it->list->format().indent());
        it->list->remove(it->block);
        QTextCursor cursor(it->block);
        QTextBlockFormat bf = it->block.blockFormat();
        bf.setIndent(0);
        bf.setLeftMargin(doc.indentWidth() * indent);
        bf.setTextIndent(-hang);
        bf.setProperty(kBulletItem, true);
        cursor.setBlockFormat(bf);
        cursor.movePosition(QTextCursor::StartOfBlock);
        cursor.insertText(bullet, bulletFormat);
    }
}

// Formulas in running text stay on one line ("√4 = 2", "[0.5, 0.0]"): their spaces become
// no-break spaces (keptTogether), run by run so every run keeps its format. Code is left as
// typed.
void keepFormulasTogether(QTextDocument& doc) {
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        if (isCodeBlock(block)) {
            continue;
        }
        const QString text = block.text();
        const QString kept = keptTogether(text);
        if (kept == text) {
            continue;
        }
        // Collected first: replacing a character may split or merge the runs being walked.
        std::vector<std::pair<int, QTextCharFormat>> spaces;
        for (QTextBlock::iterator it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.charFormat().fontFixedPitch()) {
                continue; // a code span: wraps where it must
            }
            const int start = fragment.position() - block.position();
            for (int i = 0; i < fragment.length(); ++i) {
                if (text[start + i] != kept[start + i]) {
                    spaces.emplace_back(fragment.position() + i, fragment.charFormat());
                }
            }
        }
        for (const auto& [position, format] : spaces) {
            QTextCursor cursor(&doc);
            cursor.setPosition(position);
            cursor.setPosition(position + 1, QTextCursor::KeepAnchor);
            cursor.insertText(QString(QChar(QChar::Nbsp)), format);
        }
    }
}

// Tables as in print: a rule above and below the header, one at the end, faint rules between
// rows, no vertical lines (the rules are drawn by ProseSliceBox).
void styleTables(QTextDocument& doc) {
    for (QTextFrame* frame : doc.rootFrame()->childFrames()) {
        auto* table = qobject_cast<QTextTable*>(frame);
        if (!table) {
            continue;
        }
        QTextTableFormat tf = table->format();
        tf.setBorder(0);
        tf.setBorderCollapse(true);
        tf.setCellSpacing(0);
        tf.setCellPadding(2.5);
        tf.setTopMargin(2);
        tf.setBottomMargin(8);
        tf.setHeaderRowCount(1);
        tf.setAlignment(Qt::AlignLeft);
        table->setFormat(tf);
        // Every cell first, then their formats: a cell looked up after another's format
        // changed would recount the table (quadratic in its rows, as in tableCellRoles).
        std::vector<std::pair<int, QTextTableCell>> cells; // column, cell
        for (int r = 0; r < table->rows(); ++r) {
            for (int c = 0; c < table->columns(); ++c) {
                cells.emplace_back(c, table->cellAt(r, c));
            }
        }
        for (auto& [c, cell] : cells) {
            QTextTableCellFormat cf = cell.format().toTableCellFormat();
            cf.setLeftBorder(0);
            cf.setRightBorder(0);
            cf.setLeftPadding(c == 0 ? 2 : 7);
            cf.setRightPadding(7);
            // No cell borders: Qt draws an edge two cells share twice, a hair apart. The
            // rules are drawn by the box that prints the table (tableRules).
            cf.setTopBorderStyle(QTextFrameFormat::BorderStyle_None);
            cf.setBottomBorderStyle(QTextFrameFormat::BorderStyle_None);
            cf.setLeftBorderStyle(QTextFrameFormat::BorderStyle_None);
            cf.setRightBorderStyle(QTextFrameFormat::BorderStyle_None);
            cell.setFormat(cf);
        }
    }
}

// Consecutive code lines go into one frame with a tint and padding.
void frameCodeBlocks(QTextDocument& doc) {
    std::vector<std::pair<int, int>> runs; // [first position, last position]
    bool previousCode = false;
    for (QTextFrame::iterator it = doc.rootFrame()->begin(); !it.atEnd(); ++it) {
        const QTextBlock block = it.currentBlock();
        const bool code = block.isValid() && isCodeBlock(block);
        if (code) {
            const int end = block.position() + block.length() - 1;
            if (previousCode) {
                runs.back().second = end;
            } else {
                runs.emplace_back(block.position(), end);
            }
        }
        previousCode = code;
    }
    QTextFrameFormat ff;
    ff.setBackground(pdf::kCodeBackground);
    ff.setPadding(6);
    ff.setTopMargin(2);
    ff.setBottomMargin(8);
    ff.setBorder(0);
    for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
        QTextCursor cursor(&doc);
        cursor.setPosition(run->first);
        cursor.setPosition(run->second, QTextCursor::KeepAnchor);
        cursor.insertFrame(ff);
    }
}

// QTextDocument keeps an empty block after every frame; it should take no room.
void collapseEmptyBlocks(QTextDocument& doc) {
    for (QTextFrame::iterator it = doc.rootFrame()->begin(); !it.atEnd(); ++it) {
        const QTextBlock block = it.currentBlock();
        if (!block.isValid() || block.length() > 1 || block.textList()) {
            continue;
        }
        QTextCursor cursor(block);
        QTextBlockFormat bf;
        bf.setLineHeight(0, QTextBlockFormat::FixedHeight);
        bf.setTopMargin(0);
        bf.setBottomMargin(0);
        cursor.setBlockFormat(bf);
        QTextCharFormat cf;
        cf.setFontPointSize(1);
        cursor.setBlockCharFormat(cf);
    }
}

// The document's print settings, without making its layout (see markdownDocument).
void printSettings(QTextDocument& doc, const QFont& font, qreal width) {
    doc.setUseDesignMetrics(true);
    doc.setDocumentMargin(0);
    doc.setIndentWidth(20);
    doc.setDefaultFont(font);
    QTextOption option = doc.defaultTextOption();
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere); // a word wider than a line
    doc.setDefaultTextOption(option);
    doc.setTextWidth(width);
}

// The print settings and a layout on the print device.
void prepare(QTextDocument& doc, const QFont& font, qreal width) {
    doc.documentLayout()->setPaintDevice(layoutDevice());
    printSettings(doc, font, width);
}

// Applies the print font settings to runs that have none (HTML documents).
void finishFragments(QTextDocument& doc) {
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        restyleRuns(doc, block, [](QTextCharFormat& fmt) {
            fmt.setFontHintingPreference(QFont::PreferNoHinting);
            fmt.setFontStyleStrategy(QFont::PreferNoShaping);
            if (fmt.fontFixedPitch()) {
                fmt.setFontFamilies(QStringList{pdf::kMono});
            }
        });
    }
}

} // namespace

std::shared_ptr<QTextDocument> markdownDocument(const QString& markdown, qreal width,
                                                const PrintProseStyle& style) {
    auto doc = std::make_shared<QTextDocument>();
    printSettings(*doc, pdf::font(pdf::kSerif, style.bodySize), width);
    // Read and restyled before the document has a layout, which is made once, at the end:
    // with a layout, every block the Markdown importer adds and every format the restyling
    // changes lays the document out again (a table whole, each time), which made a table's
    // export quadratic in its rows (a 2 × 100 table took 5 s, 10 × 250 over 30 s). None of
    // these steps reads the layout.
    doc->setMarkdown(markdown, QTextDocument::MarkdownDialectGitHub);
    styleBlocks(*doc, style);
    textBullets(*doc, style);
    keepFormulasTogether(*doc);
    styleTables(*doc);
    frameCodeBlocks(*doc);
    collapseEmptyBlocks(*doc);
    doc->documentLayout()->setPaintDevice(layoutDevice());
    // The restyling leaves the incremental layout with blocks it never lays out again (a
    // one-paragraph document prints nothing): lay the whole document out afresh, now, here.
    doc->markContentsDirty(0, doc->characterCount());
    doc->documentLayout()->documentSize();
    return doc;
}

std::shared_ptr<QTextDocument> htmlDocument(const QString& html, const QFont& font, qreal width,
                                            bool shrink) {
    auto doc = std::make_shared<QTextDocument>();
    prepare(*doc, font, width);
    doc->setHtml(html);
    finishFragments(*doc);
    if (shrink) {
        doc->setTextWidth(std::min(width, std::ceil(doc->idealWidth()) + 1));
    }
    doc->documentLayout()->documentSize();
    return doc;
}

Figure textFigure(const std::shared_ptr<QTextDocument>& doc) {
    const QSizeF size = doc->documentLayout()->documentSize();
    return Figure{size, [doc](QPainter& painter) {
                      QAbstractTextDocumentLayout::PaintContext context;
                      context.palette.setColor(QPalette::Text, pdf::kInk);
                      doc->documentLayout()->draw(&painter, context);
                  }};
}

Figure labelFigure(const QString& text, const QFont& font, const QColor& colour, qreal width) {
    const QFontMetricsF metrics(font, layoutDevice());
    const qreal w = width > 0 ? width : metrics.horizontalAdvance(text) + 1;
    return Figure{QSizeF(w, metrics.height()), [=](QPainter& painter) {
                      painter.setFont(font);
                      painter.setPen(colour);
                      painter.drawText(QRectF(0, 0, w, metrics.height()),
                                       Qt::AlignLeft | Qt::AlignVCenter, text);
                  }};
}

namespace {

// Whether the bracket opened at `open` holds a remark in words rather than a formula: longer
// than a short term and with a word in it ("(the arithmetic view subtracts …)"). Its spaces
// stay breakable: bound, the whole remark was one unit and broke inside a word ("the s hares").
bool holdsWords(const QString& text, qsizetype open) {
    int depth = 0;
    qsizetype close = text.size();
    for (qsizetype i = open; i < text.size(); ++i) {
        if (text[i] == u'[' || text[i] == u'(') {
            ++depth;
        } else if ((text[i] == u']' || text[i] == u')') && --depth == 0) {
            close = i;
            break;
        }
    }
    if (close - open <= 24) {
        return false;
    }
    int letters = 0;
    for (qsizetype i = open; i < close; ++i) {
        letters = text[i].isLetter() ? letters + 1 : 0;
        if (letters >= 4) {
            return true;
        }
    }
    return false;
}

} // namespace

QString keptTogether(const QString& text) {
    static const QString binders = QStringLiteral("=×·/÷−^");
    QString out;
    out.reserve(text.size());
    int depth = 0;
    std::vector<bool> bound; // per open bracket: whether it binds its spaces
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'[' || c == u'(') {
            bound.push_back(!holdsWords(text, i));
            depth += bound.back() ? 1 : 0;
        } else if ((c == u']' || c == u')') && !bound.empty()) {
            depth -= bound.back() ? 1 : 0;
            bound.pop_back();
        }
        if (c == u' ') {
            const QChar before = i > 0 ? text[i - 1] : QChar();
            const QChar after = i + 1 < text.size() ? text[i + 1] : QChar();
            if (depth > 0 || binders.contains(before) || binders.contains(after)) {
                out += QChar(QChar::Nbsp);
                continue;
            }
        }
        out += c;
    }
    return out;
}

QString htmlEscaped(const QString& text) {
    return text.toHtmlEscaped();
}

} // namespace attnbook

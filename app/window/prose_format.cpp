#include "app/window/prose_format.h"

#include "exports/html/html_escape.h"

#include <QQuickTextDocument>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>

namespace attnbook {
namespace {

// Heading sizes relative to the body text, h1 … h6.
constexpr double kHeadingScale[] = {1.7, 1.35, 1.15, 1.05, 1.0, 1.0};

void styleCharacters(QTextDocument& doc, const ProseStyle& style) {
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            QTextCharFormat format = fragment.charFormat();
            bool changed = false;
            if (format.isAnchor()) {
                format.setForeground(style.link);
                format.setFontUnderline(true);
                changed = true;
            }
            if (format.fontFixedPitch() &&
                !block.blockFormat().hasProperty(QTextFormat::BlockCodeFence)) {
                format.setBackground(style.codeBackground);
                format.setFontFamilies({style.monoFamily});
                changed = true;
            }
            if (changed) {
                QTextCursor cursor(&doc);
                cursor.setPosition(fragment.position());
                cursor.setPosition(fragment.position() + fragment.length(),
                                   QTextCursor::KeepAnchor);
                cursor.setCharFormat(format);
            }
        }
    }
}

// Tables read best with rules between the rows only, and a tinted header.
void styleTables(QTextFrame* frame, const ProseStyle& style) {
    for (QTextFrame* child : frame->childFrames()) {
        if (auto* table = qobject_cast<QTextTable*>(child)) {
            QTextTableFormat format = table->format();
            format.setBorder(1);
            format.setBorderBrush(style.rule);
            format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
            format.setBorderCollapse(true);
            format.setCellSpacing(0);
            format.setCellPadding(0);
            format.setTopMargin(4);
            format.setBottomMargin(14);
            table->setFormat(format);
            for (int r = 0; r < table->rows(); ++r) {
                for (int c = 0; c < table->columns(); ++c) {
                    QTextTableCell cell = table->cellAt(r, c);
                    QTextTableCellFormat cellFormat = cell.format().toTableCellFormat();
                    cellFormat.setLeftPadding(c == 0 ? 8 : 14);
                    cellFormat.setRightPadding(8);
                    cellFormat.setTopPadding(4);
                    cellFormat.setBottomPadding(4);
                    // Rules between the rows only: a collapsed grid draws
                    // each shared edge twice in Qt 6.4.
                    cellFormat.setLeftBorder(0);
                    cellFormat.setRightBorder(0);
                    cellFormat.setTopBorder(0);
                    cellFormat.setBottomBorder(1);
                    cellFormat.setBottomBorderBrush(r == 0 ? style.muted : style.rule);
                    cellFormat.setBottomBorderStyle(QTextFrameFormat::BorderStyle_Solid);
                    cellFormat.clearBackground();
                    cell.setFormat(cellFormat);
                }
            }
        }
        styleTables(child, style);
    }
}

} // namespace

QTextDocument::MarkdownFeatures lessonMarkdown() {
    return QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub |
                                           QTextDocument::MarkdownNoHTML);
}

QString ProseFormatter::markdownAsHtml(const QString& markdown) const {
    QTextDocument doc;
    doc.setMarkdown(markdown, lessonMarkdown());
    // The body's content only: its style would set a font over the item's own.
    const QString html = doc.toHtml();
    const qsizetype open = html.indexOf(QLatin1String("<body"));
    const qsizetype start = open < 0 ? -1 : html.indexOf(u'>', open);
    const qsizetype end = html.lastIndexOf(QLatin1String("</body>"));
    return start < 0 || end < start ? html : html.mid(start + 1, end - start - 1).trimmed();
}

QString ProseFormatter::escapedMarkup(const QString& text) const {
    return htmlPageText(text);
}

void formatProse(QTextDocument& doc, const QString& markdown, const ProseStyle& style) {
    QFont font = doc.defaultFont();
    font.setPixelSize(style.pixelSize);
    doc.setDefaultFont(font);
    // One edit block around the import and the styling: a document shown by a TextEdit lays
    // out and resizes once at the end, not after every block (per block, a 32 KB
    // paragraph-only lesson took 14 s to open).
    QTextCursor cursor(&doc);
    cursor.beginEditBlock();
    doc.setMarkdown(markdown, lessonMarkdown());

    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        cursor.setPosition(block.position());
        const int level = format.headingLevel();
        if (level > 0) {
            format.setTopMargin(level <= 2 ? 26 : 18);
            format.setBottomMargin(8);
            format.setLineHeight(115, QTextBlockFormat::ProportionalHeight);
            // The Markdown import sizes headings in points and by a relative
            // adjustment; both would override the pixel size.
            const int pixels = int(style.pixelSize * kHeadingScale[std::min(level, 6) - 1] + 0.5);
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextFragment fragment = it.fragment();
                QTextCharFormat heading = fragment.charFormat();
                heading.clearProperty(QTextFormat::FontPointSize);
                heading.clearProperty(QTextFormat::FontSizeAdjustment);
                heading.setProperty(QTextFormat::FontPixelSize, pixels);
                heading.setFontWeight(QFont::Bold);
                heading.setForeground(style.text);
                QTextCursor part(&doc);
                part.setPosition(fragment.position());
                part.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
                part.setCharFormat(heading);
            }
        } else if (format.hasProperty(QTextFormat::BlockCodeFence) || format.nonBreakableLines()) {
            // A code block: monospaced on a tinted band, its long lines wrapped within the
            // column (the Markdown import makes them unbreakable, which ran them past the
            // window's edge), a wrapped line's rest indented under its start.
            const int codePixels = int(style.pixelSize * 0.85 + 0.5);
            const qreal hang = 2 * 0.6 * codePixels; // two characters of a monospaced font
            format.setNonBreakableLines(false);
            format.setBackground(style.codeBackground);
            format.setLeftMargin(8 + hang);
            format.setTextIndent(-hang);
            format.setTopMargin(
                block.previous().blockFormat().background() == QBrush(style.codeBackground) ? 0
                                                                                            : 6);
            format.setBottomMargin(block.next().isValid() && block.next().blockFormat().hasProperty(
                                                                 QTextFormat::BlockCodeFence)
                                       ? 0
                                       : 12);
            format.setLineHeight(125, QTextBlockFormat::ProportionalHeight);
            QTextCharFormat code;
            code.setFontFamilies({style.monoFamily});
            code.setProperty(QTextFormat::FontPixelSize, codePixels);
            cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            cursor.mergeCharFormat(code);
        } else if (block.textList()) {
            format.setTopMargin(0);
            format.setBottomMargin(5);
            format.setLineHeight(140, QTextBlockFormat::ProportionalHeight);
        } else {
            format.setTopMargin(0);
            format.setBottomMargin(12);
            format.setLineHeight(145, QTextBlockFormat::ProportionalHeight);
        }
        cursor.setPosition(block.position());
        cursor.setBlockFormat(format);
    }
    styleCharacters(doc, style);
    cursor.endEditBlock();
    // After the edit block: the tables' frames join the frame tree only when it ends. In an
    // edit block of their own, so that a table's cells are announced (and laid out) once, not
    // cell by cell.
    cursor.beginEditBlock();
    styleTables(doc.rootFrame(), style);
    cursor.endEditBlock();
}

void ProseFormatter::present(QQuickTextDocument* target, const QString& markdown, int pixelSize,
                             const QColor& text, const QColor& link, const QColor& codeBackground,
                             const QColor& rule, const QColor& muted) const {
    if (!target || !target->textDocument()) {
        return;
    }
    ProseStyle style;
    style.pixelSize = pixelSize;
    style.text = text;
    style.link = link;
    style.codeBackground = codeBackground;
    style.rule = rule;
    style.muted = muted;
    style.tableHeader = codeBackground;
    formatProse(*target->textDocument(), markdown, style);
}

} // namespace attnbook

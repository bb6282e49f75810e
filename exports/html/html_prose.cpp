#include "exports/html/html_prose.h"

#include "core/present/live_marks.h"

#include "exports/html/html_escape.h"
#include "exports/paint/pdf_prose.h"

#include "core/document/sample_answers.h"

#include <QtGui/QTextBlock>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>
#include <QtGui/QTextFrame>
#include <QtGui/QTextList>
#include <QtGui/QTextTable>

#include <algorithm>

namespace attnbook {

namespace {

bool isRule(const QTextBlock& block) {
    return block.blockFormat().hasProperty(QTextFormat::BlockTrailingHorizontalRulerWidth);
}

int quoteLevel(const QTextBlock& block) {
    return block.blockFormat().intProperty(QTextFormat::BlockQuoteLevel);
}

// One run of text with its marks as nested inline elements, the link outermost. `boldByRole`:
// the block is bold already (a heading, a table's header), and Qt marks its runs bold.
QString runHtml(const QString& text, const QTextCharFormat& format, bool boldByRole) {
    QString html;
    if (format.isImageFormat()) {
        // An image would be fetched from somewhere: the page names it instead.
        const QString name = format.toImageFormat().name();
        return QStringLiteral("<span class=\"image\">[image: %1]</span>").arg(htmlPageText(name));
    }
    QString body = htmlPageText(text);
    body.replace(QChar::LineSeparator, QLatin1String("<br>"));
    body.replace(QChar::Nbsp, QLatin1String("&nbsp;"));
    body.remove(QChar::ObjectReplacementCharacter);
    if (format.fontStrikeOut()) {
        body = QStringLiteral("<s>%1</s>").arg(body);
    }
    if (format.fontItalic()) {
        body = QStringLiteral("<em>%1</em>").arg(body);
    }
    if (format.fontWeight() >= QFont::DemiBold && !boldByRole) {
        body = QStringLiteral("<strong>%1</strong>").arg(body);
    }
    if (format.fontFixedPitch()) {
        body = QStringLiteral("<code>%1</code>").arg(body);
    }
    if (format.isAnchor()) {
        const QString href = htmlPageHref(format.anchorHref());
        if (!href.isEmpty()) {
            body = QStringLiteral("<a href=\"%1\">%2</a>").arg(href, body);
        }
    }
    html += body;
    return html;
}

QString blockInlineHtml(const QTextBlock& block, bool boldByRole = false) {
    QString html;
    for (QTextBlock::iterator it = block.begin(); !it.atEnd(); ++it) {
        const QTextFragment fragment = it.fragment();
        html += runHtml(fragment.text(), fragment.charFormat(), boldByRole);
    }
    return html;
}

QString alignment(const QTextBlock& block) {
    const Qt::Alignment a = block.blockFormat().alignment();
    if (a & Qt::AlignRight) {
        return QStringLiteral(" class=\"right\"");
    }
    if (a & Qt::AlignHCenter) {
        return QStringLiteral(" class=\"centre\"");
    }
    return {};
}

// Writes the blocks and frames of one document, keeping track of the open lists, quote,
// code block and fold.
class ProseWriter {
  public:
    ProseWriter(HeadingIds& ids, std::vector<PageHeading>* headings,
                const ProseHtmlOptions& options)
        : ids_(ids), headings_(headings), options_(options) {}

    QString write(QTextDocument& doc) {
        writeFrame(doc.rootFrame());
        closeAll();
        closeFold();
        return out_;
    }

  private:
    struct OpenList {
        QTextList* list;
        int indent;
    };

    void writeFrame(QTextFrame* frame) {
        for (QTextFrame::iterator it = frame->begin(); !it.atEnd(); ++it) {
            if (QTextFrame* child = it.currentFrame()) {
                if (auto* table = qobject_cast<QTextTable*>(child)) {
                    closeAll();
                    writeTable(*table);
                } else {
                    writeFrame(child);
                }
            } else {
                writeBlock(it.currentBlock());
            }
        }
    }

    void writeBlock(const QTextBlock& block) {
        if (isCodeBlock(block)) {
            closeLists();
            closeQuote();
            if (!inCode_) {
                out_ += QLatin1String("<pre><code>");
                inCode_ = true;
            } else {
                out_ += u'\n';
            }
            QString text = htmlPageText(block.text());
            text.replace(QChar::LineSeparator, u'\n');
            text.replace(QChar::Nbsp, u' ');
            out_ += text;
            return;
        }
        closeCode();
        const int heading = block.blockFormat().headingLevel();
        const QString inlineHtml = blockInlineHtml(block, heading > 0);
        if (heading > 0) {
            closeAll();
            closeFold();
            const int level = std::clamp(heading + options_.headingShift, 1, 6);
            const QString text = block.text().trimmed();
            const QString id = ids_.take(text);
            if (headings_) {
                headings_->push_back({level, text, id});
            }
            out_ += QStringLiteral("<h%1 id=\"%2\">%3</h%1>\n")
                        .arg(level)
                        .arg(htmlPageText(id), inlineHtml);
            return;
        }
        if (isRule(block)) {
            closeAll();
            out_ += QLatin1String("<hr>\n");
            return;
        }
        if (QTextList* list = block.textList()) {
            closeQuote();
            writeListItem(*list, inlineHtml);
            return;
        }
        closeLists();
        if (block.text().trimmed().isEmpty()) {
            return;
        }
        if (quoteLevel(block) > 0) {
            if (!inQuote_) {
                out_ += QLatin1String("<blockquote>\n");
                inQuote_ = true;
            }
        } else {
            closeQuote();
        }
        if (options_.foldSampleAnswers && !inFold_ && namesSampleAnswer(block)) {
            out_ += QStringLiteral("<details class=\"sample-answer\"><summary>%1</summary>\n")
                        .arg(inlineHtml);
            inFold_ = true;
            return;
        }
        out_ += QStringLiteral("<p%1>%2</p>\n").arg(alignment(block), inlineHtml);
    }

    static bool namesSampleAnswer(const QTextBlock& block) {
        return attnbook::namesSampleAnswer(block.text().toStdString()); // the window's rule
    }

    void writeListItem(QTextList& list, const QString& inlineHtml) {
        const int indent = list.format().indent();
        while (!lists_.empty() && lists_.back().indent > indent) {
            closeList();
        }
        if (!lists_.empty() && lists_.back().indent == indent && lists_.back().list != &list) {
            closeList();
        }
        if (lists_.empty() || lists_.back().list != &list) {
            const QTextListFormat::Style style = list.format().style();
            const bool ordered = style == QTextListFormat::ListDecimal ||
                                 style == QTextListFormat::ListLowerAlpha ||
                                 style == QTextListFormat::ListUpperAlpha ||
                                 style == QTextListFormat::ListLowerRoman ||
                                 style == QTextListFormat::ListUpperRoman;
            out_ += ordered ? QStringLiteral("<ol>\n") : QStringLiteral("<ul>\n");
            lists_.push_back({&list, indent});
            itemOpen_.push_back(false);
        }
        if (itemOpen_.back()) {
            out_ += QLatin1String("</li>\n");
        }
        out_ += QStringLiteral("<li>%1").arg(inlineHtml);
        itemOpen_.back() = true;
    }

    void closeList() {
        if (itemOpen_.back()) {
            out_ += QLatin1String("</li>\n");
        }
        const QTextListFormat::Style style = lists_.back().list->format().style();
        out_ += style == QTextListFormat::ListDisc || style == QTextListFormat::ListCircle ||
                        style == QTextListFormat::ListSquare
                    ? QLatin1String("</ul>\n")
                    : QLatin1String("</ol>\n");
        lists_.pop_back();
        itemOpen_.pop_back();
        if (!itemOpen_.empty()) { // a nested list ends inside its parent's item
            out_ += u'\n';
        }
    }

    void closeLists() {
        while (!lists_.empty()) {
            closeList();
        }
    }

    void closeQuote() {
        if (inQuote_) {
            out_ += QLatin1String("</blockquote>\n");
            inQuote_ = false;
        }
    }

    void closeCode() {
        if (inCode_) {
            out_ += QLatin1String("</code></pre>\n");
            inCode_ = false;
        }
    }

    void closeAll() {
        closeCode();
        closeLists();
        closeQuote();
    }

    void closeFold() {
        if (inFold_) {
            out_ += QLatin1String("</details>\n");
            inFold_ = false;
        }
    }

    void writeTable(QTextTable& table) {
        // A Markdown table (GitHub's) always has one header row; Qt 6.4 does not mark it.
        const int headerRows = std::max(1, table.format().headerRowCount());
        out_ += QLatin1String("<div class=\"table-wrap\"><table>\n");
        for (int r = 0; r < table.rows(); ++r) {
            if (r == 0 && headerRows > 0) {
                out_ += QLatin1String("<thead>\n");
            }
            if (r == headerRows) {
                out_ += QLatin1String("<tbody>\n");
            }
            out_ += QLatin1String("<tr>");
            const bool head = r < headerRows;
            for (int c = 0; c < table.columns(); ++c) {
                const QTextTableCell cell = table.cellAt(r, c);
                QString content;
                QString align;
                for (QTextFrame::iterator it = cell.begin(); !it.atEnd(); ++it) {
                    const QTextBlock block = it.currentBlock();
                    if (block.isValid()) {
                        content += (content.isEmpty() ? QString() : QStringLiteral("<br>")) +
                                   blockInlineHtml(block, head);
                        if (align.isEmpty()) {
                            align = alignment(block);
                        }
                    }
                }
                out_ +=
                    QStringLiteral("<%1%2>%3</%1>")
                        .arg(head ? QStringLiteral("th") : QStringLiteral("td"), align, content);
            }
            out_ += QLatin1String("</tr>\n");
            if (head && r == headerRows - 1) {
                out_ += QLatin1String("</thead>\n");
            }
        }
        out_ += table.rows() > headerRows ? QLatin1String("</tbody>\n</table></div>\n")
                                          : QLatin1String("</table></div>\n");
    }

    HeadingIds& ids_;
    std::vector<PageHeading>* headings_;
    ProseHtmlOptions options_;
    QString out_;
    std::vector<OpenList> lists_;
    std::vector<bool> itemOpen_;
    bool inQuote_ = false;
    bool inCode_ = false;
    bool inFold_ = false;
};

// GitHub's Markdown, as the PDF reads it, except that raw HTML is text (md4c's NOHTML flags): a
// tag the lesson writes is shown as typed, as the notebook shows it, never read as markup.
void readMarkdown(QTextDocument& doc, const QString& markdown) {
    doc.setMarkdown(markdown, QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub |
                                                              QTextDocument::MarkdownNoHTML));
}

} // namespace

QString HeadingIds::take(const QString& text) {
    // A bound value in a heading is named by its value, as a reader reads it.
    const QString words = QString::fromStdString(withoutLiveMarks(text.toStdString()));
    QString base;
    for (const QChar c : words.toLower()) {
        if ((c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9')) {
            base += c;
        } else if (!base.isEmpty() && !base.endsWith(u'-')) {
            base += u'-';
        }
    }
    while (base.endsWith(u'-')) {
        base.chop(1);
    }
    if (base.isEmpty()) {
        base = QStringLiteral("section");
    }
    QString id = base;
    int& next = nextNumber_.try_emplace(base, 2).first->second;
    while (taken_.count(id)) {
        id = base + u'-' + QString::number(next++);
    }
    taken_.insert(id);
    return id;
}

QString proseHtml(const QString& markdown, HeadingIds& ids, std::vector<PageHeading>* headings,
                  const ProseHtmlOptions& options) {
    QTextDocument doc;
    readMarkdown(doc, markdown);
    return ProseWriter(ids, headings, options).write(doc);
}

QString inlineProseHtml(const QString& markdown) {
    QTextDocument doc;
    readMarkdown(doc, markdown);
    QString html;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        const QString part = blockInlineHtml(block);
        if (!part.isEmpty()) {
            html += (html.isEmpty() ? QString() : QStringLiteral("<br>")) + part;
        }
    }
    return html;
}

} // namespace attnbook

// The cut of a styled document (pdf_prose.cpp) into page boxes: one box per top-level block or
// frame, with the places a page may break inside it (between lines, never leaving one line
// alone, between table rows) and whether it must stay with what follows.
#include "exports/paint/pdf_prose.h"

#include "exports/paint/pdf_prose_marks.h"

#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QPainter>
#include <QtGui/QTextBlock>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>
#include <QtGui/QTextFrame>
#include <QtGui/QTextLayout>
#include <QtGui/QTextList>
#include <QtGui/QTextTable>

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

namespace attnbook {

namespace {

struct Rule {
    qreal y, left, right, width;
    QColor colour;
};

// The rules of a table, in document coordinates: above and below the header, between rows,
// below the last row. They sit halfway between the rows' text, measured from the laid-out
// lines (what blockBoundingRect reports for a cell is where its text is drawn).
std::vector<Rule> tableRules(QTextDocument& doc, QTextTable& table) {
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    const QRectF frame = layout->frameBoundingRect(&table);
    const qreal pad = table.format().cellPadding();
    std::vector<qreal> tops, bottoms;
    qreal left = frame.right(), right = frame.left();
    for (int r = 0; r < table.rows(); ++r) {
        qreal top = std::numeric_limits<qreal>::max(), bottom = 0;
        for (int c = 0; c < table.columns(); ++c) {
            const QTextTableCell cell = table.cellAt(r, c);
            const QRectF first = layout->blockBoundingRect(cell.firstCursorPosition().block());
            const QRectF last = layout->blockBoundingRect(cell.lastCursorPosition().block());
            top = std::min(top, first.top());
            bottom = std::max(bottom, last.bottom());
            left = std::min(left, first.left() - pad);
            right = std::max(right, first.right() + pad);
        }
        tops.push_back(top);
        bottoms.push_back(bottom);
    }
    right = frame.left() + std::max(right - frame.left(), qreal(0));
    std::vector<Rule> rules;
    if (tops.empty()) {
        return rules;
    }
    rules.push_back({tops.front() - pad, left, right, 0.8, pdf::kInk});
    for (size_t r = 1; r < tops.size(); ++r) {
        const qreal y = (bottoms[r - 1] + tops[r]) / 2;
        rules.push_back(r == 1 ? Rule{y, left, right, 0.5, pdf::kInk}
                               : Rule{y, left, right, 0.3, pdf::kRule});
    }
    rules.push_back({bottoms.back() + pad, left, right, 0.8, pdf::kInk});
    return rules;
}

// A slice of a laid-out document: one top-level block or frame (with the empty blocks after it).
class ProseSliceBox : public PdfBox {
  public:
    ProseSliceBox(std::shared_ptr<QTextDocument> doc, qreal top, qreal bottom,
                  std::vector<qreal> breaks, bool clipped, std::vector<Rule> rules,
                  QTextBlock block)
        : doc_(std::move(doc)), top_(top), bottom_(bottom), breaks_(std::move(breaks)),
          clipped_(clipped), rules_(std::move(rules)), block_(block) {}

    qreal height() const override { return bottom_ - top_; }
    std::vector<qreal> breaks() const override { return breaks_; }

    void paint(QPainter& painter, qreal from, qreal to) const override {
        painter.save();
        painter.translate(0, -top_);
        if (block_.isValid() && (from > 0 || to < height())) {
            paintLines(painter, from, to);
            painter.restore();
            return;
        }
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette.setColor(QPalette::Text, pdf::kInk);
        context.palette.setColor(QPalette::Link, pdf::kAccent);
        // Lines are drawn whole when they touch the clip: keep it inside the cut lines.
        context.clip = QRectF(-50, top_ + from + 0.5, doc_->textWidth() + 100, to - from - 1.0);
        if (clipped_) {
            painter.setClipRect(QRectF(-50, top_ + from, doc_->textWidth() + 100, to - from));
        }
        doc_->documentLayout()->draw(&painter, context);
        for (const Rule& rule : rules_) {
            if (rule.y >= top_ + from - 0.5 && rule.y <= top_ + to + 0.5) {
                painter.setPen(QPen(rule.colour, rule.width));
                painter.drawLine(QPointF(rule.left, rule.y), QPointF(rule.right, rule.y));
            }
        }
        painter.restore();
    }

  private:
    // Part of a paragraph: exactly the lines that start in [from, to). QTextLayout::draw with a
    // clip also draws the last line above the clip (Qt 6.4), which would print, and be found
    // by a reader's search, on two pages.
    void paintLines(QPainter& painter, qreal from, qreal to) const {
        const QTextLayout* layout = block_.layout();
        const QPointF origin = layout->position();
        painter.setPen(pdf::kInk);
        for (int i = 0; i < layout->lineCount(); ++i) {
            const QTextLine line = layout->lineAt(i);
            const qreal y = origin.y() + line.y() - top_;
            if (y >= from - 0.5 && y < to - 0.5) {
                line.draw(&painter, origin);
            }
        }
    }

    std::shared_ptr<QTextDocument> doc_;
    qreal top_, bottom_;
    std::vector<qreal> breaks_;
    bool clipped_;
    std::vector<Rule> rules_;
    QTextBlock block_; // a paragraph, drawn line by line when only part of it is shown
};

// Cuts between lines, keeping at least two lines on each side (no widows or orphans).
void addLineBreaks(const QTextBlock& block, qreal chunkTop, std::vector<qreal>& out) {
    const QTextLayout* layout = block.layout();
    const int lines = layout ? layout->lineCount() : 0;
    for (int i = 2; i + 2 <= lines; ++i) {
        out.push_back(layout->position().y() + layout->lineAt(i).y() - chunkTop);
    }
}

} // namespace

std::vector<PdfBoxPtr> proseBoxes(const std::shared_ptr<QTextDocument>& doc, qreal spaceBefore) {
    struct Chunk {
        qreal top = 0;
        std::vector<qreal> breaks; // absolute until the chunk's top is known
        bool heading = false;
        int headingLevel = 0;
        bool introduces = false; // a paragraph ending in ':'
        bool shortLine = false;  // one line, like a run-in title ("**Sample answer**")
        bool frame = false;      // a code block or a table
        bool keepTogether = false;
        bool clipped = false;
        bool empty = false;
        std::vector<Rule> rules;
        QTextBlock block; // when the chunk is a paragraph
    };
    QAbstractTextDocumentLayout* layout = doc->documentLayout();
    std::vector<Chunk> chunks;
    for (QTextFrame::iterator it = doc->rootFrame()->begin(); !it.atEnd(); ++it) {
        Chunk chunk;
        if (QTextFrame* frame = it.currentFrame()) {
            chunk.top = layout->frameBoundingRect(frame).top();
            chunk.frame = true;
            chunk.keepTogether = true;
            chunk.clipped = true;
            if (auto* table = qobject_cast<QTextTable*>(frame)) {
                chunk.rules = tableRules(*doc, *table);
                if (!chunk.rules.empty()) { // the top rule sits above the frame's reported top
                    chunk.top = std::min(chunk.top, chunk.rules.front().y - 1);
                }
                for (int r = 3; r + 1 < table->rows(); ++r) {
                    chunk.breaks.push_back(
                        layout->blockBoundingRect(table->cellAt(r, 0).firstCursorPosition().block())
                            .top() -
                        2.5);
                }
            } else { // code
                std::vector<qreal> lines;
                for (QTextFrame::iterator inner = frame->begin(); !inner.atEnd(); ++inner) {
                    if (inner.currentBlock().isValid()) {
                        lines.push_back(layout->blockBoundingRect(inner.currentBlock()).top());
                    }
                }
                for (size_t i = 2; i + 2 <= lines.size(); ++i) {
                    chunk.breaks.push_back(lines[i]);
                }
            }
        } else {
            const QTextBlock block = it.currentBlock();
            chunk.block = block;
            chunk.top = layout->blockBoundingRect(block).top();
            chunk.empty = block.length() <= 1 && !block.textList();
            chunk.headingLevel = block.blockFormat().headingLevel();
            chunk.heading = chunk.headingLevel > 0;
            chunk.introduces = block.text().trimmed().endsWith(u':');
            const bool listItem = block.textList() || block.blockFormat().boolProperty(kBulletItem);
            chunk.shortLine = !listItem && block.layout() && block.layout()->lineCount() == 1;
            addLineBreaks(block, 0, chunk.breaks);
        }
        if (chunk.empty && !chunks.empty()) {
            continue; // belongs to the chunk before it
        }
        chunks.push_back(std::move(chunk));
    }
    const qreal end = layout->documentSize().height();
    std::vector<PdfBoxPtr> boxes;
    for (size_t i = 0; i < chunks.size(); ++i) {
        const Chunk& c = chunks[i];
        const qreal bottom = i + 1 < chunks.size() ? chunks[i + 1].top : end;
        if (bottom - c.top < 0.5) {
            continue;
        }
        std::vector<qreal> breaks;
        for (qreal b : c.breaks) {
            if (b - c.top > 0.5 && b < bottom - 0.5) {
                breaks.push_back(b - c.top);
            }
        }
        auto box = std::make_shared<ProseSliceBox>(doc, c.top, bottom, std::move(breaks), c.clipped,
                                                   c.rules, c.block);
        // A heading, a paragraph ending in ':' and a one-line paragraph before a code block or a
        // table introduce what follows: never last on a page.
        const bool beforeFrame = i + 1 < chunks.size() && chunks[i + 1].frame;
        box->keepWithNext = c.heading || c.introduces || (c.shortLine && beforeFrame);
        box->keepTogether = c.keepTogether;
        if (c.heading && c.block.isValid()) {
            box->outlineLevel = c.headingLevel;
            box->outlineTitle = c.block.text().simplified();
        }
        box->spaceBefore = boxes.empty() ? spaceBefore : 0;
        boxes.push_back(std::move(box));
    }
    return boxes;
}

} // namespace attnbook

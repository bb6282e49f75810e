#include "exports/paint/pdf_layout.h"

#include <QtGui/QPainter>

#include <algorithm>

namespace attnbook {

namespace {
constexpr qreal kEpsilon = 0.01;
} // namespace

void FigureRowsBox::addRow(Row row) {
    if (row.figures.empty()) {
        return;
    }
    Placed placed;
    qreal natural = 0;
    qreal tallest = 0;
    for (const Figure& f : row.figures) {
        natural += f.size.width();
        tallest = std::max(tallest, f.size.height());
    }
    natural += row.gap * qreal(row.figures.size() - 1);
    placed.naturalWidth = natural;
    placed.scale = 1.0;
    if (natural > width_) {
        placed.scale = width_ / natural;
    }
    if (tallest * placed.scale > maxRowHeight_) {
        placed.scale = maxRowHeight_ / tallest;
    }
    placed.height = tallest * placed.scale;
    placed.top = height_ + (rows_.empty() ? 0 : row.spaceBefore);
    placed.row = std::move(row);
    height_ = placed.top + placed.height;
    rows_.push_back(std::move(placed));
}

void FigureRowsBox::addFlow(const std::vector<Figure>& figures, qreal gap, qreal spaceBefore) {
    Row row;
    row.gap = gap;
    row.spaceBefore = spaceBefore;
    qreal used = 0;
    for (const Figure& f : figures) {
        const qreal need = (row.figures.empty() ? 0 : gap) + f.size.width();
        if (!row.figures.empty() && used + need > width_) {
            addRow(row);
            row.figures.clear();
            used = 0;
        }
        used += row.figures.empty() ? f.size.width() : need;
        row.figures.push_back(f);
    }
    addRow(row);
}

void FigureRowsBox::paint(QPainter& painter, qreal from, qreal to) const {
    for (const Placed& placed : rows_) {
        if (placed.top + kEpsilon < from || placed.top + placed.height > to + kEpsilon) {
            continue;
        }
        painter.save();
        qreal x = placed.row.centred ? (width_ - placed.naturalWidth * placed.scale) / 2 : 0;
        painter.translate(x, placed.top);
        painter.scale(placed.scale, placed.scale);
        qreal left = 0;
        for (const Figure& f : placed.row.figures) {
            painter.save();
            painter.translate(left, 0);
            f.paint(painter);
            painter.restore();
            left += f.size.width() + placed.row.gap;
        }
        painter.restore();
    }
}

void FigureRowsBox::addGroups(const std::vector<std::vector<Figure>>& groups, qreal gap,
                              qreal spaceBefore) {
    Row row;
    row.gap = gap;
    row.spaceBefore = spaceBefore;
    qreal used = 0;
    const auto flush = [&] {
        addRow(row);
        row.figures.clear();
        used = 0;
    };
    for (const std::vector<Figure>& group : groups) {
        qreal groupWidth = 0;
        for (const Figure& f : group) {
            groupWidth += f.size.width() + (groupWidth > 0 ? gap : 0);
        }
        if (!row.figures.empty() && used + gap + groupWidth > width_) {
            flush();
        }
        for (const Figure& f : group) {
            const qreal need = (row.figures.empty() ? 0 : gap) + f.size.width();
            if (!row.figures.empty() && used + need > width_) {
                flush();
            }
            used += row.figures.empty() ? f.size.width() : need;
            row.figures.push_back(f);
        }
    }
    addRow(row);
}

std::vector<qreal> FigureRowsBox::breaks() const {
    std::vector<qreal> out;
    for (size_t i = 1; i < rows_.size(); ++i) {
        if (!rows_[i - 1].row.keepWithNext) {
            out.push_back(rows_[i].top);
        }
    }
    return out;
}

namespace {

// A box that should stay whole is still cut, at one of its breaks, when moving it whole to the
// next page would leave more than this share of the page empty.
constexpr qreal kMostEmpty = 1.0 / 3.0;

// Whether a box that does not fit in `room` is cut there rather than moved whole.
bool cutsInto(const PdfBox& box, qreal room, qreal pageHeight) {
    const std::vector<qreal> breaks = box.breaks();
    if (breaks.empty() || box.keepWithNext) {
        return false;
    }
    if (!box.keepTogether || box.height() > pageHeight) {
        return true;
    }
    return room > pageHeight * kMostEmpty && breaks.front() <= room + kEpsilon;
}

// The least of a box that must come onto a page with what keeps with it, given `room`: all of
// it when it fits or moves whole, else its first piece.
qreal firstPiece(const PdfBox& box, qreal room, qreal pageHeight) {
    if (box.height() <= room + kEpsilon || !cutsInto(box, room, pageHeight)) {
        return box.height();
    }
    return box.breaks().front();
}

// What the boxes from `i` on that are chained by keep-with-next need on the page after a box
// that keeps with them, when `room` is left there.
qreal chainNeed(const std::vector<PdfBoxPtr>& boxes, size_t i, qreal room, qreal pageHeight,
                int depth = 0) {
    if (i >= boxes.size() || depth > 8) {
        return 0;
    }
    const PdfBox& box = *boxes[i];
    const qreal piece = firstPiece(box, room - box.spaceBefore, pageHeight);
    qreal need = box.spaceBefore + piece;
    if (box.keepWithNext && piece >= box.height()) {
        need += chainNeed(boxes, i + 1, room - need, pageHeight, depth + 1);
    }
    return need;
}

} // namespace

void paginate(PdfSection& section, qreal H) {
    std::vector<PdfPage>& pages = section.pages;
    pages.assign(1, PdfPage{});
    qreal y = 0;
    const auto newPage = [&] {
        pages.push_back(PdfPage{});
        y = 0;
    };
    const auto place = [&](const PdfBox* box, qreal from, qreal to, qreal at) {
        pages.back().items.push_back({box, from, to, at});
        y = at + (to - from);
    };
    for (size_t i = 0; i < section.boxes.size(); ++i) {
        const PdfBox& box = *section.boxes[i];
        const qreal h = box.height();
        if (box.pageBreakBefore && !pages.back().items.empty()) {
            newPage();
        }
        qreal gap = pages.back().items.empty() ? 0 : box.spaceBefore;
        qreal need = h;
        if (box.keepWithNext) {
            const qreal chained = h + chainNeed(section.boxes, i + 1, H - y - gap - h, H);
            // A chain that could never fit on one page keeps only what fits.
            if (h + chainNeed(section.boxes, i + 1, H - h, H) <= H + kEpsilon) {
                need = chained;
            }
        }
        if (y + gap + need <= H + kEpsilon) {
            place(&box, 0, h, y + gap);
            continue;
        }
        const std::vector<qreal> breaks = box.breaks();
        const bool splitHere = cutsInto(box, H - y - gap, H);
        if (!splitHere) {
            if (!pages.back().items.empty()) {
                newPage();
            }
            if (h <= H + kEpsilon || breaks.empty()) {
                place(&box, 0, h, 0); // taller than a page and uncuttable: it overflows
                continue;
            }
            gap = 0;
        }
        // Cut the box at its breaks, filling each page as far as a break allows.
        qreal from = 0;
        qreal at = y + gap;
        while (true) {
            const qreal room = H - at;
            if (h - from <= room + kEpsilon) {
                place(&box, from, h, at);
                break;
            }
            qreal cut = -1;
            for (qreal b : breaks) {
                if (b > from + kEpsilon && b - from <= room + kEpsilon) {
                    cut = b;
                }
            }
            if (cut < 0) {
                if (!pages.back().items.empty()) {
                    newPage();
                    at = 0;
                    continue;
                }
                // Not even the first piece fits on an empty page: let it overflow.
                const auto next = std::find_if(breaks.begin(), breaks.end(),
                                               [&](qreal b) { return b > from + kEpsilon; });
                cut = next == breaks.end() ? h : *next;
            }
            place(&box, from, cut, at);
            if (cut >= h) {
                break;
            }
            newPage();
            from = cut;
            at = 0;
        }
    }
    if (pages.size() > 1 && pages.back().items.empty()) {
        pages.pop_back();
    }
}

int pageCount(const std::vector<const PdfSection*>& sections) {
    int count = 0;
    for (const PdfSection* s : sections) {
        count += int(s->pages.size());
    }
    return count;
}

} // namespace attnbook

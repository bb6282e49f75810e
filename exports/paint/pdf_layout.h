#pragma once
// A small page-layout engine for the printed lesson and the worksheets. A document is a list of
// boxes, each measured once at the content width; pagination places them top to bottom, moves a
// box that must stay whole to the next page, cuts the others only where they allow (between
// lines of a paragraph, between rows of figures), and keeps headings with what follows. Painting
// is a separate, sequential step into one QPdfWriter.

#include "exports/paint/pdf_outline.h"
#include "exports/paint/pdf_style.h"
#include "files/export_control.h"

#include <QtCore/QSizeF>
#include <QtCore/QString>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QIODevice;
class QPainter;

namespace attnbook {

class PdfBox {
  public:
    virtual ~PdfBox() = default;
    virtual qreal height() const = 0;
    // Paints the part [from, to) of the box. The painter's origin is the box's own (0, 0), moved
    // so that `from` lands where the part starts on the page; nothing outside [from, to) may be
    // drawn (it would print, and be extracted as text, twice).
    virtual void paint(QPainter& painter, qreal from, qreal to) const = 0;
    // Where the box may be cut, ascending, strictly between 0 and height().
    virtual std::vector<qreal> breaks() const { return {}; }

    qreal spaceBefore = 0;     // dropped at the top of a page
    bool keepWithNext = false; // a heading or caption: never last on a page
    bool keepTogether = false; // moves whole to the next page unless taller than a page
    bool pageBreakBefore = false;
    // A heading: listed in the PDF's outline at this level (0: not listed).
    int outlineLevel = 0;
    QString outlineTitle;
    // The cell view it shows ("next", "stream", …), or "": the web page redraws some views
    // live (docs/web-page.md) and needs to know which box is which.
    std::string view;
};

using PdfBoxPtr = std::shared_ptr<const PdfBox>;

// Something measured and painted at its own top-left: a table, a heatmap, a block of text.
struct Figure {
    QSizeF size;
    std::function<void(QPainter&)> paint;
};

// Rows of figures side by side, each row left-aligned (or centred) within `width`. May be cut
// between rows only (never after a row that keeps with the next); a row taller than
// `maxRowHeight` is scaled down to fit a page.
class FigureRowsBox : public PdfBox {
  public:
    struct Row {
        std::vector<Figure> figures;
        qreal gap = 14;        // between figures
        qreal spaceBefore = 0; // above the row (not at the top of the box)
        bool centred = false;
        bool keepWithNext = false; // a title: no cut between it and the next row
    };
    FigureRowsBox(qreal width, qreal maxRowHeight) : width_(width), maxRowHeight_(maxRowHeight) {}

    void addRow(Row row);
    // Adds figures, wrapping them into as many rows as the width needs.
    void addFlow(const std::vector<Figure>& figures, qreal gap = 14, qreal spaceBefore = 6);
    // Like addFlow, but a group that fits on a row is never split over two.
    void addGroups(const std::vector<std::vector<Figure>>& groups, qreal gap = 14,
                   qreal spaceBefore = 6);
    bool empty() const { return rows_.empty(); }

    qreal height() const override { return height_; }
    void paint(QPainter& painter, qreal from, qreal to) const override;
    std::vector<qreal> breaks() const override;

  private:
    struct Placed {
        Row row;
        qreal top = 0;
        qreal height = 0; // after scaling
        qreal scale = 1;
        qreal naturalWidth = 0;
    };
    qreal width_;
    qreal maxRowHeight_;
    qreal height_ = 0;
    std::vector<Placed> rows_;
};

// A box that is only empty space (for example the room left for a name).
class SpaceBox : public PdfBox {
  public:
    explicit SpaceBox(qreal h) : h_(h) {}
    qreal height() const override { return h_; }
    void paint(QPainter&, qreal, qreal) const override {}

  private:
    qreal h_;
};

struct PdfPlacement {
    const PdfBox* box = nullptr;
    qreal from = 0; // the part of the box on this page
    qreal to = 0;
    qreal y = 0; // where it starts, from the top of the content area
};

struct PdfPage {
    std::vector<PdfPlacement> items;
};

// One run of pages with its own page numbers and running head: the lesson, or one variant.
struct PdfSection {
    std::vector<PdfBoxPtr> boxes;
    QString headerLeft, headerRight; // small print above the content of every page
    QString footerLeft;              // beside "Page 2 of 5"
    std::vector<PdfPage> pages;      // filled by paginate()
};

// Places the section's boxes on pages of `contentHeight` points.
void paginate(PdfSection& section, qreal contentHeight);

int pageCount(const std::vector<const PdfSection*>& sections);

} // namespace attnbook

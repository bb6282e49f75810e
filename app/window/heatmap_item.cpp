// Longer than 500 lines on purpose: one painted item, whose layout, image cache, painting and
// hover description all read the same geometry (left_, top_, square_) and label choices.
#include "app/window/heatmap_item.h"

#include "app/models/attention_cell_model.h"
#include "app/models/number_text.h"
#include "core/math/number_format.h"
#include "core/math/shares_shown.h"
#include "core/math/worked_steps.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QPainter>

#include <cmath>

namespace attnbook {
namespace {

// Below these sizes (in pixels) the squares carry no text: a label or a
// number that does not fit is worse than none.
constexpr qreal kValueSquare = 34.0;
constexpr qreal kGridSquare = 12.0;
constexpr qreal kHatchSquare = 5.0;
constexpr qreal kMaxLabelWidth = 110.0;
constexpr int kMaxLabelled = 64; // more rows than this get sparse index labels

// A square's number: the whole grid whole (1, 0), or every square with two decimals (allWhole).
QString squareText(double value, bool signedChange, bool wholeGrid = false) {
    QString text =
        QString::fromStdString(wholeGrid ? readableNumber(value, 2) : fixedNumber(value, 2));
    if (signedChange && value > 0 && text != QLatin1String("0")) {
        text.prepend(QLatin1Char('+'));
    }
    return text;
}

} // namespace

HeatmapItem::HeatmapItem(QQuickItem* parent) : QQuickPaintedItem(parent) {
    setAntialiasing(false);
    setOpaquePainting(false);
    font_.setPixelSize(12);
}

void HeatmapItem::setCell(AttentionCellModel* cell) {
    if (cell_ == cell) {
        return;
    }
    if (cell_) {
        disconnect(cell_, nullptr, this, nullptr);
    }
    cell_ = cell;
    if (cell_) {
        connect(cell_, &AttentionCellModel::recomputed, this, &HeatmapItem::dataChanged);
    }
    dataChanged();
    Q_EMIT cellChanged();
}

void HeatmapItem::setHead(int head) {
    if (head_ != head) {
        head_ = head;
        dataChanged();
        Q_EMIT headChanged();
    }
}

void HeatmapItem::setChange(bool change) {
    if (change_ != change) {
        change_ = change;
        dataChanged();
        Q_EMIT changeChanged();
    }
}

void HeatmapItem::setDark(bool dark) {
    if (palette_.dark != dark) {
        palette_.dark = dark;
        imageStale_ = true;
        valuesStale_ = true;
        update();
        Q_EMIT styleChanged();
    }
}

void HeatmapItem::setScaleTop(double top) {
    top = std::clamp(std::isfinite(top) ? top : 1.0, 1e-9, 1.0);
    if (scaleTop_ != top) {
        scaleTop_ = top;
        dataChanged();
        Q_EMIT changeChanged();
    }
}

void HeatmapItem::setTextColor(const QColor& colour) {
    if (textColor_ != colour) {
        textColor_ = colour;
        update();
        Q_EMIT styleChanged();
    }
}

void HeatmapItem::setAccentColor(const QColor& colour) {
    if (accentColor_ != colour) {
        accentColor_ = colour;
        update();
        Q_EMIT styleChanged();
    }
}

void HeatmapItem::setBackgroundColor(const QColor& colour) {
    if (backgroundColor_ != colour) {
        backgroundColor_ = colour;
        update();
        Q_EMIT styleChanged();
    }
}

void HeatmapItem::setFont(const QFont& font) {
    if (font_ != font) {
        font_ = font;
        valuesStale_ = true;
        textCache_.clear();
        relayout();
        Q_EMIT styleChanged();
    }
}

void HeatmapItem::setMaximumSquare(qreal size) {
    if (maximumSquare_ != size) {
        maximumSquare_ = size;
        relayout();
        Q_EMIT styleChanged();
    }
}

bool HeatmapItem::valuesShown() const {
    return square_ >= kValueSquare;
}

int HeatmapItem::effectiveHead() const {
    if (!cell_) {
        return -1;
    }
    const int heads = int(cell_->result().head.size());
    return heads == 0 ? -1 : std::clamp(head_, 0, heads - 1);
}

bool HeatmapItem::showsChange() const {
    return change_ && cell_ && cell_->compareAvailable();
}

void HeatmapItem::geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) {
    QQuickPaintedItem::geometryChange(newGeometry, oldGeometry);
    if (newGeometry.width() != oldGeometry.width()) {
        relayout();
    }
}

void HeatmapItem::dataChanged() {
    imageStale_ = true;
    valuesStale_ = true;
    double range = 0.0;
    if (showsChange()) {
        range = largestShareChange(cell_->result(), cell_->authoredResult());
    }
    if (range != changeRange_) {
        changeRange_ = range;
        Q_EMIT changeRangeChanged();
    }
    relayout();
}

void HeatmapItem::relayout() {
    const AttentionResult* r = cell_ ? &cell_->result() : nullptr;
    rows_ = r ? r->n : 0;
    columns_ = r ? r->m : 0;
    const QFontMetricsF metrics(font_);
    qreal left = 0.0, widest = 0.0;
    rowLabels_ = rows_ <= kMaxLabelled;
    columnLabels_ = columns_ <= kMaxLabelled;
    if (r) {
        for (int i = 0; i < rows_ && rowLabels_; ++i) {
            left = std::max(left,
                            metrics.horizontalAdvance(QString::fromStdString(queryLabel(*r, i))));
        }
        for (int i = 0; i < columns_ && columnLabels_; ++i) {
            widest = std::max(widest,
                              metrics.horizontalAdvance(QString::fromStdString(keyLabel(*r, i))));
        }
    }
    if (!rowLabels_) {
        left = metrics.horizontalAdvance(QString::number(rows_));
    }
    left_ = std::min(left, kMaxLabelWidth) + 10.0;
    qreal square = columns_ > 0 ? std::min(maximumSquare_, (width() - left_ - 2.0) / columns_) : 0;
    square = std::max<qreal>(square, 0.25);
    if (square >= 3.0) {
        square = std::floor(square); // whole pixels keep the grid even
    }
    square_ = square;
    if (columnLabels_ && square_ < metrics.height()) {
        columnLabels_ = false; // too narrow for one label per column
    }
    rotatedColumnLabels_ = columnLabels_ && widest + 6.0 > square_;
    top_ = rotatedColumnLabels_ ? std::min(widest, kMaxLabelWidth) + 10.0 : metrics.height() + 8.0;
    setImplicitWidth(left_ + columns_ * maximumSquare_ + 2.0);
    setImplicitHeight(top_ + rows_ * square_ + 2.0);
    Q_EMIT layoutChanged();
    update();
}

void HeatmapItem::buildImage() {
    imageStale_ = false;
    const int head = effectiveHead();
    if (head < 0 || rows_ == 0 || columns_ == 0) {
        image_ = QImage();
        return;
    }
    if (image_.width() != columns_ || image_.height() != rows_) {
        image_ = QImage(columns_, rows_, QImage::Format_RGB32);
    }
    const HeadResult& h = cell_->result().head[size_t(head)];
    const bool change = showsChange();
    const HeadResult* was = change ? &cell_->authoredResult().head[size_t(head)] : nullptr;
    const double scale = changeRange_ > 0 ? 1.0 / changeRange_ : 0.0;
    const QRgb blocked = palette_.blocked().rgb();
    const double stretch = 1.0 / scaleTop_;
    for (int row = 0; row < rows_; ++row) {
        // One query's shares are one contiguous column of the key-major table.
        const double* weights = h.weightsT.colptr(arma::uword(row));
        const double* scores = h.scoresT.colptr(arma::uword(row));
        const double* before = was ? was->weightsT.colptr(arma::uword(row)) : nullptr;
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(row));
        for (int c = 0; c < columns_; ++c) {
            if (before) {
                line[c] = palette_.change((weights[c] - before[c]) * scale);
            } else if (scores[c] == -arma::datum::inf) {
                line[c] = blocked;
            } else {
                line[c] = palette_.share(weights[c] * stretch);
            }
        }
    }
}

void HeatmapItem::buildValues() {
    valuesStale_ = false;
    if (textCache_.size() > 4096) {
        textCache_.clear(); // signed changes can have many forms; keep it small
    }
    values_.clear();
    valueColours_.clear();
    const int head = effectiveHead();
    if (head < 0 || image_.isNull()) {
        return;
    }
    const HeadResult& h = cell_->result().head[size_t(head)];
    const bool change = showsChange();
    const HeadResult* was = change ? &cell_->authoredResult().head[size_t(head)] : nullptr;
    values_.reserve(size_t(rows_) * size_t(columns_));
    std::vector<double> numbers;
    numbers.reserve(size_t(rows_) * size_t(columns_));
    for (int row = 0; row < rows_; ++row) {
        for (int c = 0; c < columns_; ++c) {
            const auto rr = arma::uword(row), cc = arma::uword(c);
            numbers.push_back(was ? h.weight(rr, cc) - was->weight(rr, cc) : h.weight(rr, cc));
        }
    }
    const bool wholeGrid = allWhole(numbers.data(), numbers.size());
    for (int row = 0; row < rows_; ++row) {
        const QRgb* line = reinterpret_cast<const QRgb*>(image_.constScanLine(row));
        for (int c = 0; c < columns_; ++c) {
            const double value = numbers[size_t(row) * size_t(columns_) + size_t(c)];
            const QString text = squareText(value, change, wholeGrid);
            auto found = textCache_.find(text);
            if (found == textCache_.end()) {
                QStaticText laidOut(text);
                laidOut.setPerformanceHint(QStaticText::AggressiveCaching);
                laidOut.prepare(QTransform(), font_);
                found = textCache_.insert(text, laidOut);
            }
            values_.push_back(&found.value());
            valueColours_.push_back(HeatPalette::textOn(line[c]));
        }
    }
}

void HeatmapItem::paint(QPainter* painter) {
    QElapsedTimer timer;
    timer.start();
    if (imageStale_) {
        buildImage();
    }
    if (image_.isNull()) {
        lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
        return;
    }
    const AttentionResult& r = cell_->result();
    paintSquares(painter, r.head[size_t(effectiveHead())]);
    painter->setFont(font_);
    if (valuesShown()) {
        paintValues(painter);
    }
    const int focus = std::clamp(cell_->focus(), 0, rows_ - 1);
    paintRowLabels(painter, r, focus);
    paintColumnLabels(painter, r);
    paintFocus(painter, focus);
    lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
}

void HeatmapItem::paintSquares(QPainter* painter, const HeadResult& h) {
    const QRectF grid(left_, top_, square_ * columns_, square_ * rows_);
    // Shrinking many entries into few pixels averages them; growing a few
    // must keep sharp edges.
    if (square_ >= kGridSquare) {
        // Few large squares: solid fills, cheaper than scaling the image up.
        for (int row = 0; row < rows_; ++row) {
            const QRgb* line = reinterpret_cast<const QRgb*>(image_.constScanLine(row));
            for (int c = 0; c < columns_; ++c) {
                painter->fillRect(squareRect(row, c), QColor::fromRgb(line[c]));
            }
        }
    } else {
        painter->setRenderHint(QPainter::SmoothPixmapTransform, square_ < 1.0);
        painter->drawImage(grid, image_);
    }
    if (square_ >= kHatchSquare && !showsChange()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QBrush(palette_.dark ? QColor(120, 120, 128) : QColor(150, 150, 158),
                                 Qt::BDiagPattern));
        for (int row = 0; row < rows_; ++row) {
            for (int c = 0; c < columns_; ++c) {
                if (h.blocked(arma::uword(row), arma::uword(c))) {
                    painter->drawRect(squareRect(row, c));
                }
            }
        }
    }
    if (square_ >= kGridSquare) {
        painter->setPen(QPen(backgroundColor_, 1.0));
        for (int c = 1; c < columns_; ++c) {
            painter->drawLine(QPointF(left_ + c * square_, top_),
                              QPointF(left_ + c * square_, grid.bottom()));
        }
        for (int row = 1; row < rows_; ++row) {
            painter->drawLine(QPointF(left_, top_ + row * square_),
                              QPointF(grid.right(), top_ + row * square_));
        }
    }
}

void HeatmapItem::paintValues(QPainter* painter) {
    if (valuesStale_ || values_.size() != size_t(rows_) * size_t(columns_)) {
        buildValues();
    }
    for (int row = 0; row < rows_; ++row) {
        for (int c = 0; c < columns_; ++c) {
            const size_t i = size_t(row) * size_t(columns_) + size_t(c);
            const QSizeF size = values_[i]->size();
            painter->setPen(valueColours_[i]);
            painter->drawStaticText(QPointF(left_ + c * square_ + (square_ - size.width()) / 2,
                                            top_ + row * square_ + (square_ - size.height()) / 2),
                                    *values_[i]);
        }
    }
}

// Tokens when each row has room (the focus row's in bold), else every k-th index.
void HeatmapItem::paintRowLabels(QPainter* painter, const AttentionResult& r, int focus) {
    const QFontMetricsF metrics(font_);
    painter->setPen(textColor_);
    const int rowStep =
        rowLabels_ ? 1 : std::max(1, int(std::ceil(metrics.height() * 2 / square_)));
    for (int row = 0; row < rows_; row += rowStep) {
        const QString text =
            rowLabels_ ? QString::fromStdString(queryLabel(r, row)) : QString::number(row + 1);
        QFont f = font_;
        f.setBold(row == focus && rowLabels_);
        painter->setFont(f);
        const QRectF box(0, top_ + row * square_, left_ - 6.0, std::max(square_, metrics.height()));
        painter->drawText(box, Qt::AlignRight | (rowLabels_ ? Qt::AlignVCenter : Qt::AlignTop),
                          metrics.elidedText(text, Qt::ElideRight, kMaxLabelWidth));
    }
    painter->setFont(font_);
}

// Tokens when each column has room (turned upright when they are wider), else every k-th index.
void HeatmapItem::paintColumnLabels(QPainter* painter, const AttentionResult& r) {
    const QFontMetricsF metrics(font_);
    if (!columnLabels_) {
        const int step = std::max(
            1, int(std::ceil(metrics.horizontalAdvance(QStringLiteral("0000")) / square_)));
        for (int c = 0; c < columns_; c += step) {
            painter->drawText(QPointF(left_ + c * square_, top_ - 6.0), QString::number(c + 1));
        }
        return;
    }
    for (int c = 0; c < columns_; ++c) {
        const QString text = metrics.elidedText(QString::fromStdString(keyLabel(r, c)),
                                                Qt::ElideRight, kMaxLabelWidth);
        if (rotatedColumnLabels_) {
            painter->save();
            painter->translate(left_ + c * square_ + square_ / 2 + metrics.ascent() / 2 - 1,
                               top_ - 6.0);
            painter->rotate(-90);
            painter->drawText(QPointF(0, 0), text);
            painter->restore();
        } else {
            painter->drawText(QRectF(left_ + c * square_, 0, square_, top_ - 4.0),
                              Qt::AlignHCenter | Qt::AlignBottom, text);
        }
    }
}

// The focus row: the one the arithmetic and the shares follow.
void HeatmapItem::paintFocus(QPainter* painter, int focus) {
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(accentColor_, square_ >= 6.0 ? 2.5 : 1.5));
    const qreal inset = square_ >= 6.0 ? 1.25 : 0.0;
    painter->drawRect(
        QRectF(left_ - 3.0 + inset, top_ + focus * square_ + inset - (square_ < 2 ? 1 : 0),
               square_ * columns_ + 6.0 - 2 * inset, std::max(square_, 2.0) - 2 * inset));
}

QRectF HeatmapItem::squareRect(int row, int column) const {
    return QRectF(left_ + column * square_, top_ + row * square_, square_, square_);
}

QString HeatmapItem::describeAt(qreal x, qreal y) const {
    const int head = effectiveHead();
    if (head < 0 || square_ <= 0 || x < left_ || y < top_) {
        return {};
    }
    const int c = int((x - left_) / square_);
    const int row = int((y - top_) / square_);
    if (c >= columns_ || row >= rows_) {
        return {};
    }
    const AttentionResult& r = cell_->result();
    const HeadResult& h = r.head[size_t(head)];
    const auto rr = arma::uword(row), cc = arma::uword(c);
    const QString who = QStringLiteral("%1 reads %2")
                            .arg(QString::fromStdString(queryLabel(r, row)),
                                 QString::fromStdString(keyLabel(r, c)));
    if (h.blocked(rr, cc)) {
        return who + QStringLiteral(": blocked by the mask, share 0");
    }
    QString text = who + QStringLiteral(": share ") + displayNumber(h.weight(rr, cc), 4);
    if (showsChange()) {
        const double before = cell_->authoredResult().head[size_t(head)].weight(rr, cc);
        text += QStringLiteral(" (lesson: %1, change %2)")
                    .arg(displayNumber(before, 4), squareText(h.weight(rr, cc) - before, true));
    }
    return text;
}

ColourScaleItem::ColourScaleItem(QQuickItem* parent) : QQuickPaintedItem(parent) {
    font_.setPixelSize(11);
    setImplicitHeight(34);
    setImplicitWidth(220);
}

void ColourScaleItem::setChange(bool change) {
    if (change_ != change) {
        change_ = change;
        update();
        Q_EMIT changed();
    }
}

void ColourScaleItem::setRange(double range) {
    if (range_ != range) {
        range_ = range;
        update();
        Q_EMIT changed();
    }
}

void ColourScaleItem::setDark(bool dark) {
    if (palette_.dark != dark) {
        palette_.dark = dark;
        update();
        Q_EMIT changed();
    }
}

void ColourScaleItem::setTextColor(const QColor& colour) {
    if (textColor_ != colour) {
        textColor_ = colour;
        update();
        Q_EMIT changed();
    }
}

void ColourScaleItem::setFont(const QFont& font) {
    if (font_ != font) {
        font_ = font;
        update();
        Q_EMIT changed();
    }
}

void ColourScaleItem::paint(QPainter* painter) {
    const QFontMetricsF metrics(font_);
    const qreal barHeight = 12.0;
    const qreal margin = metrics.horizontalAdvance(QStringLiteral("−0.000")) / 2;
    const QRectF bar(margin, 2.0, std::max<qreal>(width() - 2 * margin, 10), barHeight);
    QImage strip(256, 1, QImage::Format_RGB32);
    for (int i = 0; i < 256; ++i) {
        const double t = i / 255.0;
        strip.setPixel(i, 0, change_ ? palette_.change(2 * t - 1) : palette_.share(t));
    }
    painter->setRenderHint(QPainter::SmoothPixmapTransform, true);
    painter->drawImage(bar, strip);
    painter->setPen(QPen(textColor_, 1));
    painter->setFont(font_);
    const auto tick = [&](double at, const QString& text) {
        const qreal x = bar.left() + at * bar.width();
        painter->drawLine(QPointF(x, bar.bottom()), QPointF(x, bar.bottom() + 3));
        painter->drawText(QRectF(x - margin, bar.bottom() + 3, 2 * margin, metrics.height()),
                          Qt::AlignHCenter | Qt::AlignTop, text);
    };
    if (change_) {
        const QString r = displayNumber(range_, range_ < 0.01 ? 4 : 2);
        tick(0.0, QStringLiteral("−") + r);
        tick(0.5, QStringLiteral("0"));
        tick(1.0, QStringLiteral("+") + r);
    } else {
        const int digits = range_ >= 1.0 ? 1 : range_ >= 0.1 ? 2 : 3;
        tick(0.0, QStringLiteral("0"));
        tick(0.5, displayNumber(range_ / 2, digits));
        tick(1.0, displayNumber(range_, digits));
    }
}

} // namespace attnbook

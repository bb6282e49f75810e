#pragma once
// The weights of one head as coloured squares: rows are the reading
// (query) tokens, columns the tokens read (keys). The squares are first
// written into an image with one pixel per entry and then drawn scaled, so
// a 512 × 512 table still draws within a frame; when the squares are large
// enough the value is written in each, and the focus row is outlined.
// In change mode the squares show the signed difference from the weights
// the lesson authored.

#include "app/models/attention_cell_model.h"
#include "exports/paint/heat_palette.h"

#include <QFont>
#include <QHash>
#include <QImage>
#include <QPointer>
#include <QQuickPaintedItem>
#include <QStaticText>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class HeatmapItem : public QQuickPaintedItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(attnbook::AttentionCellModel* cell READ cell WRITE setCell NOTIFY cellChanged)
    Q_PROPERTY(int head READ head WRITE setHead NOTIFY headChanged)
    Q_PROPERTY(bool change READ change WRITE setChange NOTIFY changeChanged)
    Q_PROPERTY(bool dark READ dark WRITE setDark NOTIFY styleChanged)
    // The share drawn in the strongest colour: 1, or less to stretch the
    // colours over small shares (a long sentence spreads them thin).
    Q_PROPERTY(double scaleTop READ scaleTop WRITE setScaleTop NOTIFY changeChanged)
    Q_PROPERTY(QColor textColor READ textColor WRITE setTextColor NOTIFY styleChanged)
    Q_PROPERTY(QColor accentColor READ accentColor WRITE setAccentColor NOTIFY styleChanged)
    Q_PROPERTY(
        QColor backgroundColor READ backgroundColor WRITE setBackgroundColor NOTIFY styleChanged)
    Q_PROPERTY(QFont font READ font WRITE setFont NOTIFY styleChanged)
    Q_PROPERTY(qreal maximumSquare READ maximumSquare WRITE setMaximumSquare NOTIFY styleChanged)
    Q_PROPERTY(qreal square READ square NOTIFY layoutChanged)
    Q_PROPERTY(bool valuesShown READ valuesShown NOTIFY layoutChanged)
    Q_PROPERTY(double changeRange READ changeRange NOTIFY changeRangeChanged)

  public:
    explicit HeatmapItem(QQuickItem* parent = nullptr);

    AttentionCellModel* cell() const { return cell_; }
    void setCell(AttentionCellModel* cell);
    int head() const { return head_; }
    void setHead(int head);
    bool change() const { return change_; }
    void setChange(bool change);
    bool dark() const { return palette_.dark; }
    void setDark(bool dark);
    double scaleTop() const { return scaleTop_; }
    void setScaleTop(double top);
    QColor textColor() const { return textColor_; }
    void setTextColor(const QColor& colour);
    QColor accentColor() const { return accentColor_; }
    void setAccentColor(const QColor& colour);
    QColor backgroundColor() const { return backgroundColor_; }
    void setBackgroundColor(const QColor& colour);
    QFont font() const { return font_; }
    void setFont(const QFont& font);
    qreal maximumSquare() const { return maximumSquare_; }
    void setMaximumSquare(qreal size);
    qreal square() const { return square_; }
    bool valuesShown() const;
    // The largest |change| over every head: the ends of the change scale.
    double changeRange() const { return changeRange_; }

    // "red reads blue: 0.2327" for the square under (x, y), or "".
    Q_INVOKABLE QString describeAt(qreal x, qreal y) const;
    // Where the square of (row, column) is drawn.
    Q_INVOKABLE QRectF squareRect(int row, int column) const;

    void paint(QPainter* painter) override;
    double lastPaintMilliseconds() const { return lastPaintMs_; }

  Q_SIGNALS:
    void cellChanged();
    void headChanged();
    void changeChanged();
    void styleChanged();
    void layoutChanged();
    void changeRangeChanged();

  protected:
    void geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) override;

  private:
    void dataChanged();
    void relayout();
    void buildImage();
    void buildValues();
    // paint()'s layers, in the order drawn: squares (hatched where masked), the grid lines,
    // the numbers, the labels, the focus row's outline.
    void paintSquares(QPainter* painter, const HeadResult& head);
    void paintValues(QPainter* painter);
    void paintRowLabels(QPainter* painter, const AttentionResult& result, int focus);
    void paintColumnLabels(QPainter* painter, const AttentionResult& result);
    void paintFocus(QPainter* painter, int focus);
    int effectiveHead() const;
    bool showsChange() const;

    QPointer<AttentionCellModel> cell_;
    int head_ = 0;
    bool change_ = false;
    double scaleTop_ = 1.0;
    HeatPalette palette_;
    QColor textColor_ = Qt::black;
    QColor accentColor_ = QColor(230, 120, 0);
    QColor backgroundColor_ = Qt::white;
    QFont font_;
    qreal maximumSquare_ = 56.0;

    // Layout, from the width and the table's size.
    int rows_ = 0;
    int columns_ = 0;
    qreal square_ = 0.0;
    qreal left_ = 0.0;
    qreal top_ = 0.0;
    bool rowLabels_ = true;
    bool columnLabels_ = true;
    bool rotatedColumnLabels_ = false;

    QImage image_; // one pixel per entry (columns × rows)
    bool imageStale_ = true;
    // The numbers written in the squares, laid out once per change rather
    // than on every paint (laying out text is most of a small map's paint).
    std::vector<const QStaticText*> values_;
    std::vector<QColor> valueColours_;
    // Shares written to two decimals repeat ("0.38"): each text is laid
    // out once for the item's life (a few hundred at most).
    QHash<QString, QStaticText> textCache_;
    bool valuesStale_ = true;
    double changeRange_ = 0.0;
    double lastPaintMs_ = 0.0;
};

// The colour scale under a heatmap: shares 0 … 1, or the signed change.
class ColourScaleItem : public QQuickPaintedItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(bool change READ change WRITE setChange NOTIFY changed)
    // ± range for the change; the top share otherwise (1 unless stretched).
    Q_PROPERTY(double range READ range WRITE setRange NOTIFY changed)
    Q_PROPERTY(bool dark READ dark WRITE setDark NOTIFY changed)
    Q_PROPERTY(QColor textColor READ textColor WRITE setTextColor NOTIFY changed)
    Q_PROPERTY(QFont font READ font WRITE setFont NOTIFY changed)

  public:
    explicit ColourScaleItem(QQuickItem* parent = nullptr);
    bool change() const { return change_; }
    void setChange(bool change);
    double range() const { return range_; }
    void setRange(double range);
    bool dark() const { return palette_.dark; }
    void setDark(bool dark);
    QColor textColor() const { return textColor_; }
    void setTextColor(const QColor& colour);
    QFont font() const { return font_; }
    void setFont(const QFont& font);
    void paint(QPainter* painter) override;

  Q_SIGNALS:
    void changed();

  private:
    bool change_ = false;
    double range_ = 1.0;
    HeatPalette palette_;
    QColor textColor_ = Qt::black;
    QFont font_;
};

} // namespace attnbook

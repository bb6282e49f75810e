#pragma once
// One figure of the lesson saved for slides or a handout: the heatmap of a
// head, the shares of the focus token, or a chart, drawn by the code that
// draws them in the PDF (exports/pdf_figures) from the live numbers, what-ifs
// included. ".svg" is vector (Qt SVG: lines, squares and numbers stay
// shapes and text); ".png" is an image at three pixels per point (216 dpi).
// Written through the output policy, like every file attnbook writes.

#include "app/models/attention_cell_model.h"
#include "app/models/chart_cell_model.h"
#include "exports/paint/pdf_layout.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

#include <optional>

namespace attnbook {

class FigureSaver : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

  public:
    explicit FigureSaver(QObject* parent = nullptr) : QObject(parent) {}

    // Each returns "" when saved, else why not ("PATH: cannot write: …"). Only a
    // name ending in .svg or .png is written, so a lesson or its data is never replaced.
    Q_INVOKABLE QString saveHeatmap(attnbook::AttentionCellModel* cell, int head,
                                    const QString& pathOrUrl) const;
    // The shares of the focus token for every head, as the window's chart shows them.
    Q_INVOKABLE QString saveShares(attnbook::AttentionCellModel* cell,
                                   const QString& pathOrUrl) const;
    Q_INVOKABLE QString saveChart(attnbook::ChartCellModel* chart, const QString& pathOrUrl) const;
    // The file name offered: "colour-heatmap.svg", "colour-shares-red.svg".
    Q_INVOKABLE static QString suggestedName(const QString& cellId, const QString& what);

    enum class Format { Svg, Png };
    // The bytes of `figure` on white with a small margin; `title` names an SVG.
    static QByteArray figureBytes(const Figure& figure, Format format, const QString& title);
    // By the name's ending (any case); nullopt for anything but .svg and .png.
    static std::optional<Format> formatOf(const QString& path);

  private:
    QString save(const Figure& figure, const QString& pathOrUrl, const QString& title) const;
};

} // namespace attnbook

// A transformer cell on paper: its header, its settings, and each view it asks for in its order
// (the boxes themselves: transformer_view_boxes.h).
#include "exports/paint/pdf_transformer.h"

#include "core/present/transformer_summary.h"

#include "core/present/view_titles.h"
#include "exports/paint/transformer_paint_helpers.h"
#include "exports/paint/transformer_view_boxes.h"

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

namespace attnbook {

using namespace transformer_paint;

namespace {

bool isAttentionView(const std::string& view) {
    static const std::vector<std::string> own = {"matrices", "heatmap", "shares", "arithmetic",
                                                 "trace"};
    return std::find(own.begin(), own.end(), view) != own.end();
}

} // namespace

QString transformerSummary(const TransformerCellSpec& spec, const TransformerResult& r) {
    return QString::fromStdString(transformerSummaryText(spec, r));
}

std::vector<PdfBoxPtr> transformerCellBoxes(const LessonCell& cell, const TransformerCellSpec& spec,
                                            const TransformerResult& r, const CellPrintArea& area) {
    std::vector<PdfBoxPtr> boxes;
    boxes.push_back(
        cellHeaderBox(QStringLiteral("Transformer"), cell.id, transformerSummary(spec, r), area));
    const auto tagged = [](PdfBoxPtr box, const std::string& view) {
        std::const_pointer_cast<PdfBox>(box)->view = view;
        return box;
    };
    boxes.push_back(tagged(settingsView(cell, spec, r, area), "settings"));
    // The reader gave an absent `views:` its default (docs/lesson-format.md); `views: []`
    // shows none, as in the window.
    const std::vector<std::string>& views = spec.views;
    std::vector<std::string> attentionViews;
    for (const std::string& view : views) {
        if (isAttentionView(view)) {
            attentionViews.push_back(view);
        }
    }
    bool attentionDone = false;
    for (const std::string& view : views) {
        if (isAttentionView(view)) {
            if (attentionDone) {
                continue;
            }
            attentionDone = true;
            // Each layer's attention as an attention cell prints it, its input H = LN₁(Xˡ⁻¹).
            const int layers = std::min(r.layersRun, kMaxLayersShown);
            for (int l = 0; l < layers; ++l) {
                AttentionCellSpec layerSpec;
                layerSpec.config = spec.config.layers[size_t(l)].attention;
                AttentionViewOptions options;
                options.titlePrefix = r.layersRun > 1 ? QStringLiteral("Layer %1 · ").arg(l + 1)
                                                      : QStringLiteral("Attention · ");
                options.inputCaption =
                    QStringLiteral("H = LN₁(X") + superscript(l) + QStringLiteral(")");
                options.inputNote = QStringLiteral("the layer's input");
                for (PdfBoxPtr& box : attentionViewBoxes(layerSpec, r.layers[size_t(l)].attention,
                                                         attentionViews, r.focus, area, options)) {
                    boxes.push_back(tagged(std::move(box), "attention"));
                }
            }
            if (r.layersRun > layers) {
                auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
                addNote(*box,
                        QStringLiteral("The attention of layers %1–%2 is not printed.")
                            .arg(layers + 1)
                            .arg(r.layersRun),
                        area, 0);
                box->spaceBefore = 6;
                boxes.push_back(box);
            }
            continue;
        }
        PdfBoxPtr box;
        if (view == "stream") {
            box = streamView(r, area);
        } else if (view == "ffn") {
            box = ffnView(spec, r, area);
        } else if (view == "next") {
            box = nextView(spec, r, area);
        } else if (view == "generation") {
            box = generationView(spec, r, area);
        } else if (view == "cache") {
            box = cacheView(
                spec, r, std::find(views.begin(), views.end(), "generation") != views.end(), area);
        } else if (view == "blocks") {
            box = blocksView(spec, r, area);
        } else if (view == "knockout") {
            box = knockoutView(r, area);
        } else if (view == "training") {
            box = trainingView(spec, r, area);
        } else if (view == "gradients") {
            box = gradientsView(spec, r, area);
        }
        if (box) {
            boxes.push_back(tagged(box, view));
        }
    }
    std::const_pointer_cast<PdfBox>(boxes.back())->keepWithNext = false;
    return boxes;
}

} // namespace attnbook
#include "app/models/cell_transformer_views.h"

#include "app/models/cell_variants.h"
#include "core/math/blockwise_attention.h"

#include <QVariantMap>

#include <cmath>

namespace attnbook::transformer_views {

const arma::mat& stageMatrix(const TransformerResult& result, int stage) {
    const int layers = result.layersRun;
    if (stage <= 0) {
        return result.X;
    }
    if (stage > 2 * layers) {
        return result.finalLn.out;
    }
    const TransformerLayerResult& layer = result.layers[size_t((stage - 1) / 2)];
    return (stage - 1) % 2 == 0 ? layer.resid1 : layer.resid2;
}

QVariantList stageRows(const TransformerResult& result, int stage) {
    const arma::mat& now = stageMatrix(result, stage);
    const arma::mat* before = stage > 0 ? &stageMatrix(result, stage - 1) : nullptr;
    QVariantList rows;
    const arma::uword columns = arma::uword(kShownColumns);
    for (arma::uword r = 0; r < now.n_rows && r < arma::uword(kShownRows); ++r) {
        QVariantMap row;
        row[QStringLiteral("label")] = r < result.tokens.size()
                                           ? QString::fromStdString(result.tokens[r])
                                           : QString::number(r);
        row[QStringLiteral("values")] = rowValues(now, r, columns);
        row[QStringLiteral("norm")] = arma::norm(now.row(r));
        if (before) {
            const arma::rowvec change = now.row(r) - before->row(r); // (d) what the stage added
            QVariantList changes;
            for (arma::uword c = 0; c < change.n_elem && c < columns; ++c) {
                changes << change(c);
            }
            row[QStringLiteral("change")] = changes;
            row[QStringLiteral("changeNorm")] = arma::norm(change);
        }
        rows << row;
    }
    return rows;
}

double stageRange(const TransformerResult& result, int stage) {
    return largestMagnitude(stageMatrix(result, stage));
}

double changeRange(const TransformerResult& result, int stage) {
    if (stage <= 0) {
        return 0.0;
    }
    return largestMagnitude(stageMatrix(result, stage) - stageMatrix(result, stage - 1));
}

QVariantList ffnRows(const TransformerResult& result, int layer) {
    QVariantList rows;
    if (layer < 0 || layer >= result.layersRun) {
        return rows;
    }
    const arma::mat& act = result.layers[size_t(layer)].ffnAct;
    for (arma::uword r = 0; r < act.n_rows && r < arma::uword(kShownRows); ++r) {
        QVariantMap row;
        row[QStringLiteral("label")] = QString::fromStdString(result.tokens[r]);
        row[QStringLiteral("values")] = rowValues(act, r, arma::uword(kShownHiddenColumns));
        rows << row;
    }
    return rows;
}

double ffnRange(const TransformerResult& result, int layer) {
    if (layer < 0 || layer >= result.layersRun) {
        return 0.0;
    }
    return largestMagnitude(result.layers[size_t(layer)].ffnAct);
}

QVariantList nextWords(const TransformerResult& result, int count, bool drawComing) {
    QVariantList words;
    // The word generation picked first, else the most likely one (none while a sampled
    // generation is still coming: its draw may pick another).
    const QString chosen = !result.generation.steps.empty()
                               ? QString::fromStdString(result.generation.steps.front().label)
                           : !result.next.empty() && !drawComing
                               ? QString::fromStdString(result.next[0].word)
                               : QString();
    for (size_t i = 0; i < result.next.size() && int(i) < count; ++i) {
        QVariantMap w;
        w[QStringLiteral("word")] = QString::fromStdString(result.next[i].word);
        w[QStringLiteral("prob")] = result.next[i].prob;
        w[QStringLiteral("chosen")] = w[QStringLiteral("word")].toString() == chosen;
        words << w;
    }
    return words;
}

QVariantList generationSteps(const TransformerResult& result) {
    QVariantList steps;
    int keys = result.n;
    for (const GenerationStep& step : result.generation.steps) {
        QVariantMap s;
        s[QStringLiteral("word")] = QString::fromStdString(step.label);
        s[QStringLiteral("prob")] = step.prob;
        s[QStringLiteral("costCached")] = step.costCached;
        s[QStringLiteral("costFull")] = step.costFull;
        s[QStringLiteral("keys")] = keys++; // the positions the step's query reads
        steps << s;
    }
    return steps;
}

int headsOf(const TransformerResult& result, int layer) {
    if (layer < 0 || layer >= result.layersRun) {
        return 0;
    }
    return result.layers[size_t(layer)].attention.h;
}

QVariantMap blocks(const TransformerResult& result, const TransformerConfig& config, int layer,
                   int head, int row, int blockSize) {
    QVariantMap out;
    if (layer < 0 || layer >= result.layersRun || blockSize < 1) {
        return out;
    }
    const AttentionResult& a = result.layers[size_t(layer)].attention;
    if (head < 0 || head >= a.h || row < 0 || row >= a.n) {
        return out;
    }
    const arma::uword k0 = arma::uword(head * a.dK), v0 = arma::uword(head * a.dV);
    const AttentionConfig& layerConfig = config.layers[size_t(layer)].attention;
    // Q_i (n × d_k), K_i (m × d_k), V_i (m × d_v): this head's columns
    const BlockwiseHead blocked = blockwiseHead(a.Q.cols(k0, k0 + arma::uword(a.dK) - 1),
                                                a.K.cols(k0, k0 + arma::uword(a.dK) - 1),
                                                a.V.cols(v0, v0 + arma::uword(a.dV) - 1), a.scale,
                                                layerConfig.mask, layerConfig.padding, blockSize);
    QVariantList steps;
    for (const BlockwiseStep& step : blocked.steps) {
        QVariantMap s;
        s[QStringLiteral("first")] = step.firstKey;
        s[QStringLiteral("end")] = step.endKey;
        const double m = step.runningMax(arma::uword(row));
        s[QStringLiteral("max")] = std::isfinite(m) ? QVariant(m) : QVariant();
        s[QStringLiteral("total")] = step.runningTotal(arma::uword(row));
        s[QStringLiteral("out")] = rowValues(step.runningOut, arma::uword(row));
        steps << s;
    }
    out[QStringLiteral("steps")] = steps;
    out[QStringLiteral("output")] = rowValues(blocked.output, arma::uword(row));
    out[QStringLiteral("plain")] = rowValues(a.head[size_t(head)].context, arma::uword(row));
    out[QStringLiteral("difference")] =
        arma::abs(blocked.output.row(arma::uword(row)) -
                  a.head[size_t(head)].context.row(arma::uword(row)))
            .max();
    return out;
}

} // namespace attnbook::transformer_views

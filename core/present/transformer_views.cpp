#include "core/present/transformer_views.h"

#include "core/math/blockwise_attention.h"
#include "core/math/number_format.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_stages.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace attnbook::transformer_views {

std::vector<double> rowOf(const arma::mat& m, arma::uword row, arma::uword columns) {
    std::vector<double> values;
    for (arma::uword c = 0; c < m.n_cols && c < columns; ++c) {
        values.push_back(m(row, c));
    }
    return values;
}

double largestMagnitude(const arma::mat& m) {
    return m.is_empty() ? 0.0 : arma::abs(m).max();
}

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

std::vector<StageRow> stageRows(const TransformerResult& result, int stage) {
    const arma::mat& now = stageMatrix(result, stage);
    const arma::mat* before = stage > 0 ? &stageMatrix(result, stage - 1) : nullptr;
    std::vector<StageRow> rows;
    const arma::uword columns = arma::uword(kShownColumns);
    for (arma::uword r = 0; r < now.n_rows && r < arma::uword(kShownRows); ++r) {
        StageRow row;
        row.label = r < result.tokens.size() ? result.tokens[r] : std::to_string(r);
        row.values = rowOf(now, r, columns);
        row.norm = arma::norm(now.row(r));
        if (before) {
            const arma::mat change = now.row(r) - before->row(r); // (1 × d) what the stage added
            row.change = rowOf(change, 0, columns);
            row.changeNorm = arma::norm(change);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

double stageRange(const TransformerResult& result, int stage) {
    return largestMagnitude(stageMatrix(result, stage));
}

double streamRange(const TransformerResult& result) {
    double range = 0.0;
    for (int stage = 0; stage < stageCount(result); ++stage) {
        range = std::max(range, stageRange(result, stage));
    }
    return range;
}

double changeRange(const TransformerResult& result, int stage) {
    if (stage <= 0) {
        return 0.0;
    }
    // (n × d) what the stage added to every token
    return largestMagnitude(stageMatrix(result, stage) - stageMatrix(result, stage - 1));
}

std::vector<FfnRow> ffnRows(const TransformerResult& result, int layer) {
    std::vector<FfnRow> rows;
    if (layer < 0 || layer >= result.layersRun) {
        return rows;
    }
    const arma::mat& act = result.layers[size_t(layer)].ffnAct; // (n × d_ff)
    for (arma::uword r = 0; r < act.n_rows && r < arma::uword(kShownRows); ++r) {
        rows.push_back({result.tokens[r], rowOf(act, r, arma::uword(kShownHiddenColumns))});
    }
    return rows;
}

double ffnRange(const TransformerResult& result, int layer) {
    if (layer < 0 || layer >= result.layersRun) {
        return 0.0;
    }
    return largestMagnitude(result.layers[size_t(layer)].ffnAct);
}

int chosenNextWord(const TransformerResult& result) {
    if (result.generation.ran && !result.generation.steps.empty()) {
        return result.generation.steps.front().word;
    }
    if (result.probs.is_empty()) {
        return -1;
    }
    return pickGreedy(result.probs.row(result.probs.n_rows - 1));
}

std::vector<NextWord> nextWords(const TransformerResult& result, int count, bool drawComing) {
    const int pick = drawComing && result.generation.steps.empty() ? -1 : chosenNextWord(result);
    const std::string chosen = pick >= 0 ? result.words[size_t(pick)] : std::string();
    std::vector<NextWord> words;
    for (size_t i = 0; i < result.next.size() && int(i) < count; ++i) {
        const std::string& word = result.next[i].word;
        words.push_back({word, result.next[i].prob, !chosen.empty() && word == chosen});
    }
    return words;
}

std::string knockoutPartLabel(const ModelPart& part) {
    const std::string block = "block " + std::to_string(part.layer + 1);
    switch (part.kind) {
    case ModelPart::Kind::Head:
        return block + ", head " + std::to_string(part.head + 1);
    case ModelPart::Kind::Attention:
        return block + " attention";
    case ModelPart::Kind::Ffn:
        return block + " FFN";
    case ModelPart::Kind::Block:
        break;
    }
    return block + " (all of it)";
}

std::optional<KnockoutView> knockoutView(const TransformerResult& result) {
    if (!result.knockouts.computed || result.probs.is_empty()) {
        return std::nullopt;
    }
    KnockoutView view;
    view.row = result.focus;
    const arma::rowvec whole = result.probs.row(arma::uword(view.row)); // (V)
    const arma::uword word = arma::uword(pickGreedy(whole));
    view.word = result.words[word];
    view.full = whole(word);
    const auto add = [&](const KnockoutOutcome& k) {
        const int top = pickGreedy(k.focusProbs);
        view.bars.push_back({knockoutPartLabel(k.part), k.focusProbs(word),
                             result.words[size_t(top)], arma::uword(top) != word});
    };
    for (size_t l = 0; l < result.knockouts.block.size(); ++l) {
        for (const KnockoutOutcome& head : result.knockouts.head[l]) {
            add(head);
        }
        add(result.knockouts.attention[l]);
        add(result.knockouts.ffn[l]);
        add(result.knockouts.block[l]);
    }
    return view;
}

std::optional<TrainingCurve> trainingCurve(const TrainingResult* training) {
    if (!training || training->loss.empty()) {
        return std::nullopt;
    }
    const TrainingResult& t = *training;
    TrainingCurve curve;
    for (size_t step = 0; step < t.loss.size(); ++step) {
        curve.steps.push_back(double(step));
    }
    curve.loss = t.loss;
    curve.heldOut = t.heldOutLoss;
    curve.shown = t.shown;
    curve.shownLoss = t.loss[size_t(t.shown)];
    curve.stopped = t.stopped;
    return curve;
}

CacheSize cacheSize(const TransformerResult& r) {
    const GenerationResult& g = r.generation;
    // Cached numbers a position: Σ over layers of h·(d_k + d_v).
    double perPosition = 0;
    bool uniform = true;
    for (int l = 0; l < r.layersRun; ++l) {
        const AttentionResult& a = r.layers[size_t(l)].attention;
        perPosition += double(a.h) * double(a.dK + a.dV);
        const AttentionResult& first = r.layers[0].attention;
        uniform = uniform && a.h == first.h && a.dK == first.dK && a.dV == first.dV;
    }
    const int steps = g.ran ? int(g.steps.size()) : 0;
    const int positions = r.n + std::max(0, steps - 1);
    const std::string length = steps > 0 ? "(n + N − 1)" : "n";
    const auto num = [](int k) { return std::to_string(k); };
    CacheSize out;
    if (r.layersRun > 0 && uniform) {
        const AttentionResult& a = r.layers[0].attention;
        out.formula = "L · h · (d_k + d_v) · " + length + " = " + num(r.layersRun) + " · " +
                      num(a.h) + " · (" + num(a.dK) + " + " + num(a.dV) + ") · " + num(positions);
    } else {
        out.formula = "Σ over layers h · (d_k + d_v) × " + length + " = " +
                      readableNumber(perPosition, 4) + " × " + num(positions);
    }
    out.numbers = readableNumber(steps > 0 ? g.cacheNumbers : perPosition * positions, 4);
    out.lead = steps > 0
                   ? "After the last of " + num(steps) +
                         " steps the cache holds the keys and values of n + N − 1 = " + num(r.n) +
                         " + " + num(steps) + " − 1 = " + num(positions) +
                         " positions (the last word is never fed back): "
                   : "No generation ran, so the cache holds the prompt's keys and values "
                     "alone: ";
    return out;
}

TrainingChart trainingChart(const TrainingCurve& curve) {
    TrainingChart out;
    out.chart.xLabel = "step";
    out.chart.yLabel = "loss";
    out.chart.from = 0;
    out.chart.to = std::max(double(curve.loss.size()) - 1, 1.0);
    out.series.push_back({"on the lesson's sentences", curve.steps, curve.loss});
    if (!curve.heldOut.empty()) {
        out.series.push_back({"on the held-out sentences", curve.steps, curve.heldOut});
    }
    return out;
}

std::vector<GeneratedWord> generationSteps(const TransformerResult& result) {
    std::vector<GeneratedWord> steps;
    int keys = result.n;
    for (const GenerationStep& step : result.generation.steps) {
        steps.push_back({step.label, step.prob, step.costCached, step.costFull, keys++});
    }
    return steps;
}

int headsOf(const TransformerResult& result, int layer) {
    if (layer < 0 || layer >= result.layersRun) {
        return 0;
    }
    return result.layers[size_t(layer)].attention.h;
}

std::optional<Blocks> blocks(const TransformerResult& result, const TransformerConfig& config,
                             int layer, int head, int row, int blockSize) {
    if (layer < 0 || layer >= result.layersRun || blockSize < 1) {
        return std::nullopt;
    }
    const AttentionResult& a = result.layers[size_t(layer)].attention;
    if (head < 0 || head >= a.h || row < 0 || row >= a.n) {
        return std::nullopt;
    }
    const arma::uword k0 = arma::uword(head * a.dK), v0 = arma::uword(head * a.dV);
    const arma::uword r = arma::uword(row);
    const AttentionConfig& layerConfig = config.layers[size_t(layer)].attention;
    // Q_i (n × d_k), K_i (m × d_k), V_i (m × d_v): this head's columns
    const BlockwiseHead blocked = blockwiseHead(a.Q.cols(k0, k0 + arma::uword(a.dK) - 1),
                                                a.K.cols(k0, k0 + arma::uword(a.dK) - 1),
                                                a.V.cols(v0, v0 + arma::uword(a.dV) - 1), a.scale,
                                                layerConfig.mask, layerConfig.padding, blockSize);
    Blocks out;
    out.layer = layer;
    out.head = head;
    out.row = row;
    out.blockSize = blockSize;
    for (const BlockwiseStep& step : blocked.steps) {
        BlockStep s;
        s.first = int(step.firstKey);
        s.end = int(step.endKey);
        for (int k = s.first; k < s.end && !s.read; ++k) {
            s.read = !a.head[size_t(head)].blocked(r, arma::uword(k));
        }
        const double m = step.runningMax(r);
        s.max = std::isfinite(m) ? std::optional<double>(m) : std::nullopt;
        s.total = step.runningTotal(r);
        s.out = rowOf(step.runningOut, r);
        out.steps.push_back(std::move(s));
    }
    const arma::mat& plain = a.head[size_t(head)].context; // (n × d_v)
    out.output = rowOf(blocked.output, r);
    out.plain = rowOf(plain, r);
    // (1 × d_v) how far the blocked row is from the plain one
    out.difference = arma::abs(blocked.output.row(r) - plain.row(r)).max();
    return out;
}

std::optional<Blocks> blocksOfFocus(const TransformerCellSpec& spec,
                                    const TransformerResult& result) {
    return blocks(result, spec.config, result.layersRun - 1, 0, result.focus,
                  std::max(1, spec.blockSize));
}

int blocksCoordinatesShown(const Blocks& blocks) {
    return std::min<int>(int(blocks.output.size()), kBlocksCoordinatesShown);
}

std::string blocksLead(const Blocks& blocks, const std::string& word) {
    const std::string B = std::to_string(blocks.blockSize);
    return "Head " + std::to_string(blocks.head + 1) + " of layer " +
           std::to_string(blocks.layer + 1) + ", row " + std::to_string(blocks.row + 1) + " (" +
           word +
           "): each block updates the running maximum m, the running total ℓ and the running "
           "output o; the row never holds more than " +
           B + " scores at once.";
}

NumberStyle blocksNumberStyle(const Blocks& blocks) {
    const size_t shown = size_t(blocksCoordinatesShown(blocks));
    std::vector<double> all;
    for (const BlockStep& s : blocks.steps) {
        all.insert(all.end(), s.out.begin(), s.out.begin() + std::ptrdiff_t(shown));
        all.push_back(s.total);
        if (s.max) {
            all.push_back(*s.max);
        }
    }
    return styleFor(all, 4);
}

std::string blocksAgreement(const Blocks& blocks) {
    char scientific[32];
    std::snprintf(scientific, sizeof scientific, "%.1e", blocks.difference);
    std::string text =
        blocks.difference <= 1e-12
            ? "The blocks end where the plain path does: the largest difference is " +
                  (blocks.difference == 0 ? std::string("0") : std::string(scientific)) +
                  ", below 1e-12."
            : "The blocks differ from the plain path by " + std::string(scientific) + ".";
    const int shown = blocksCoordinatesShown(blocks);
    const int dV = int(blocks.output.size());
    if (shown < dV) {
        text += " Coordinates 1–" + std::to_string(shown) + " of d_v = " + std::to_string(dV) +
                " are shown (… " + std::to_string(dV - shown) + " more).";
    }
    return text;
}

AttentionCellSpec layerAttentionSpec(const TransformerConfig& config,
                                     const TransformerResult& result, int layer) {
    AttentionCellSpec spec;
    spec.config = transformer::attentionOver(config.layers[size_t(layer)].attention,
                                             result.layers[size_t(layer)].ln1.out, config.tokens);
    // Own copies: the spec outlives the result. (`m = arma::mat(m)` is not one: assigning into
    // a matrix over borrowed memory writes into that memory.)
    const auto own = [](arma::mat& m) {
        arma::mat copy(m);
        m.reset(); // lets go of the borrowed memory
        m = std::move(copy);
    };
    own(spec.config.X0);
    for (Projection* p : {&spec.config.wQ, &spec.config.wK, &spec.config.wV, &spec.config.wO}) {
        own(p->weights);
    }
    spec.config.focus = std::min(config.focus, result.n - 1);
    spec.views = {"matrices", "heatmap", "shares", "arithmetic", "trace"};
    spec.controls = {};
    return spec;
}

std::vector<GradientRow> gradientRows(const TransformerCellSpec& spec, const TransformerResult& r) {
    std::vector<GradientRow> rows;
    const auto add = [&](const std::string& name, const arma::mat& g, bool rule = false) {
        if (!g.is_empty()) {
            rows.push_back(
                {name, g.n_rows, g.n_cols, arma::norm(g, "fro"), arma::abs(g).max(), rule});
        }
    };
    const TransformerGradients& g = r.grad;
    add("X0", g.X0);
    for (size_t l = 0; l < g.layers.size(); ++l) {
        const TransformerLayerGradients& layer = g.layers[l];
        const std::string p = "layers[" + std::to_string(l) + "].";
        bool first = true;
        const auto addLayer = [&](const std::string& name, const arma::mat& m) {
            if (!m.is_empty()) {
                add(p + name, m, first);
                first = false;
            }
        };
        addLayer("ln1.gamma", layer.ln1Gamma);
        addLayer("ln1.beta", layer.ln1Beta);
        addLayer("attention.W_Q", layer.attention.W_Q);
        addLayer("attention.W_K", layer.attention.W_K);
        addLayer("attention.W_V", layer.attention.W_V);
        addLayer("attention.W_O", layer.attention.W_O);
        addLayer("attention.b_Q", layer.attention.b_Q);
        addLayer("attention.b_K", layer.attention.b_K);
        addLayer("attention.b_V", layer.attention.b_V);
        addLayer("attention.b_O", layer.attention.b_O);
        addLayer("ln2.gamma", layer.ln2Gamma);
        addLayer("ln2.beta", layer.ln2Beta);
        addLayer("ffn.W_1", layer.W1);
        addLayer("ffn.b_1", layer.b1);
        addLayer("ffn.W_2", layer.W2);
        addLayer("ffn.b_2", layer.b2);
    }
    add("final_ln.gamma", g.finalGamma, true);
    add("final_ln.beta", g.finalBeta);
    add("vocab", g.vocab, g.finalGamma.is_empty());
    if (g.vocab.is_empty()) {
        add("unembed", g.unembed, g.finalGamma.is_empty());
    }
    if (!spec.config.unembedBias.is_empty()) {
        add("b_U", g.unembedBias);
    }
    return rows;
}

std::string gradientLossText(const TransformerResult& r) {
    return r.loss ? "L is the loss over the targets, " + fixedNumber(*r.loss, 4) + "."
                  : "Without targets, L = Σ upstream ⊙ logits (upstream ones unless given).";
}

} // namespace attnbook::transformer_views

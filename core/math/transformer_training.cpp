#include "core/math/transformer_training.h"

#include "core/math/training_watch.h"

#include "core/math/attention_shapes.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_stages.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <tuple>

namespace attnbook {

namespace {

[[noreturn]] void fail(const std::string& key, const std::string& message) {
    throw InvalidConfig(ConfigError{key, message, -1, -1});
}

// One trainable tensor of the cell and, during a gradient pass, its gradient (nullptr where the
// pass computed none: a part the reader's switches leave off).
struct Slot {
    arma::mat* value;
    const arma::mat* grad;
};

const arma::mat* present(const arma::mat& grad) {
    return grad.is_empty() ? nullptr : &grad;
}

// The trainable tensors of `c` in the order of transformer.md's `grad` listing, each with its
// gradient in `g` (and `vocabGrad` for the embedding rows). With an empty `g`, the tensors alone.
std::vector<Slot> slotsOf(TransformerConfig& c, const TransformerGradients& g,
                          const arma::mat& vocabGrad, const TrainingSpec::Trainable& t) {
    std::vector<Slot> out;
    const auto add = [&](arma::mat& value, const arma::mat* grad) {
        if (!value.is_empty()) {
            out.push_back({&value, grad});
        }
    };
    for (size_t l = 0; l < c.layers.size(); ++l) {
        TransformerLayer& layer = c.layers[l];
        const TransformerLayerGradients* lg = l < g.layers.size() ? &g.layers[l] : nullptr;
        const auto grad = [&](const arma::mat& of) { return lg ? present(of) : nullptr; };
        if (t.attention) {
            AttentionConfig& a = layer.attention;
            const AttentionGradients* ag = lg ? &lg->attention : nullptr;
            add(a.wQ.weights, ag ? present(ag->W_Q) : nullptr);
            add(a.bQ, ag ? present(ag->b_Q) : nullptr);
            add(a.wK.weights, ag ? present(ag->W_K) : nullptr);
            add(a.bK, ag ? present(ag->b_K) : nullptr);
            add(a.wV.weights, ag ? present(ag->W_V) : nullptr);
            add(a.bV, ag ? present(ag->b_V) : nullptr);
            add(a.wO.weights, ag ? present(ag->W_O) : nullptr);
            add(a.bO, ag ? present(ag->b_O) : nullptr);
        }
        if (t.norm) {
            for (auto [ln, gamma, beta] :
                 {std::tuple{&layer.ln1, lg ? &lg->ln1Gamma : nullptr, lg ? &lg->ln1Beta : nullptr},
                  std::tuple{&layer.ln2, lg ? &lg->ln2Gamma : nullptr,
                             lg ? &lg->ln2Beta : nullptr}}) {
                if (!ln->identity) {
                    add(ln->gamma, gamma ? present(*gamma) : nullptr);
                    add(ln->beta, beta ? present(*beta) : nullptr);
                }
            }
        }
        if (t.ffn && layer.ffn.present) {
            add(layer.ffn.W1, lg ? grad(lg->W1) : nullptr);
            add(layer.ffn.b1, lg ? grad(lg->b1) : nullptr);
            add(layer.ffn.W2, lg ? grad(lg->W2) : nullptr);
            add(layer.ffn.b2, lg ? grad(lg->b2) : nullptr);
        }
    }
    if (t.norm && !c.finalLn.identity) {
        add(c.finalLn.gamma, present(g.finalGamma));
        add(c.finalLn.beta, present(g.finalBeta));
    }
    if (t.vocab) {
        add(c.vocab, present(vocabGrad));
        if (!c.tiedUnembed) {
            add(c.unembed, present(g.unembed));
        }
        add(c.unembedBias, present(g.unembedBias));
    }
    return out;
}

// Every trainable parameter written out, so that it can move: an identity projection as the
// identity matrix, absent biases as zeros, absent γ and β as ones and zeros. The numbers the
// cell computes do not change (X·I = X, + 0 exactly).
void materialize(TransformerConfig& c, const TrainingSpec::Trainable& t) {
    const arma::uword n = c.X0.n_rows, d = c.vocab.n_cols;
    const arma::mat placeholder(std::max<arma::uword>(n, 1), d, arma::fill::zeros);
    for (TransformerLayer& layer : c.layers) {
        AttentionConfig& a = layer.attention;
        if (t.attention) {
            const AttentionShapes s = resolveShapes(
                transformer::attentionOver(a, placeholder, c.tokens), AttentionLimits{});
            const auto written = [](Projection& p, int rows, int cols) {
                if (p.identity) {
                    p.weights = arma::eye(arma::uword(rows), arma::uword(cols));
                    p.identity = false;
                }
            };
            written(a.wQ, s.h * s.dK, s.d);
            written(a.wK, s.h * s.dK, s.d);
            written(a.wV, s.h * s.dV, s.d);
            written(a.wO, s.dO, s.h * s.dV);
            for (auto [bias, length] : {std::pair{&a.bQ, s.h * s.dK}, std::pair{&a.bK, s.h * s.dK},
                                        std::pair{&a.bV, s.h * s.dV}, std::pair{&a.bO, s.dO}}) {
                if (bias->is_empty()) {
                    bias->zeros(arma::uword(length));
                }
            }
        }
        if (t.ffn && layer.ffn.present) {
            if (layer.ffn.b1.is_empty()) {
                layer.ffn.b1.zeros(layer.ffn.W1.n_rows);
            }
            if (layer.ffn.b2.is_empty()) {
                layer.ffn.b2.zeros(d);
            }
        }
        for (LayerNormParams* ln : {&layer.ln1, &layer.ln2}) {
            if (t.norm && !ln->identity) {
                if (ln->gamma.is_empty()) {
                    ln->gamma.ones(d);
                }
                if (ln->beta.is_empty()) {
                    ln->beta.zeros(d);
                }
            }
        }
    }
    if (t.norm && !c.finalLn.identity) {
        if (c.finalLn.gamma.is_empty()) {
            c.finalLn.gamma.ones(d);
        }
        if (c.finalLn.beta.is_empty()) {
            c.finalLn.beta.zeros(d);
        }
    }
    if (t.vocab && c.unembedBias.is_empty()) {
        c.unembedBias.zeros(c.unembedding().n_rows);
    }
}

// One sentence, ready to run: its words as labels and rows, and the index (into the words the
// logits score) of each position's next word, −1 for the last.
struct Sentence {
    std::vector<std::string> tokens;
    std::vector<int> rows;
    std::vector<int> targets;
    int positions = 0; // with a next word
};

std::vector<Sentence> sentencesOf(const TransformerConfig& c,
                                  const std::vector<std::vector<int>>& data, const char* key) {
    const std::vector<std::string>& words = c.words();
    std::vector<Sentence> out;
    for (const std::vector<int>& rows : data) {
        Sentence s;
        s.rows = rows;
        for (size_t i = 0; i < rows.size(); ++i) {
            if (rows[i] < 0 || size_t(rows[i]) >= c.vocabLabels.size()) {
                fail(key, std::string(key) + ": a word that is not in the vocab");
            }
            s.tokens.push_back(c.vocabLabels[size_t(rows[i])]);
        }
        for (size_t i = 0; i < rows.size(); ++i) {
            if (i + 1 == rows.size()) {
                s.targets.push_back(-1);
                continue;
            }
            const std::string& next = s.tokens[i + 1];
            const auto at = std::find(words.begin(), words.end(), next);
            if (at == words.end()) {
                fail(key, std::string(key) + ": '" + next +
                              "' is not one of the words the cell scores, so it cannot be a "
                              "next word to learn");
            }
            s.targets.push_back(int(at - words.begin()));
            ++s.positions;
        }
        if (s.positions > 0) {
            out.push_back(std::move(s));
        }
    }
    return out;
}

// The cell as it runs one sentence: the sentence's words and rows of the vocab, its next words
// as targets, temperature 1, no padding, no generation. Its weights alias `w`'s.
TransformerConfig sentenceConfig(const TransformerConfig& w, const Sentence& s) {
    TransformerConfig c = transformer::sharedWeights(w);
    c.tokens = s.tokens;
    c.X0.set_size(s.rows.size(), w.vocab.n_cols); // (n × d) the sentence's rows of the vocab
    for (size_t i = 0; i < s.rows.size(); ++i) {
        c.X0.row(i) = w.vocab.row(arma::uword(s.rows[i]));
    }
    c.targets = s.targets;
    c.temperature = 1.0;
    c.upstream.reset();
    c.generate.reset();
    c.knockouts = false;
    c.focus = 0;
    for (TransformerLayer& layer : c.layers) {
        layer.attention.padding.clear();
    }
    return c;
}

// The loss over `sentences` at weights `w`: Σ (m_s / M) · the sentence's mean cross-entropy.
double lossOver(TransformerEngine& engine, const TransformerConfig& w,
                const std::vector<Sentence>& sentences, int positions) {
    double loss = 0.0;
    for (const Sentence& s : sentences) {
        TransformerResult r;
        engine.forward(sentenceConfig(w, s), r);
        loss += double(s.positions) / positions * *r.loss;
    }
    return loss;
}

int positionsIn(const std::vector<Sentence>& sentences) {
    int m = 0;
    for (const Sentence& s : sentences) {
        m += s.positions;
    }
    return m;
}

// X0 (n × d) as the rows of the vocab that the cell's tokens name, after the vocab moved.
void withTokenRows(TransformerConfig& c) {
    for (size_t r = 0; r < c.tokens.size() && r < c.X0.n_rows; ++r) {
        const auto at = std::find(c.vocabLabels.begin(), c.vocabLabels.end(), c.tokens[r]);
        if (at != c.vocabLabels.end()) {
            c.X0.row(r) = c.vocab.row(arma::uword(at - c.vocabLabels.begin()));
        }
    }
}

// splitmix64's next output as u ∈ [0, 1): (x >> 11) · 2⁻⁵³.
double uniform(std::uint64_t& state) {
    return double(splitmix64(state) >> 11) * 0x1.0p-53;
}

std::string shortNumber(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

} // namespace

// The fields sentenceConfig sets for each sentence, and the tokens' vectors.
TransformerConfig withPromptOf(const TransformerConfig& trained, const TransformerConfig& cell) {
    TransformerConfig out = trained;
    out.tokens = cell.tokens;
    out.X0 = cell.X0; // (n × d), then each row the trained vocab's row of its word
    withTokenRows(out);
    out.targets = cell.targets;
    out.temperature = cell.temperature;
    out.upstream = cell.upstream;
    out.generate = cell.generate;
    out.knockouts = cell.knockouts;
    out.focus = cell.focus;
    out.run = cell.run;
    for (size_t l = 0; l < out.layers.size() && l < cell.layers.size(); ++l) {
        out.layers[l].attention.padding = cell.layers[l].attention.padding;
        out.layers[l].attention.mask = cell.layers[l].attention.mask;
    }
    return out;
}

void randomInitialWeights(TransformerConfig& c, const TrainingSpec::Init& init) {
    std::uint64_t state = init.seed;
    const auto fill = [&](arma::mat& m) { // row by row, scale · z
        for (arma::uword r = 0; r < m.n_rows; ++r) {
            for (arma::uword col = 0; col < m.n_cols; ++col) {
                const double u1 = uniform(state), u2 = uniform(state);
                const double z =
                    std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
                m(r, col) = init.scale * z;
            }
        }
    };
    fill(c.vocab);
    for (TransformerLayer& layer : c.layers) {
        AttentionConfig& a = layer.attention;
        for (Projection* p : {&a.wQ, &a.wK, &a.wV, &a.wO}) {
            fill(p->weights);
        }
        for (arma::rowvec* b : {&a.bQ, &a.bK, &a.bV, &a.bO}) {
            b->zeros();
        }
        if (layer.ffn.present) {
            fill(layer.ffn.W1);
            fill(layer.ffn.W2);
            layer.ffn.b1.zeros();
            layer.ffn.b2.zeros();
        }
        for (LayerNormParams* ln : {&layer.ln1, &layer.ln2}) {
            ln->gamma.ones();
            ln->beta.zeros();
        }
    }
    c.finalLn.gamma.ones();
    c.finalLn.beta.zeros();
    if (!c.tiedUnembed) {
        fill(c.unembed);
    }
    c.unembedBias.zeros();
}

double trainingWork(const TransformerConfig& cell, const TrainingSpec& spec) {
    // A forward pass costs about its multiply-adds, the backward twice that; per token.
    const double perToken = transformerForwardCost(cell) / std::max<double>(1, cell.X0.n_rows);
    double trained = 0.0, held = 0.0;
    for (const std::vector<int>& s : spec.data) {
        trained += double(s.size());
    }
    for (const std::vector<int>& s : spec.heldOut) {
        held += double(s.size());
    }
    // Attention is quadratic in a sentence's length: charge each token a sentence's worth.
    double longest = 1.0;
    for (const auto* set : {&spec.data, &spec.heldOut}) {
        for (const std::vector<int>& s : *set) {
            longest = std::max(longest, double(s.size()));
        }
    }
    const double steps = double(std::max(spec.steps, 0)) + 1;
    return steps * perToken * (3.0 * trained + held) * std::max(1.0, longest / 8);
}

namespace {

// The bytes of every number a step's weights hold (what one kept step costs).
size_t weightBytes(TransformerConfig& w) {
    size_t numbers = 0;
    for (const Slot& slot : slotsOf(w, {}, {}, {true, true, true, true})) {
        numbers += slot.value->n_elem;
    }
    return numbers * sizeof(double);
}

TrainingResult train(const TransformerConfig& cell, const TrainingSpec& spec,
                     const TransformerLimits& limits, TrainingWatch* watch);

} // namespace

TrainingResult trainTransformer(const TransformerConfig& cell, const TrainingSpec& spec,
                                const TransformerLimits& limits) {
    return train(cell, spec, limits, nullptr);
}

TrainingResult trainTransformer(const TransformerConfig& cell, const TrainingSpec& spec,
                                const TransformerLimits& limits, TrainingWatch& watch) {
    watch.steps.clear();
    watch.bytesKept = 0;
    watch.cancelled = false;
    return train(cell, spec, limits, &watch);
}

const std::pair<int, TransformerConfig>* keptStepNear(const TrainingWatch& watch, int step) {
    const std::pair<int, TransformerConfig>* nearest = nullptr;
    for (const auto& kept : watch.steps) {
        if (!nearest || std::abs(kept.first - step) < std::abs(nearest->first - step)) {
            nearest = &kept;
        }
    }
    return nearest;
}

namespace {

// Refuses (InvalidConfig) a cell and a train: key that cannot be trained.
void checkTrainable(const TransformerConfig& cell, const TrainingSpec& spec) {
    if (cell.positional == PositionalKind::Learned) {
        fail("train", "training with learned positions is not supported: each sentence has its "
                      "own length, and the positions are given for the cell's n tokens");
    }
    if (cell.vocab.is_empty()) {
        fail("train", "training needs a vocab: each sentence's words are rows of it");
    }
    if (spec.steps < 0 || !(spec.lr > 0) || !std::isfinite(spec.lr)) {
        fail("train", "train needs steps ≥ 0 and lr > 0");
    }
    if (spec.shownStep() > spec.steps) {
        fail("train.show",
             "train.show must be between 0 and steps (" + std::to_string(spec.steps) + ")");
    }
}

constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-8; // Adam's

// The loss at the weights `w` over `data` (M positions to predict), and, unless `lossOnly`,
// ∂L/∂θ added into `total` (one per slot of `spec.trainable`), sentence by sentence. Infinity
// when a pass overflowed on the way.
double lossAndGradient(TransformerEngine& engine, TransformerConfig& w,
                       const std::vector<Sentence>& data, int M, bool lossOnly,
                       const TrainingSpec& spec, std::vector<arma::mat>& total) {
    double loss = 0.0;
    try {
        for (const Sentence& s : data) {
            const TransformerConfig sc = sentenceConfig(w, s);
            TransformerResult r;
            engine.forward(sc, r);
            const double share = double(s.positions) / M;
            loss += share * *r.loss;
            if (lossOnly) {
                continue; // after the last step: only its loss
            }
            engine.backward(sc, r, GradientCheck::Skip);
            // ∂L/∂vocab: the tied unembedding's and each token's row of ∂L/∂X0
            arma::mat vocabGrad =
                w.tiedUnembed ? r.grad.vocab
                              : arma::mat(w.vocab.n_rows, w.vocab.n_cols, arma::fill::zeros);
            if (!w.tiedUnembed) {
                for (size_t i = 0; i < s.rows.size(); ++i) {
                    vocabGrad.row(arma::uword(s.rows[i])) += r.grad.X0.row(i);
                }
            }
            const std::vector<Slot> slots = slotsOf(w, r.grad, vocabGrad, spec.trainable);
            for (size_t i = 0; i < slots.size(); ++i) {
                if (slots[i].grad) {
                    total[i] += share * *slots[i].grad;
                }
            }
        }
    } catch (const InvalidConfig&) {
        loss = std::numeric_limits<double>::infinity(); // the pass overflowed on the way
    }
    return loss;
}

// ‖g‖ over every slot's gradient together.
double gradientNorm(const std::vector<arma::mat>& total) {
    double squares = 0.0;
    for (const arma::mat& g : total) {
        squares += arma::accu(arma::square(g));
    }
    return std::sqrt(squares);
}

// Step t (from 1) of the optimizer on every slot of `params`, each with its gradient in
// `total`: θ ← θ − lr · g (sgd), or Adam's bias-corrected step with its moments m and v.
void optimizerStep(const std::vector<Slot>& params, const std::vector<arma::mat>& total,
                   const TrainingSpec& spec, double t, std::vector<arma::mat>& moment1,
                   std::vector<arma::mat>& moment2) {
    if (moment1.empty()) {
        for (const arma::mat& g : total) {
            moment1.emplace_back(arma::size(g), arma::fill::zeros);
            moment2.emplace_back(arma::size(g), arma::fill::zeros);
        }
    }
    for (size_t i = 0; i < params.size(); ++i) {
        arma::mat& theta = *params[i].value;
        const arma::mat& g = total[i];
        if (spec.optimizer == TrainingSpec::Optimizer::Sgd) {
            theta -= spec.lr * g;
            continue;
        }
        moment1[i] = kBeta1 * moment1[i] + (1 - kBeta1) * g;
        moment2[i] = kBeta2 * moment2[i] + (1 - kBeta2) * arma::square(g);
        const arma::mat mHat = moment1[i] / (1 - std::pow(kBeta1, t));
        const arma::mat vHat = moment2[i] / (1 - std::pow(kBeta2, t));
        theta -= spec.lr * (mHat / (arma::sqrt(vHat) + kEpsilon));
    }
}

TrainingResult train(const TransformerConfig& cell, const TrainingSpec& spec,
                     const TransformerLimits& limits, TrainingWatch* watch) {
    checkTrainable(cell, spec);
    TransformerConfig w = cell; // a deep copy: training writes into it
    w.removed.reset();
    materialize(w, spec.trainable);
    if (spec.init) {
        // Every matrix written out first (identity projections too), so that each gets z's.
        materialize(w, {true, true, true, true});
        randomInitialWeights(w, *spec.init);
    }
    const std::vector<Sentence> data = sentencesOf(w, spec.data, "train.data");
    const std::vector<Sentence> heldOut = sentencesOf(w, spec.heldOut, "train.held_out");
    const int M = positionsIn(data), heldM = positionsIn(heldOut);
    if (M == 0) {
        fail("train.data", "train.data has no sentence of two or more words: nothing to predict");
    }

    TransformerEngine engine(limits);
    TrainingResult out;
    out.trainable = spec.trainable;
    const int show = spec.shownStep();
    out.weights = w;
    std::vector<arma::mat> moment1, moment2; // Adam's m and v, one per slot

    const auto heldOutLoss = [&] {
        if (heldM > 0) {
            out.heldOutLoss.push_back(lossOver(engine, w, heldOut, heldM));
        }
    };
    if (watch) {
        const size_t perStep = std::max<size_t>(weightBytes(w), 1);
        const size_t fit = std::max<size_t>(watch->byteBudget / perStep, 2);
        // Steps 0 … S kept every `every`-th, and the last: at most `fit` of them.
        watch->every = int((size_t(spec.steps) + fit - 2) / (fit - 1));
        watch->every = std::max(watch->every, 1);
    }
    // Keeps the weights after `step` steps when the watch wants that step.
    const auto keep = [&](int step) {
        if (!watch || (step % watch->every != 0 && step != spec.steps)) {
            return;
        }
        TransformerConfig kept = w;
        withTokenRows(kept);
        watch->bytesKept += weightBytes(kept);
        watch->steps.emplace_back(step, std::move(kept));
    };
    for (int step = 0;; ++step) {
        if (watch && watch->keepGoing && !watch->keepGoing(step)) {
            watch->cancelled = true;
            break;
        }
        // The loss and ∂L/∂θ at the weights this step starts from, sentence by sentence.
        const std::vector<Slot> params = slotsOf(w, {}, {}, spec.trainable);
        std::vector<arma::mat> total(params.size());
        for (size_t i = 0; i < params.size(); ++i) {
            total[i].zeros(arma::size(*params[i].value));
        }
        const double loss = lossAndGradient(engine, w, data, M, step == spec.steps, spec, total);
        if (!std::isfinite(loss)) {
            out.stopped = "lr " + shortNumber(spec.lr) +
                          " is too large: the loss overflowed at step " + std::to_string(step);
            break;
        }
        out.loss.push_back(loss);
        heldOutLoss();
        keep(step);
        if (step <= show) {
            out.weights = w; // the shown step, or the last good one before it
            out.shown = step;
        }
        if (step == spec.steps) {
            break;
        }
        out.gradNorm.push_back(gradientNorm(total));
        optimizerStep(params, total, spec, step + 1, moment1, moment2);
    }
    // The cell's own tokens are rows of the vocab it learned: X0 follows it.
    withTokenRows(out.weights);
    return out;
}

} // namespace

} // namespace attnbook

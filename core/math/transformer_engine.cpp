// Longer than 500 lines on purpose: the transformer cell's validation, forward pass and backward
// pass share its stage helpers (the effective norms, the layer keys in errors, the FFN's
// activation); split, each part would need them in a header of their own.
#include "core/math/transformer_engine.h"

#include "core/math/attention_shapes.h"
#include "core/math/gradient_check.h"
#include "core/math/layer_norm.h"
#include "core/math/positional_encoding.h"
#include "core/math/transformer_knockouts.h"
#include "core/math/transformer_stages.h"
#include "core/math/vector_kernels.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnbook {
namespace transformer {

int layersRun(const TransformerConfig& config) {
    const int authored = int(config.layers.size());
    return config.run.layers < 0 ? authored : std::min(config.run.layers, authored);
}

const LayerNormParams& effective(const LayerNormParams& ln, const TransformerConfig& config) {
    static const LayerNormParams identity{true, {}, {}};
    return config.run.norm ? ln : identity;
}

bool ffnRuns(const TransformerLayer& layer, const TransformerConfig& config) {
    return layer.ffn.present && config.run.ffn;
}

namespace {
// An Armadillo matrix over `source`'s memory (never written through).
void alias(arma::mat& target, const arma::mat& source) {
    if (source.is_empty()) {
        target.reset();
        return;
    }
    target = arma::mat(const_cast<double*>(source.memptr()), source.n_rows, source.n_cols,
                       /*copy_aux_mem=*/false, /*strict=*/true);
}
} // namespace

AttentionConfig attentionOver(const AttentionConfig& layer, const arma::mat& input,
                              const std::vector<std::string>& tokens,
                              const arma::mat* outputWeights) {
    AttentionConfig view;
    view.tokens = tokens;
    alias(view.X0, input);
    view.heads = layer.heads;
    view.dK = layer.dK;
    view.dV = layer.dV;
    view.scaleKind = layer.scaleKind;
    view.scaleDivisor = layer.scaleDivisor;
    view.mask = layer.mask;
    view.padding = layer.padding;
    view.positional = PositionalKind::None;
    const auto project = [](Projection& to, const Projection& from) {
        to.identity = from.identity;
        alias(to.weights, from.weights);
    };
    project(view.wQ, layer.wQ);
    project(view.wK, layer.wK);
    project(view.wV, layer.wV);
    if (outputWeights) {
        view.wO.identity = false;
        view.wO.weights = *outputWeights; // a fresh matrix: the alias is never assigned into
    } else {
        project(view.wO, layer.wO);
    }
    view.bQ = layer.bQ, view.bK = layer.bK, view.bV = layer.bV, view.bO = layer.bO;
    return view;
}

TransformerConfig sharedWeights(const TransformerConfig& config) {
    TransformerConfig copy;
    copy.tokens = config.tokens;
    copy.X0 = config.X0;
    copy.positional = config.positional;
    copy.learnedP = config.learnedP;
    alias(copy.vocab, config.vocab);
    copy.vocabLabels = config.vocabLabels;
    copy.layers.resize(config.layers.size());
    for (size_t l = 0; l < config.layers.size(); ++l) {
        const TransformerLayer& from = config.layers[l];
        TransformerLayer& to = copy.layers[l];
        to.attention = attentionOver(from.attention, arma::mat(), {});
        to.ln1 = from.ln1;
        to.ln2 = from.ln2;
        to.ffn.present = from.ffn.present;
        alias(to.ffn.W1, from.ffn.W1);
        to.ffn.b1 = from.ffn.b1;
        alias(to.ffn.W2, from.ffn.W2);
        to.ffn.b2 = from.ffn.b2;
        to.ffn.activation = from.ffn.activation;
    }
    copy.finalLn = config.finalLn;
    copy.eps = config.eps;
    copy.tiedUnembed = config.tiedUnembed;
    alias(copy.unembed, config.unembed);
    copy.unembedLabels = config.unembedLabels;
    copy.unembedBias = config.unembedBias;
    copy.temperature = config.temperature;
    copy.targets = config.targets;
    copy.upstream = config.upstream;
    copy.generate = config.generate;
    copy.knockouts = config.knockouts;
    copy.run = config.run;
    copy.focus = config.focus;
    return copy;
}

const ModelPart* removedFrom(const TransformerConfig& config, int layer) {
    return config.removed && config.removed->layer == layer ? &*config.removed : nullptr;
}

std::string layerKey(int layer, const std::string& key) {
    return "layers[" + std::to_string(layer) + "]." + key;
}

} // namespace transformer

using namespace transformer;

namespace {

[[noreturn]] void fail(const std::string& key, const std::string& message, int row = -1,
                       int col = -1) {
    throw InvalidConfig(ConfigError{key, message, row, col});
}

std::string count(arma::uword value) {
    return std::to_string(value);
}

void requireLength(const std::string& key, const arma::rowvec& v, arma::uword length,
                   const std::string& what) {
    if (!v.is_empty() && v.n_elem != length) {
        fail(key, key + " has " + count(v.n_elem) + " numbers; it needs " + count(length) + " (" +
                      what + ")");
    }
}

void requireFinite(const std::string& key, const arma::mat& m) {
    if (vec::allFinite(m.memptr(), m.n_elem)) {
        return;
    }
    for (arma::uword r = 0; r < m.n_rows; ++r) {
        for (arma::uword c = 0; c < m.n_cols; ++c) {
            if (!std::isfinite(m(r, c))) {
                fail(key, key + " holds a number that is not finite", int(r), int(c));
            }
        }
    }
}

void validateNorm(const std::string& key, const LayerNormParams& ln, arma::uword d) {
    if (ln.identity) {
        return;
    }
    requireLength(key + ".gamma", ln.gamma, d, "one per column of the model width d");
    requireLength(key + ".beta", ln.beta, d, "one per column of the model width d");
    requireFinite(key + ".gamma", ln.gamma);
    requireFinite(key + ".beta", ln.beta);
}

void validateFeedForward(const std::string& key, const FeedForwardParams& ffn, arma::uword d,
                         const TransformerLimits& limits) {
    if (!ffn.present) {
        return;
    }
    const arma::uword hidden = ffn.W1.n_rows;
    if (ffn.W1.is_empty()) {
        fail(key + ".W_1",
             key + ".W_1 is missing: the FFN needs W_1 (d_ff × d) and W_2 (d × d_ff)");
    }
    if (hidden > arma::uword(limits.maxHidden)) {
        fail(key + ".W_1", key + ".W_1 has " + count(hidden) + " rows; d_ff may be at most " +
                               std::to_string(limits.maxHidden));
    }
    if (ffn.W1.n_cols != d) {
        fail(key + ".W_1", key + ".W_1 is " + count(ffn.W1.n_rows) + " × " + count(ffn.W1.n_cols) +
                               "; it needs d = " + count(d) + " columns (one per model width)");
    }
    if (ffn.W2.n_rows != d || ffn.W2.n_cols != hidden) {
        fail(key + ".W_2", key + ".W_2 is " + count(ffn.W2.n_rows) + " × " + count(ffn.W2.n_cols) +
                               "; it needs d × d_ff = " + count(d) + " × " + count(hidden));
    }
    requireLength(key + ".b_1", ffn.b1, hidden, "one per row of W_1");
    requireLength(key + ".b_2", ffn.b2, d, "one per row of W_2");
    requireFinite(key + ".W_1", ffn.W1);
    requireFinite(key + ".W_2", ffn.W2);
    requireFinite(key + ".b_1", ffn.b1);
    requireFinite(key + ".b_2", ffn.b2);
}

// The token vectors and their positions: n × d within the limits, finite.
void validateTokens(const TransformerConfig& config, const TransformerLimits& limits) {
    const arma::uword n = config.X0.n_rows, d = config.X0.n_cols;
    if (n == 0 || d == 0) {
        fail("tokens", "the cell has no token vectors");
    }
    if (n > arma::uword(limits.attention.maxTokens)) {
        fail("tokens", "the cell has " + count(n) + " tokens; at most " +
                           std::to_string(limits.attention.maxTokens) + " are allowed");
    }
    if (d > arma::uword(limits.attention.maxWidth)) {
        fail("X", "the model width d = " + count(d) + " is above the limit of " +
                      std::to_string(limits.attention.maxWidth));
    }
    requireFinite("X", config.X0);
    if (config.positional == PositionalKind::Learned &&
        (config.learnedP.n_rows != n || config.learnedP.n_cols != d)) {
        fail("positional", "positional is " + count(config.learnedP.n_rows) + " × " +
                               count(config.learnedP.n_cols) +
                               "; learned positions need n × d = " + count(n) + " × " + count(d));
    }
}

// The blocks: at least one, each attention giving rows of d numbers, each norm and FFN
// fitting d; eps and the final norm.
void validateLayers(const TransformerConfig& config, const TransformerLimits& limits) {
    const arma::uword n = config.X0.n_rows, d = config.X0.n_cols;
    if (config.layers.empty()) {
        fail("layers", "the cell has no layers: give at least one block");
    }
    if (config.layers.size() > size_t(limits.maxLayers)) {
        fail("layers", "the cell has " + std::to_string(config.layers.size()) +
                           " layers; at most " + std::to_string(limits.maxLayers) + " are allowed");
    }
    if (!(config.eps > 0.0) || !std::isfinite(config.eps)) {
        fail("eps", "eps must be a positive number (LayerNorm divides by √(σ² + ε))");
    }
    const arma::mat placeholder(n, d, arma::fill::zeros);
    for (size_t l = 0; l < config.layers.size(); ++l) {
        const TransformerLayer& layer = config.layers[l];
        const int index = int(l);
        AttentionShapes shapes;
        try {
            shapes = resolveShapes(attentionOver(layer.attention, placeholder, config.tokens),
                                   limits.attention);
        } catch (const InvalidConfig& e) {
            ConfigError error = e.error();
            error.key = layerKey(index, "attention." + error.key);
            throw InvalidConfig(error);
        }
        if (arma::uword(shapes.dO) != d) {
            fail(layerKey(index, "attention.W_O"),
                 "layer " + std::to_string(l) + "'s attention gives rows of " +
                     std::to_string(shapes.dO) + " numbers; the residual stream needs d = " +
                     count(d) + " (W_O must be d × h·d_v)");
        }
        validateNorm(layerKey(index, "ln1"), layer.ln1, d);
        validateNorm(layerKey(index, "ln2"), layer.ln2, d);
        validateFeedForward(layerKey(index, "ffn"), layer.ffn, d, limits);
    }
    validateNorm("final_ln", config.finalLn, d);
}

// The unembedding (V × d, one label per row, within the limit), its bias and the temperature.
void validateUnembedding(const TransformerConfig& config, const TransformerLimits& limits) {
    const arma::uword d = config.X0.n_cols;
    const arma::mat& U = config.unembedding();
    if (config.tiedUnembed && U.is_empty()) {
        fail("unembed", "unembed: tied needs a vocab (the vocab matrix scores every word)");
    }
    if (U.is_empty()) {
        fail("unembed", "unembed needs a V × d matrix with labels, or `tied` with a vocab");
    }
    if (U.n_cols != d) {
        fail(config.tiedUnembed ? "vocab" : "unembed",
             std::string(config.tiedUnembed ? "vocab" : "unembed") + " rows have " +
                 count(U.n_cols) + " numbers; the model width d is " + count(d));
    }
    if (U.n_rows > arma::uword(limits.maxVocab)) {
        fail("unembed", "the unembedding has " + count(U.n_rows) + " words; at most " +
                            std::to_string(limits.maxVocab) + " are allowed");
    }
    if (config.words().size() != U.n_rows) {
        fail("unembed", "the unembedding has " + count(U.n_rows) + " rows but " +
                            std::to_string(config.words().size()) + " labels");
    }
    requireFinite("unembed", U);
    requireLength("b_U", config.unembedBias, U.n_rows, "one per word");
    if (!(config.temperature > 0.0) || !std::isfinite(config.temperature)) {
        fail("temperature", "temperature must be a number above 0 (the logits are divided by it)");
    }
}

// What the cell asks of the pass: targets, upstream gradient, generation, layers run, focus.
void validateRequests(const TransformerConfig& config, const TransformerLimits& limits) {
    const arma::uword n = config.X0.n_rows;
    const arma::uword V = config.unembedding().n_rows;
    if (!config.targets.empty()) {
        if (config.targets.size() != n) {
            fail("targets", "targets has " + std::to_string(config.targets.size()) +
                                " entries; it needs one per token (n = " + count(n) +
                                "), ~ where there is none");
        }
        for (size_t r = 0; r < config.targets.size(); ++r) {
            const int t = config.targets[r];
            if (t < -1 || t >= int(V)) {
                fail("targets", "target " + std::to_string(r) + " is not one of the words", 0,
                     int(r));
            }
        }
    }
    if (config.upstream && (config.upstream->n_rows != n || config.upstream->n_cols != V)) {
        fail("upstream", "upstream must be n × V = " + count(n) + " × " + count(V));
    }
    if (config.generate) {
        const int steps = config.generate->steps;
        if (steps < 0 || steps > limits.maxGenerate) {
            fail("generate",
                 "generate.steps must be between 0 and " + std::to_string(limits.maxGenerate));
        }
        if (double(n) + steps - 1 > double(limits.attention.maxTokens)) {
            fail("generate", "generating " + std::to_string(steps) + " words makes " +
                                 std::to_string(n + arma::uword(steps) - 1) +
                                 " positions; at most " +
                                 std::to_string(limits.attention.maxTokens) + " are allowed");
        }
    }
    if (config.run.layers == 0 || config.run.layers > int(config.layers.size())) {
        fail("layers", "the layers control runs between 1 and " +
                           std::to_string(config.layers.size()) + " layers");
    }
    if (config.focus < 0 || arma::uword(config.focus) >= n) {
        fail("focus", "focus must be a token row between 0 and " + count(n - 1));
    }
}

} // namespace

void validateTransformer(const TransformerConfig& config, const TransformerLimits& limits) {
    validateTokens(config, limits);
    validateLayers(config, limits);
    validateUnembedding(config, limits);
    validateRequests(config, limits);
}

double transformerForwardCost(const TransformerConfig& config) {
    const double n = double(config.X0.n_rows), d = double(config.X0.n_cols);
    double work = 0.0;
    for (int l = 0; l < layersRun(config); ++l) {
        const TransformerLayer& layer = config.layers[size_t(l)];
        const AttentionConfig& a = layer.attention;
        const double h = a.heads;
        const double dK = a.dK ? *a.dK : std::max(1.0, d / h);
        const double dV = a.dV ? *a.dV : std::max(1.0, d / h);
        work += forwardCost(n, n, d, h, dK, dV, d);
        if (ffnRuns(layer, config)) {
            work += 2.0 * n * d * double(layer.ffn.W1.n_rows); // G W₁ᵀ and act W₂ᵀ
        }
        work += 4.0 * n * d; // two LayerNorms
    }
    return work + n * d * double(config.unembedding().n_rows); // the logits
}

TransformerResult TransformerEngine::compute(const TransformerConfig& config, GradientCheck check,
                                             Knockouts knockouts) {
    TransformerResult result;
    forward(config, result, knockouts);
    backward(config, result, check);
    generate(config, result);
    return result;
}

namespace {

// The positions added to the token vectors: (n × d) P.
arma::mat positionsOf(const TransformerConfig& config) {
    const arma::uword n = config.X0.n_rows, d = config.X0.n_cols;
    switch (config.positional) {
    case PositionalKind::None:
        break;
    case PositionalKind::Sinusoidal:
        return sinusoidalEncoding(n, d);
    case PositionalKind::Learned:
        return config.learnedP;
    }
    return arma::mat(n, d, arma::fill::zeros);
}

// F = act(G W₁ᵀ + b₁) W₂ᵀ + b₂ with G = LN₂(R) in out.ln2, or zeros when the FFN does not run.
void feedForward(const TransformerLayer& layer, const TransformerConfig& config,
                 TransformerLayerResult& out) {
    if (!ffnRuns(layer, config)) {
        out.ffnPre.reset();
        out.ffnAct.reset();
        out.ffnOut.zeros(out.ln2.out.n_rows, out.ln2.out.n_cols); // (n × d)
        return;
    }
    const FeedForwardParams& ffn = layer.ffn;
    out.ffnPre = out.ln2.out * ffn.W1.t(); // (n × d_ff) = (n × d)(d × d_ff)
    if (!ffn.b1.is_empty()) {
        out.ffnPre.each_row() += ffn.b1;
    }
    out.ffnAct = out.ffnPre;
    out.ffnAct.transform([&](double x) { return activate(ffn.activation, x); });
    out.ffnOut = out.ffnAct * ffn.W2.t(); // (n × d) = (n × d_ff)(d_ff × d)
    if (!ffn.b2.is_empty()) {
        out.ffnOut.each_row() += ffn.b2;
    }
}

// W_O (d × h·d_v) with head `head`'s d_v columns zeroed: the head's context rows then add
// nothing to A, while b_O stays (transformer.md, "Knock-outs").
arma::mat outputWithoutHead(const AttentionConfig& attention, const AttentionShapes& shapes,
                            int head) {
    arma::mat weights =
        attention.wO.identity
            ? arma::mat(arma::eye(arma::uword(shapes.dO), arma::uword(shapes.h * shapes.dV)))
            : attention.wO.weights;
    weights.cols(arma::uword(head * shapes.dV), arma::uword((head + 1) * shapes.dV - 1)).zeros();
    return weights;
}

// A (n × d) of layer l: attention.md with H = LN₁(Xˡ⁻¹) as its X, without a head when the
// pass knocks one out.
void attendInLayer(AttentionEngine& engine, const TransformerLayer& layer, int l,
                   const ModelPart* removed, const TransformerConfig& config,
                   TransformerLayerResult& out) {
    try {
        if (removed && removed->kind == ModelPart::Kind::Head) {
            const AttentionConfig view = attentionOver(layer.attention, out.ln1.out, config.tokens);
            const arma::mat weights = outputWithoutHead(
                layer.attention, resolveShapes(view, engine.limits()), removed->head);
            engine.forward(attentionOver(layer.attention, out.ln1.out, config.tokens, &weights),
                           out.attention);
        } else {
            engine.forward(attentionOver(layer.attention, out.ln1.out, config.tokens),
                           out.attention);
        }
    } catch (const InvalidConfig& e) {
        ConfigError error = e.error();
        error.key = layerKey(l, "attention." + error.key);
        throw InvalidConfig(error);
    }
}

// The logits of the last stream through the final norm, and their chances per row.
void logitsAndChances(const arma::mat& stream, const TransformerConfig& config,
                      TransformerResult& r) {
    layerNormForward(stream, effective(config.finalLn, config), config.eps, r.finalLn);
    const arma::mat& U = config.unembedding();
    r.logits = r.finalLn.out * U.t(); // (n × V) = (n × d)(d × V)
    if (!config.unembedBias.is_empty()) {
        r.logits.each_row() += config.unembedBias;
    }
    if (!vec::allFinite(r.logits.memptr(), r.logits.n_elem)) {
        fail("X", "the logits overflowed: the inputs are too large to compute with");
    }
    // (n × V) softmax(logits / T) per row, the row maximum subtracted first
    r.probs = r.logits / config.temperature;
    r.probs.each_col() -= arma::max(r.probs, 1);
    r.probs = arma::exp(r.probs);
    r.probs.each_col() /= arma::sum(r.probs, 1);
}

// The last row's words by chance (vocabulary order on a tie), at most 10.
std::vector<NextWord> likeliestNext(const TransformerResult& r) {
    std::vector<int> order(r.words.size());
    std::iota(order.begin(), order.end(), 0);
    const arma::uword last = r.probs.n_rows - 1;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return r.probs(last, a) > r.probs(last, b); });
    std::vector<NextWord> next;
    for (size_t i = 0; i < order.size() && i < 10; ++i) {
        next.push_back({r.words[size_t(order[i])], r.probs(last, arma::uword(order[i]))});
    }
    return next;
}

// The mean cross-entropy over the rows with a target, or nothing without targets.
std::optional<double> meanLoss(const TransformerConfig& config, const arma::mat& logits) {
    if (config.targets.empty()) {
        return std::nullopt;
    }
    double total = 0.0;
    int counted = 0;
    for (arma::uword row = 0; row < logits.n_rows; ++row) {
        const int target = config.targets[row];
        if (target >= 0) {
            // log p = logit/T − max − log Σ e^(…), computed in logs so that a tiny p is not 0
            const arma::rowvec scaled = logits.row(row) / config.temperature; // (1 × V)
            const double top = scaled.max();
            const double logTotal = std::log(arma::accu(arma::exp(scaled - top)));
            total -= scaled(arma::uword(target)) - top - logTotal;
            ++counted;
        }
    }
    return counted > 0 ? total / counted : 0.0;
}

} // namespace

void TransformerEngine::forward(const TransformerConfig& config, TransformerResult& r,
                                Knockouts knockouts) {
    validateTransformer(config, limits_);
    const arma::uword n = config.X0.n_rows, d = config.X0.n_cols;
    r.n = int(n);
    r.d = int(d);
    r.tokens = config.tokens;
    r.words = config.words();
    r.V = int(r.words.size());
    r.focus = config.focus;
    r.X0 = config.X0;
    r.P = positionsOf(config);
    r.X = r.X0 + r.P; // (n × d) X⁰

    r.layersRun = layersRun(config);
    r.layers.resize(size_t(r.layersRun));
    runLayers(config, r, 0, knockouts);
}

void TransformerEngine::forwardFrom(const TransformerConfig& config, TransformerResult& r,
                                    int first) {
    if (first <= 0 || first > r.layersRun) {
        forward(config, r);
        return;
    }
    runLayers(config, r, first, Knockouts::AsAsked);
}

void TransformerEngine::runLayers(const TransformerConfig& config, TransformerResult& r, int first,
                                  Knockouts knockouts) {
    const arma::mat* stream = first == 0 ? &r.X : &r.layers[size_t(first - 1)].resid2;
    for (int l = first; l < r.layersRun; ++l) {
        const TransformerLayer& layer = config.layers[size_t(l)];
        TransformerLayerResult& out = r.layers[size_t(l)];
        const ModelPart* removed = removedFrom(config, l);
        out.input = *stream; // (n × d) Xˡ⁻¹
        if (removed && removed->kind == ModelPart::Kind::Block) {
            out.resid1 = out.input; // a knock-out of the whole block: Xˡ = Xˡ⁻¹
            out.resid2 = out.input;
            stream = &out.resid2;
            continue;
        }
        layerNormForward(out.input, effective(layer.ln1, config), config.eps, out.ln1);
        if (removed && removed->kind == ModelPart::Kind::Attention) {
            out.resid1 = out.input; // a knock-out of the attention: A = 0, R = Xˡ⁻¹
        } else {
            attendInLayer(attention_, layer, l, removed, config, out);
            out.resid1 = out.input + out.attention.output; // (n × d) R = Xˡ⁻¹ + A
        }
        layerNormForward(out.resid1, effective(layer.ln2, config), config.eps, out.ln2);
        if (removed && removed->kind == ModelPart::Kind::Ffn) {
            out.ffnOut.zeros(out.resid1.n_rows, out.resid1.n_cols); // a knock-out: F = 0
        } else {
            feedForward(layer, config, out);
        }
        out.resid2 = out.resid1 + out.ffnOut; // (n × d) Xˡ = R + F
        requireFinite(layerKey(l, "resid2"), out.resid2);
        stream = &out.resid2;
    }
    logitsAndChances(*stream, config, r);
    r.next = likeliestNext(r);
    r.loss = meanLoss(config, r.logits);
    if (r.loss && !std::isfinite(*r.loss)) {
        // The logits overflowed on the way (they print as null in JSON): say so, never show it.
        fail("targets", "the loss overflows: the logits are too large to score these targets");
    }
    r.knockouts = config.knockouts && knockouts == Knockouts::AsAsked
                      ? computeKnockouts(*this, config)
                      : TransformerKnockouts{};
}

void TransformerEngine::backward(const TransformerConfig& config, TransformerResult& r,
                                 GradientCheck check) {
    const arma::uword n = arma::uword(r.n);
    TransformerGradients& g = r.grad;
    const arma::mat& U = config.unembedding();

    // ∂L/∂logits (n × V): the loss's (p − onehot) / (m·T) on rows with a target, else upstream.
    if (!config.targets.empty()) {
        const double m = double(std::count_if(config.targets.begin(), config.targets.end(),
                                              [](int t) { return t >= 0; }));
        g.logits.zeros(n, U.n_rows);
        for (arma::uword row = 0; row < n; ++row) {
            const int target = config.targets[row];
            if (target >= 0) {
                g.logits.row(row) = r.probs.row(row) / (m * config.temperature);
                g.logits(row, arma::uword(target)) -= 1.0 / (m * config.temperature);
            }
        }
    } else if (config.upstream) {
        g.logits = *config.upstream;
    } else {
        g.logits.ones(n, U.n_rows);
    }

    g.unembed = g.logits.t() * r.finalLn.out; // (V × d) = (V × n)(n × d)
    g.unembedBias = arma::sum(g.logits, 0);   // (V)
    arma::mat gradStream = g.logits * U;      // (n × d) ∂L/∂Z = (n × V)(V × d)
    gradStream = layerNormBackward(gradStream, effective(config.finalLn, config), r.finalLn,
                                   g.finalGamma, g.finalBeta); // ∂L/∂Xᴸ

    g.layers.assign(size_t(r.layersRun), {});
    for (int l = r.layersRun - 1; l >= 0; --l) {
        const TransformerLayer& layer = config.layers[size_t(l)];
        TransformerLayerResult& out = r.layers[size_t(l)];
        TransformerLayerGradients& lg = g.layers[size_t(l)];
        // Xˡ = R + F: ∂L/∂R gets ∂L/∂Xˡ directly and through the FFN and LN₂.
        arma::mat gradResid1 = gradStream; // (n × d)
        if (ffnRuns(layer, config)) {
            const FeedForwardParams& ffn = layer.ffn;
            const arma::mat& gradOut = gradStream; // (n × d) ∂L/∂F
            lg.W2 = gradOut.t() * out.ffnAct;      // (d × d_ff) = (d × n)(n × d_ff)
            lg.b2 = arma::sum(gradOut, 0);
            arma::mat gradPre = gradOut * ffn.W2; // (n × d_ff) ∂L/∂act = (n × d)(d × d_ff)
            for (arma::uword i = 0; i < gradPre.n_elem; ++i) {
                gradPre(i) *= activationSlope(ffn.activation, out.ffnPre(i));
            }
            lg.W1 = gradPre.t() * out.ln2.out; // (d_ff × d) = (d_ff × n)(n × d)
            lg.b1 = arma::sum(gradPre, 0);
            const arma::mat gradG = gradPre * ffn.W1; // (n × d) = (n × d_ff)(d_ff × d)
            gradResid1 += layerNormBackward(gradG, effective(layer.ln2, config), out.ln2,
                                            lg.ln2Gamma, lg.ln2Beta);
        }
        // R = Xˡ⁻¹ + A: the attention's upstream is ∂L/∂R.
        AttentionConfig view = attentionOver(layer.attention, out.ln1.out, config.tokens);
        view.upstream = gradResid1;
        try {
            attention_.backward(view, out.attention, GradientCheck::Skip);
        } catch (const InvalidConfig& e) {
            ConfigError error = e.error();
            error.key = layerKey(l, "attention." + error.key);
            throw InvalidConfig(error);
        }
        out.attention.gradcheck.skipped = "checked with the whole cell (its gradcheck)";
        lg.attention = out.attention.grad; // also kept in the layer's attention result
        gradStream = gradResid1 + layerNormBackward(lg.attention.X, effective(layer.ln1, config),
                                                    out.ln1, lg.ln1Gamma, lg.ln1Beta); // ∂L/∂Xˡ⁻¹
    }
    g.X0 = gradStream; // P is constant: ∂L/∂X0 = ∂L/∂X⁰

    g.vocab.reset();
    if (config.tiedUnembed) {
        g.vocab = g.unembed; // (V × d), then each token's row of ∂L/∂X0 added to its word
        for (size_t row = 0; row < config.tokens.size() && row < n; ++row) {
            const auto word =
                std::find(config.vocabLabels.begin(), config.vocabLabels.end(), config.tokens[row]);
            if (word != config.vocabLabels.end()) {
                g.vocab.row(arma::uword(word - config.vocabLabels.begin())) += g.X0.row(row);
            }
        }
    }
    for (const arma::mat* m : {&g.X0, &g.unembed}) {
        if (!vec::allFinite(m->memptr(), m->n_elem)) {
            fail("X", "the gradients overflowed: the inputs are too large to compute with");
        }
    }
    r.gradcheck = check == GradientCheck::Run ? transformerGradientCheck(config, r, limits_)
                                              : GradientCheckReport{};
}

} // namespace attnbook

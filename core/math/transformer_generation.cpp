// Generation with a key/value cache (transformer.md, "Generation and the key/value cache"):
// step 1 is the forward pass over the n prompt tokens, whose keys and values every layer keeps;
// step t ≥ 2 computes only the row of the word step t − 1 appended, its attention one row of
// scores against the cached keys, through the AttentionEngine in direct mode.
#include "core/math/layer_norm.h"
#include "core/math/positional_encoding.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_stages.h"

#include <algorithm>

namespace attnbook {

using namespace transformer;

std::uint64_t splitmix64(std::uint64_t& state) {
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int pickByDraw(const arma::rowvec& probs, double u) {
    double total = 0.0;
    int lastPositive = 0;
    for (arma::uword w = 0; w < probs.n_elem; ++w) {
        total += probs(w);
        if (probs(w) > 0.0) {
            lastPositive = int(w);
        }
        if (total > u) {
            return int(w);
        }
    }
    return lastPositive;
}

int pickGreedy(const arma::rowvec& probs) {
    return int(probs.index_max()); // the first maximum: vocabulary order on a tie
}

namespace {

// One layer's cached keys and values: rows [0, rows) are filled.
struct LayerCache {
    arma::mat keys;   // (positions × h·d_k)
    arma::mat values; // (positions × h·d_v)
    std::vector<bool> padding;
    int rows = 0;
};

// The one new row through one layer: x (1 × d) in, Xˡ's new row out.
arma::rowvec layerStep(const TransformerConfig& config, const TransformerLayer& layer,
                       const AttentionResult& prompt, LayerCache& cache, AttentionEngine& engine,
                       const arma::rowvec& x) {
    LayerNormResult ln1;
    layerNormForward(x, effective(layer.ln1, config), config.eps, ln1);
    const AttentionConfig& a = layer.attention;
    const auto project = [](const arma::rowvec& in, const Projection& proj,
                            const arma::rowvec& bias) {
        arma::rowvec out = proj.identity ? in : arma::rowvec(in * proj.weights.t()); // (1 × width)
        if (!bias.is_empty()) {
            out += bias;
        }
        return out;
    };
    const arma::rowvec h = ln1.out;
    const arma::rowvec q = project(h, a.wQ, a.bQ); // (1 × h·d_k)
    cache.keys.row(arma::uword(cache.rows)) = project(h, a.wK, a.bK);
    cache.values.row(arma::uword(cache.rows)) = project(h, a.wV, a.bV);
    cache.padding.push_back(false);
    ++cache.rows;

    // One row of scores against every cached key: the engine in direct mode, the query at the
    // last position (so the causal mask lets it read every key).
    AttentionConfig step;
    step.direct = true;
    step.queries = q;
    step.keys = cache.keys.rows(0, arma::uword(cache.rows - 1));
    step.values = cache.values.rows(0, arma::uword(cache.rows - 1));
    step.heads = prompt.h;
    step.dK = prompt.dK;
    step.dV = prompt.dV;
    step.scaleKind = a.scaleKind; // with the same d_k: the prompt's multiplier s, bit for bit
    step.scaleDivisor = a.scaleDivisor;
    step.mask = MaskKind::Causal;
    if (std::find(cache.padding.begin(), cache.padding.end(), true) != cache.padding.end()) {
        step.padding = cache.padding;
    }
    AttentionResult row;
    engine.forward(step, row);
    arma::rowvec attended = a.wO.identity ? arma::rowvec(row.output)
                                          : arma::rowvec(row.output * a.wO.weights.t()); // (1 × d)
    if (!a.bO.is_empty()) {
        attended += a.bO;
    }
    const arma::rowvec resid1 = x + attended;
    arma::rowvec out = resid1;
    if (ffnRuns(layer, config)) {
        LayerNormResult ln2;
        layerNormForward(resid1, effective(layer.ln2, config), config.eps, ln2);
        const FeedForwardParams& ffn = layer.ffn;
        arma::rowvec pre = ln2.out * ffn.W1.t(); // (1 × d_ff)
        if (!ffn.b1.is_empty()) {
            pre += ffn.b1;
        }
        pre.transform([&](double v) { return activate(ffn.activation, v); });
        arma::rowvec f = pre * ffn.W2.t(); // (1 × d)
        if (!ffn.b2.is_empty()) {
            f += ffn.b2;
        }
        out += f;
    }
    return out;
}

} // namespace

void TransformerEngine::generate(const TransformerConfig& config, TransformerResult& r) {
    GenerationResult& gen = r.generation;
    gen = GenerationResult{};
    if (!config.generate || config.generate->steps <= 0) {
        return;
    }
    const GenerateRequest& request = *config.generate;
    for (int l = 0; l < r.layersRun; ++l) {
        if (config.layers[size_t(l)].attention.mask != MaskKind::Causal) {
            gen.refused = kGenerationNeedsCausal;
            return;
        }
    }
    if (config.positional == PositionalKind::Learned && request.steps > 1) {
        gen.refused = "generation needs a position for every new word: learned positions stop "
                      "at the prompt's n rows (use sinusoidal)";
        return;
    }
    if (config.vocab.is_empty()) {
        gen.refused = "generation embeds each new word from the vocab: give the cell a vocab";
        return;
    }

    const int n = r.n, steps = request.steps;
    const int positions = n + steps - 1;
    const arma::mat P =
        config.positional == PositionalKind::Sinusoidal
            ? sinusoidalEncoding(arma::uword(positions), arma::uword(r.d))
            : arma::mat(arma::uword(positions), arma::uword(r.d), arma::fill::zeros);

    // Step 1's keys and values: the prompt's, from the forward pass.
    std::vector<LayerCache> caches(size_t(r.layersRun));
    double perPosition = 0.0; // cached numbers per position: Σ over layers of h·(d_k + d_v)
    for (int l = 0; l < r.layersRun; ++l) {
        const AttentionResult& a = r.layers[size_t(l)].attention;
        LayerCache& cache = caches[size_t(l)];
        cache.keys.set_size(arma::uword(positions), a.K.n_cols);
        cache.values.set_size(arma::uword(positions), a.V.n_cols);
        cache.keys.rows(0, arma::uword(n - 1)) = a.K;
        cache.values.rows(0, arma::uword(n - 1)) = a.V;
        cache.padding = config.layers[size_t(l)].attention.padding;
        cache.padding.resize(size_t(n), false);
        cache.rows = n;
        perPosition += double(a.h) * double(a.dK + a.dV);
    }

    std::uint64_t state = request.seed;
    const auto pick = [&](const arma::rowvec& probs) {
        if (request.pick == PickKind::Greedy) {
            return pickGreedy(probs);
        }
        const double u = double(splitmix64(state) >> 11) * 0x1.0p-53;
        return pickByDraw(probs, u);
    };
    const arma::mat& U = config.unembedding();
    arma::rowvec probs = r.probs.row(arma::uword(n - 1));
    for (int t = 1; t <= steps; ++t) {
        if (t >= 2) {
            // The word step t − 1 appended, at position n + t − 2.
            const std::string& word = gen.steps.back().label;
            const auto found =
                std::find(config.vocabLabels.begin(), config.vocabLabels.end(), word);
            if (found == config.vocabLabels.end()) {
                gen.refused = "'" + word + "' is not in the vocab, so it cannot be fed back in";
                break;
            }
            const int position = n + t - 2;
            arma::rowvec x = config.vocab.row(arma::uword(found - config.vocabLabels.begin())) +
                             P.row(arma::uword(position)); // (1 × d)
            for (int l = 0; l < r.layersRun; ++l) {
                x = layerStep(config, config.layers[size_t(l)], r.layers[size_t(l)].attention,
                              caches[size_t(l)], attention_, x);
            }
            LayerNormResult z;
            layerNormForward(x, effective(config.finalLn, config), config.eps, z);
            arma::rowvec logits = z.out * U.t(); // (1 × V)
            if (!config.unembedBias.is_empty()) {
                logits += config.unembedBias;
            }
            probs = logits / config.temperature;
            probs = arma::exp(probs - probs.max());
            probs /= arma::accu(probs);
        }
        GenerationStep step;
        step.word = pick(probs);
        step.label = r.words[size_t(step.word)];
        step.prob = probs(arma::uword(step.word));
        const double length = double(n + t - 1);
        step.costCached = t == 1 ? double(n) * double(n) : length;
        step.costFull = length * length;
        step.probs = probs;
        gen.steps.push_back(std::move(step));
    }
    gen.ran = true;
    gen.cacheNumbers = perPosition * double(n + int(gen.steps.size()) - 1);
}

} // namespace attnbook

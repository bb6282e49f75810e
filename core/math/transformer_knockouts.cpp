#include "core/math/transformer_knockouts.h"

#include "core/math/transformer_engine.h"
#include "core/math/transformer_stages.h"

namespace attnbook {

namespace {

int headCount(const TransformerLayer& layer) {
    return layer.attention.heads;
}

// One forward pass of `config` without `part`: its last and focus rows, its words and loss.
KnockoutOutcome runWithout(TransformerEngine& engine, const TransformerConfig& config,
                           const ModelPart& part) {
    TransformerConfig knocked = transformer::sharedWeights(config);
    knocked.knockouts = false; // a knock-out pass does not knock out again
    knocked.generate.reset();  // nor generate: only its chances are read
    knocked.removed = part;
    TransformerResult pass;
    engine.forward(knocked, pass);
    KnockoutOutcome outcome;
    outcome.part = part;
    outcome.probs = pass.probs.row(pass.probs.n_rows - 1);        // (V)
    outcome.focusProbs = pass.probs.row(arma::uword(pass.focus)); // (V)
    outcome.next = std::move(pass.next);
    outcome.loss = pass.loss;
    return outcome;
}

} // namespace

TransformerKnockouts computeKnockouts(TransformerEngine& engine, const TransformerConfig& config) {
    TransformerKnockouts out;
    const int layers = transformer::layersRun(config);
    for (int l = 0; l < layers; ++l) {
        const TransformerLayer& layer = config.layers[size_t(l)];
        std::vector<KnockoutOutcome> heads;
        for (int i = 0; i < headCount(layer); ++i) {
            heads.push_back(runWithout(engine, config, {ModelPart::Kind::Head, l, i}));
        }
        out.head.push_back(std::move(heads));
        out.attention.push_back(runWithout(engine, config, {ModelPart::Kind::Attention, l}));
        // Without an FFN (the key's `none` or the switch off) the pass equals the cell's.
        out.ffn.push_back(runWithout(engine, config, {ModelPart::Kind::Ffn, l}));
        out.block.push_back(runWithout(engine, config, {ModelPart::Kind::Block, l}));
    }
    out.computed = true;
    return out;
}

int knockoutPasses(const TransformerConfig& config) {
    int passes = 0;
    for (int l = 0; l < transformer::layersRun(config); ++l) {
        passes += headCount(config.layers[size_t(l)]) + 3;
    }
    return passes;
}

double knockoutWork(const TransformerConfig& config) {
    return config.knockouts ? knockoutPasses(config) * transformerForwardCost(config) : 0.0;
}

} // namespace attnbook

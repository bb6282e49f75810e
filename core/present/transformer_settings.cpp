#include "core/present/transformer_settings.h"

#include "core/math/layer_norm.h"
#include "core/math/number_format.h"
#include "core/present/transformer_summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace attnbook {

namespace {

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (const std::string& part : parts) {
        out += (out.empty() ? "" : separator) + part;
    }
    return out;
}

std::string plural(long count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

// "the first 1 of 2 layers" when a reader runs fewer than all.
std::string modelText(const TransformerConfig& c, const TransformerResult& r) {
    const int layers = int(c.layers.size());
    const std::string run = r.layersRun == layers ? plural(layers, "layer", "layers")
                                                  : "the first " + std::to_string(r.layersRun) +
                                                        " of " + std::to_string(layers) + " layers";
    return run + ", pre-norm (GPT-2's order); width d = " + std::to_string(r.d) + "; " +
           (c.tiedUnembed ? "the logits score the vocabulary's " : "the logits score ") +
           std::to_string(r.V) + " words" +
           (c.tiedUnembed ? " (tied unembedding)" : " (their own unembedding)");
}

std::string normText(const TransformerConfig& c) {
    if (!c.run.norm) {
        return "switched off: every LayerNorm is the identity";
    }
    bool norms = !c.finalLn.identity;
    for (const TransformerLayer& layer : c.layers) {
        norms = norms || !layer.ln1.identity || !layer.ln2.identity;
    }
    if (!norms) {
        return "none (no LayerNorm anywhere)";
    }
    const int epsDecimals = std::clamp(int(std::ceil(-std::log10(c.eps) - 1e-9)), 0, 12);
    return layerNormWords(c.finalLn) +
           "; every LayerNorm uses ε = " + readableNumber(c.eps, epsDecimals);
}

} // namespace

std::string layerNormWords(const LayerNormParams& norm) {
    if (norm.identity) {
        return "none";
    }
    const bool gamma = !norm.gamma.is_empty();
    const bool beta = !norm.beta.is_empty();
    return gamma && beta ? "γ, β given"
           : gamma       ? "γ given, β = 0"
           : beta        ? "γ = 1, β given"
                         : "γ = 1, β = 0";
}

std::string trainingMethodText(const TrainingSpec& training) {
    return std::string(training.optimizer == TrainingSpec::Optimizer::Adam ? "Adam" : "SGD") +
           ", lr " + settingText(training.lr) + ", " +
           plural(long(training.data.size()), "sentence", "sentences") +
           (training.init
                ? ", from random weights (seed " + std::to_string(training.init->seed) + ")"
                : "");
}

std::string trainingCurveText(const TrainingSpec& training, const std::vector<double>& loss,
                              int shown, double shownLoss) {
    if (loss.empty()) {
        return trainingMethodText(training) + ".";
    }
    return trainingMethodText(training) + ". The loss fell from " + fixedNumber(loss.front(), 4) +
           " to " + fixedNumber(loss.back(), 4) + " in " + std::to_string(loss.size() - 1) +
           " steps; every other view shows the model after step " + std::to_string(shown) +
           " (loss " + fixedNumber(shownLoss, 4) + ").";
}

std::string tokenListText(const std::vector<std::string>& tokens, size_t most) {
    std::vector<std::string> words;
    for (size_t i = 0; i < tokens.size() && i < most; ++i) {
        words.push_back(shortWordText(tokens[i]));
    }
    if (tokens.size() > most) {
        words.push_back("… (" + std::to_string(tokens.size()) + " in all)");
    }
    return joined(words, ", ");
}

CellSourceTexts cellSourceTexts(const LessonCell& cell, const TransformerCellSpec& spec) {
    std::map<std::string, int> tensors; // file → the values it gave
    std::set<std::string> sentences;
    for (const auto& [key, origin] : spec.loadedFrom) {
        if (key == "train.data" || key == "train.held_out") {
            sentences.insert(origin);
            continue;
        }
        // "PATH tensor NAME, shape …" or "PATH, shape …": the path.
        const size_t end = std::min(origin.find(" tensor "), origin.find(", shape"));
        ++tensors[origin.substr(0, end)];
    }
    std::vector<std::string> files;
    for (const std::string& file : cell.read().dataFiles) {
        if (std::find(files.begin(), files.end(), file) == files.end()) {
            files.push_back(file);
        }
    }
    CellSourceTexts out;
    for (const std::string& file : files) {
        const auto it = tensors.find(file);
        if (sentences.count(file) && it == tensors.end()) {
            out.sentences.push_back(file);
        } else if (it != tensors.end() && it->second > 1) {
            out.weights.push_back(file + " (" + std::to_string(it->second) + " values)");
        } else {
            out.weights.push_back(file);
        }
    }
    return out;
}

std::vector<SettingRow> transformerSettingRows(const LessonCell& cell,
                                               const TransformerCellSpec& spec,
                                               const TransformerResult& r) {
    const TransformerConfig& c = spec.config;
    std::vector<SettingRow> rows;
    const std::string focus = r.focus >= 0 && size_t(r.focus) < r.tokens.size()
                                  ? shortWordText(r.tokens[size_t(r.focus)])
                                  : "#" + std::to_string(r.focus + 1);
    rows.push_back({"Tokens",
                    tokenListText(r.tokens) + " (n = " + std::to_string(r.n) +
                        "); the views follow row " + std::to_string(r.focus + 1) + ", ",
                    focus});
    rows.push_back({"Model", modelText(c, r), ""});
    rows.push_back({"Positions",
                    c.positional == PositionalKind::Sinusoidal ? "sinusoidal, added to X₀"
                    : c.positional == PositionalKind::Learned  ? "given, added to X₀"
                                                               : "none",
                    ""});
    rows.push_back({"Final LayerNorm", normText(c), ""});
    rows.push_back({"Temperature", "T = " + settingText(c.temperature), ""});
    if (!c.targets.empty()) {
        std::vector<std::string> targets;
        for (int t : c.targets) {
            targets.push_back(
                t >= 0 && size_t(t) < r.words.size() ? shortWordText(r.words[size_t(t)]) : "~");
        }
        rows.push_back(
            {"Targets",
             joined(targets, ", ") +
                 (r.loss ? "; loss (mean cross-entropy) " + fixedNumber(*r.loss, 4) : ""),
             ""});
    }
    if (c.generate) {
        rows.push_back({"Generation",
                        plural(c.generate->steps, "step", "steps") + ", " +
                            (c.generate->pick == PickKind::Greedy
                                 ? std::string("greedy (the most likely word)")
                                 : "sampled with seed " + std::to_string(c.generate->seed)),
                        ""});
    }
    if (spec.training && r.training) {
        rows.push_back({"Training",
                        plural(spec.training->steps, "step", "steps") + ": " +
                            trainingMethodText(*spec.training) +
                            "; the numbers are the model's after step " +
                            std::to_string(r.training->shown),
                        ""});
    }
    const CellSourceTexts sources = cellSourceTexts(cell, spec);
    if (!sources.weights.empty()) {
        rows.push_back({"Weights read from", joined(sources.weights, "; "), ""});
    }
    if (!sources.sentences.empty()) {
        rows.push_back({"Sentences read from", joined(sources.sentences, "; "), ""});
    }
    return rows;
}

const std::vector<std::string>& layerSettingHeaders() {
    static const std::vector<std::string> headers = {"layer", "heads", "d_k", "d_v",
                                                     "mask",  "LN₁",   "FFN", "LN₂"};
    return headers;
}

std::vector<LayerSettingRow> layerSettingRows(const TransformerConfig& c,
                                              const TransformerResult& r) {
    std::vector<LayerSettingRow> rows;
    for (size_t l = 0; l < c.layers.size(); ++l) {
        const TransformerLayer& layer = c.layers[l];
        const bool ran = int(l) < r.layersRun && l < r.layers.size();
        const AttentionResult* a = ran ? &r.layers[l].attention : nullptr;
        // A reader's view that switches a part off (transformer.md, "Reader views").
        const std::string ffn = !layer.ffn.present ? "none"
                                : !c.run.ffn       ? "switched off"
                                             : "d_ff = " + std::to_string(layer.ffn.W1.n_rows) +
                                                   ", " + activationLabel(layer.ffn.activation);
        const auto norm = [&](const LayerNormParams& ln) {
            return c.run.norm || ln.identity ? layerNormWords(ln) : "switched off";
        };
        rows.push_back({{std::to_string(l + 1) + (ran ? "" : " (not run)"),
                         std::to_string(a ? a->h : layer.attention.heads),
                         a ? std::to_string(a->dK) : "—", a ? std::to_string(a->dV) : "—",
                         layer.attention.mask == MaskKind::Causal ? "causal" : "none",
                         norm(layer.ln1), ffn, norm(layer.ln2)},
                        ran});
    }
    return rows;
}

} // namespace attnbook

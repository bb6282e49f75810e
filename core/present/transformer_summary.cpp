#include "core/present/transformer_summary.h"

#include "core/math/layer_norm.h"
#include "core/math/number_format.h"

namespace attnbook {

namespace {

// The first `most` tokens, then how many there are in all.
std::string tokenList(const std::vector<std::string>& tokens, size_t most) {
    std::string out;
    for (size_t i = 0; i < tokens.size() && i < most; ++i) {
        out += (i ? ", " : "") + shortWordText(tokens[i]);
    }
    if (tokens.size() > most) {
        out += ", … (" + std::to_string(tokens.size()) + " in all)";
    }
    return out;
}

bool anyLayerNorm(const TransformerConfig& config) {
    bool norms = !config.finalLn.identity;
    for (const TransformerLayer& layer : config.layers) {
        norms = norms || !layer.ln1.identity || !layer.ln2.identity;
    }
    return norms;
}

} // namespace

std::string transformerSummaryText(const TransformerCellSpec& spec, const TransformerResult& r) {
    std::vector<std::string> parts{"tokens " + tokenList(r.tokens, 8)};
    const size_t layers = spec.config.layers.size();
    // A reader's views (docs/transformer.md, "Reader views") say what they switched off.
    parts.push_back(r.layersRun < int(layers)
                        ? std::to_string(r.layersRun) + " of " + std::to_string(layers) + " layers"
                    : layers == 1 ? "1 layer"
                                  : std::to_string(layers) + " layers");
    if (!r.layers.empty()) {
        const int h = r.layers.front().attention.h;
        parts.push_back(h == 1 ? "1 head" : std::to_string(h) + " heads");
    }
    parts.push_back("d " + std::to_string(r.d));
    for (const TransformerLayer& layer : spec.config.layers) {
        if (layer.ffn.present) {
            parts.push_back(spec.config.run.ffn ? "d_ff " + std::to_string(layer.ffn.W1.n_rows) +
                                                      " " + activationLabel(layer.ffn.activation)
                                                : std::string("FFN off"));
            break;
        }
    }
    if (!anyLayerNorm(spec.config)) {
        parts.push_back("no LayerNorm");
    } else if (!spec.config.run.norm) {
        parts.push_back("LayerNorm off");
    }
    parts.push_back("T = " + settingText(spec.config.temperature));
    parts.push_back(std::to_string(r.V) + " words");
    std::string out;
    for (const std::string& part : parts) {
        out += (out.empty() ? "" : " · ") + part;
    }
    return out;
}

std::string shortWordText(const std::string& word, int chars) {
    std::string out;
    int count = 0;
    size_t cut = std::string::npos; // where the last kept character ends, at chars − 1
    for (size_t i = 0; i < word.size(); ++i) {
        const char c = word[i];
        const bool starts = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        if (starts && ++count == chars) {
            cut = out.size();
        }
        out += c == '\n' || c == '\t' || c == '\r' ? ' ' : c;
    }
    if (count > chars && cut != std::string::npos) {
        out = out.substr(0, cut) + "…";
    }
    return out;
}

std::string settingText(double value) {
    std::string text = readableNumber(value, 6);
    if (text.find('.') != std::string::npos && text.find('e') == std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.') {
            text.pop_back();
        }
    }
    return text;
}

} // namespace attnbook

#include "core/live/transformer_live_cell.h"

#include "core/document/cell_editor.h"
#include "core/document/setting_words.h"
#include "core/math/transformer_stages.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace attnbook {
namespace {

TransformerSettings settingsOf(const TransformerCellSpec& spec) {
    const TransformerConfig& c = spec.config;
    TransformerSettings s;
    s.tokens = c.tokens;
    s.positional = c.positional;
    s.run = c.run;
    s.temperature = c.temperature;
    if (!c.layers.empty()) {
        s.mask = c.layers.front().attention.mask;
        s.maskMixed = std::any_of(c.layers.begin(), c.layers.end(), [&](const TransformerLayer& l) {
            return l.attention.mask != s.mask;
        });
    }
    if (c.generate) {
        s.generateSteps = c.generate->steps;
        s.pick = c.generate->pick;
        s.seed = c.generate->seed;
    }
    return s;
}

// A per-token list (targets, padding) after the tokens changed: entries of rows that still
// hold the authored token stay, the rest take `none`.
template <class T>
std::vector<T> followTokens(const std::vector<T>& authored, const std::vector<std::string>& was,
                            const std::vector<std::string>& now, T none) {
    if (authored.empty()) {
        return authored;
    }
    std::vector<T> out(now.size(), none);
    for (size_t r = 0; r < now.size() && r < was.size() && r < authored.size(); ++r) {
        if (now[r] == was[r]) {
            out[r] = authored[r];
        }
    }
    return out;
}

// The shortest text that reads back as exactly `value` (0.5, not 0.50000000000000000).
std::string shortestNumber(double value) {
    char text[40];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        if (std::strtod(text, nullptr) == value) {
            break;
        }
    }
    return text;
}

} // namespace

TransformerLiveCell::TransformerLiveCell(TransformerCellSpec authored)
    : authored_(std::move(authored)), authoredSettings_(settingsOf(authored_)),
      settings_(authoredSettings_) {}

bool TransformerLiveCell::allows(const std::string& control) const {
    return std::find(authored_.controls.begin(), authored_.controls.end(), control) !=
           authored_.controls.end();
}

TransformerConfig TransformerLiveCell::config() const {
    TransformerConfig c = transformer::sharedWeights(authored_.config);
    const TransformerSettings& s = settings_;
    if (s.tokens != authoredSettings_.tokens) {
        // (n × d) the new tokens' rows of the vocabulary
        c.X0.set_size(s.tokens.size(), c.vocab.n_cols);
        for (size_t r = 0; r < s.tokens.size(); ++r) {
            c.X0.row(arma::uword(r)) = authored_.vocab.at(s.tokens[r]);
        }
        c.targets = followTokens(c.targets, c.tokens, s.tokens, -1);
        for (TransformerLayer& layer : c.layers) {
            std::vector<char> flags(layer.attention.padding.begin(), layer.attention.padding.end());
            flags = followTokens(flags, c.tokens, s.tokens, char(0));
            layer.attention.padding.assign(flags.begin(), flags.end());
        }
        c.upstream.reset(); // an n × V matrix of the old n
        c.focus = std::min(c.focus, int(s.tokens.size()) - 1);
        c.tokens = s.tokens;
    }
    c.positional = s.positional;
    if (!s.maskMixed) {
        for (TransformerLayer& layer : c.layers) {
            layer.attention.mask = s.mask;
        }
    }
    c.run = s.run;
    c.temperature = s.temperature;
    if (s.generateSteps > 0) {
        c.generate = GenerateRequest{s.generateSteps, s.pick, s.seed};
    } else {
        c.generate.reset();
    }
    return c;
}

std::string TransformerLiveCell::apply(TransformerSettings next, const char* control) {
    if (!allows(control)) {
        return std::string("this cell does not let readers change ") + control;
    }
    if (next == settings_) {
        return "";
    }
    if (!gestureRecorded_) {
        undo_.push(settings_); // the settings (before the whole gesture) that Undo returns to
        gestureRecorded_ = gestureOpen_;
    }
    settings_ = std::move(next);
    return "";
}

void TransformerLiveCell::beginGesture() {
    gestureOpen_ = true;
    gestureRecorded_ = false;
}

void TransformerLiveCell::endGesture() {
    if (gestureRecorded_ && !undo_.empty() && undo_.latest() == settings_) {
        undo_.pop(); // back where it began: nothing to take back
    }
    gestureOpen_ = false;
    gestureRecorded_ = false;
}

std::string TransformerLiveCell::replaceToken(int index, const std::string& word) {
    if (index < 0 || size_t(index) >= settings_.tokens.size()) {
        return "there is no token " + std::to_string(index);
    }
    if (!authored_.vocab.count(word)) {
        return "'" + word + "' is not in the vocab";
    }
    TransformerSettings next = settings_;
    next.tokens[size_t(index)] = word;
    return apply(std::move(next), "tokens");
}

std::string TransformerLiveCell::addToken(const std::string& word) {
    if (!authored_.vocab.count(word)) {
        return "'" + word + "' is not in the vocab";
    }
    if (int(settings_.tokens.size()) >= kMaxTokens) {
        return "at most " + std::to_string(kMaxTokens) + " tokens here";
    }
    if (settings_.positional == PositionalKind::Learned) {
        return "learned positions have one row per authored token: no more tokens";
    }
    TransformerSettings next = settings_;
    next.tokens.push_back(word);
    return apply(std::move(next), "tokens");
}

std::string TransformerLiveCell::removeToken(int index) {
    if (index < 0 || size_t(index) >= settings_.tokens.size()) {
        return "there is no token " + std::to_string(index);
    }
    if (settings_.tokens.size() == 1) {
        return "a cell needs at least one token";
    }
    if (settings_.positional == PositionalKind::Learned) {
        return "learned positions have one row per authored token: none can go";
    }
    TransformerSettings next = settings_;
    next.tokens.erase(next.tokens.begin() + index);
    return apply(std::move(next), "tokens");
}

std::string TransformerLiveCell::setLayersRun(int layers) {
    const int authored = int(authored_.config.layers.size());
    if (layers < 1 || layers > authored) {
        return "the cell has layers 1 to " + std::to_string(authored);
    }
    TransformerSettings next = settings_;
    next.run.layers = layers == authored ? -1 : layers;
    return apply(std::move(next), "layers");
}

std::string TransformerLiveCell::setNorm(bool on) {
    TransformerSettings next = settings_;
    next.run.norm = on;
    return apply(std::move(next), "norm");
}

std::string TransformerLiveCell::setFeedForward(bool on) {
    TransformerSettings next = settings_;
    next.run.ffn = on;
    return apply(std::move(next), "ffn");
}

std::string TransformerLiveCell::setTemperature(double temperature) {
    if (!(temperature > 0) || !std::isfinite(temperature) || temperature > 100) {
        return "the temperature must be above 0 (and at most 100)";
    }
    TransformerSettings next = settings_;
    next.temperature = temperature;
    return apply(std::move(next), "temperature");
}

std::string TransformerLiveCell::setGenerate(int steps, PickKind pick, std::uint64_t seed) {
    if (steps < 0 || steps > 64) {
        return "generate between 0 and 64 words here";
    }
    TransformerSettings next = settings_;
    next.generateSteps = steps;
    next.pick = pick;
    next.seed = seed;
    return apply(std::move(next), "generate");
}

std::string TransformerLiveCell::setMask(MaskKind mask) {
    if (settings_.maskMixed) {
        return "the layers of this cell have different masks: change them in the cell";
    }
    TransformerSettings next = settings_;
    next.mask = mask;
    return apply(std::move(next), "mask");
}

std::string TransformerLiveCell::setPositional(PositionalKind positional) {
    if (positional == PositionalKind::Learned &&
        authored_.config.positional != PositionalKind::Learned) {
        return "this cell has no learned positions";
    }
    if (positional == PositionalKind::Learned &&
        settings_.tokens.size() != authoredSettings_.tokens.size()) {
        return "learned positions have one row per authored token";
    }
    TransformerSettings next = settings_;
    next.positional = positional;
    return apply(std::move(next), "positional");
}

bool TransformerLiveCell::undo() {
    if (undo_.empty()) {
        return false;
    }
    settings_ = undo_.pop();
    return true;
}

void TransformerLiveCell::reset() {
    if (edited()) {
        undo_.push(settings_);
        settings_ = authoredSettings_;
    }
}

TransformerKeepPlan TransformerLiveCell::keepPlan() const {
    TransformerKeepPlan plan;
    const TransformerSettings& now = settings_;
    const TransformerSettings& was = authoredSettings_;
    if (now.tokens != was.tokens) {
        plan.keys.emplace_back("tokens", yamlFlowStrings(now.tokens));
        const TransformerConfig c = config();
        if (!c.targets.empty()) {
            // A word as yamlFlowStrings quotes it; ~ (no target) bare, which it would quote.
            std::string targets;
            for (int t : c.targets) {
                const std::string item = t < 0 ? "~" : yamlFlowStrings({c.words()[size_t(t)]});
                targets += (targets.empty() ? "" : ", ") +
                           (t < 0 ? item : item.substr(1, item.size() - 2));
            }
            plan.keys.emplace_back("targets", "[" + targets + "]");
        }
    }
    if (now.positional != was.positional) {
        plan.keys.emplace_back("positional", positionalName(now.positional));
    }
    if (now.temperature != was.temperature) {
        plan.keys.emplace_back("temperature", shortestNumber(now.temperature));
    }
    if (now.generateSteps != was.generateSteps || now.pick != was.pick || now.seed != was.seed) {
        if (now.generateSteps == 0) {
            plan.keys.emplace_back("generate", "none");
        } else {
            std::string yaml =
                "{steps: " + std::to_string(now.generateSteps) + ", pick: " + pickName(now.pick);
            if (now.pick == PickKind::Sample) {
                yaml += ", seed: " + std::to_string(now.seed);
            }
            plan.keys.emplace_back("generate", yaml + "}");
        }
    }
    if (now.mask != was.mask) {
        plan.notKept.push_back("the mask (" + maskName(now.mask) + "), which each layer sets");
    }
    if (now.run.layers != was.run.layers) {
        plan.notKept.push_back("running " + std::to_string(now.run.layers) + " of the layers");
    }
    if (now.run.norm != was.run.norm) {
        plan.notKept.push_back(std::string("LayerNorm ") + (now.run.norm ? "on" : "off"));
    }
    if (now.run.ffn != was.run.ffn) {
        plan.notKept.push_back(std::string("the FFN ") + (now.run.ffn ? "on" : "off"));
    }
    return plan;
}

} // namespace attnbook

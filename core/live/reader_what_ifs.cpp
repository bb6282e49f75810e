#include "core/live/reader_what_ifs.h"

#include "core/document/editable_attention.h"
#include "core/live/reader_view_words.h"
#include "core/live/transformer_live_cell.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace attnbook {
namespace {

bool has(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

// The keys each control may write (what Keep writes after its edits), by kind of cell.
const std::map<std::string, std::vector<std::string>>& attentionKeysOf() {
    static const std::map<std::string, std::vector<std::string>> keys = {
        {"tokens", {"tokens", "vocab", "padding", "positional", "upstream", "focus"}},
        {"vectors", {"vocab", "X", "queries", "keys", "values"}},
        {"heads", {"heads"}},
        {"mask", {"mask", "padding"}},
        {"positional", {"positional"}},
        {"scale", {"scale"}},
        {"projections", {"W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O"}}};
    return keys;
}

const std::map<std::string, std::vector<std::string>>& transformerKeysOf() {
    static const std::map<std::string, std::vector<std::string>> keys = {
        {"tokens", {"tokens", "targets"}},
        {"temperature", {"temperature"}},
        {"generate", {"generate"}},
        {"positional", {"positional"}}};
    return keys;
}

// The words a token may be replaced with: the vocab in file order (without one, the other
// labels of the sentence), the first `count` that differ from `current`.
std::vector<std::string> otherWords(const std::vector<std::string>& vocab,
                                    const std::vector<std::string>& tokens,
                                    const std::string& current, size_t count) {
    std::vector<std::string> pool = vocab;
    if (pool.empty()) {
        for (const std::string& t : tokens) {
            if (!has(pool, t)) {
                pool.push_back(t);
            }
        }
    }
    std::vector<std::string> out;
    for (const std::string& word : pool) {
        if (word != current && out.size() < count) {
            out.push_back(word);
        }
    }
    return out;
}

constexpr size_t kReplacements = 3;    // other words tried at each token
constexpr arma::uword kSignsTried = 4; // entries of the first vector turned around

// Collects the what-ifs of one cell, skipping edits that are refused or change nothing, and
// any whose keys another what-if already gave.
class Collector {
  public:
    explicit Collector(std::string cellId) : cellId_(std::move(cellId)) {}

    void add(const std::string& label, std::vector<std::pair<std::string, std::string>> keys) {
        if (keys.empty() || !seen_.insert(keys).second) {
            return;
        }
        out_.push_back({cellId_, control_, label, std::move(keys)});
    }
    // The control the what-ifs added next come from.
    void control(std::string name) { control_ = std::move(name); }
    std::vector<ReaderWhatIf> take() { return std::move(out_); }

  private:
    std::string cellId_;
    std::string control_;
    std::set<std::vector<std::pair<std::string, std::string>>> seen_;
    std::vector<ReaderWhatIf> out_;
};

std::string tokenName(const std::vector<std::string>& tokens, size_t i) {
    return "token " + std::to_string(i + 1) + " (" + tokens[i] + ")";
}

using AttentionEdit = std::function<EditRefusal(EditableAttention&)>;
// Tries one edit of the authored cell and keeps it as a what-if when it is not refused.
using TryEdit = std::function<void(const std::string& label, const AttentionEdit& edit)>;

// The tokens control: each token removed, replaced and swapped, and one word added.
void tokenWhatIfs(const EditableAttention& authored, const TryEdit& tryEdit) {
    const std::vector<std::string>& tokens = authored.config.tokens;
    for (size_t i = 0; i < tokens.size(); ++i) {
        tryEdit("remove " + tokenName(tokens, i),
                [&](EditableAttention& s) { return removeToken(s, int(i)); });
    }
    for (size_t i = 0; i < tokens.size(); ++i) {
        for (const std::string& word :
             otherWords(authored.vocabOrder, tokens, tokens[i], kReplacements)) {
            tryEdit("replace " + tokenName(tokens, i) + " with " + word,
                    [&](EditableAttention& s) { return renameToken(s, int(i), word); });
        }
    }
    // Neighbours, then the first with the last: two moves swap tokens i < j.
    std::vector<std::pair<int, int>> swaps;
    for (size_t i = 0; i + 1 < tokens.size(); ++i) {
        swaps.emplace_back(int(i), int(i + 1));
    }
    if (tokens.size() > 2) {
        swaps.emplace_back(0, int(tokens.size()) - 1);
    }
    for (const auto& [i, j] : swaps) {
        tryEdit("swap " + tokenName(tokens, size_t(i)) + " and " + tokenName(tokens, size_t(j)),
                [&, i = i, j = j](EditableAttention& s) -> EditRefusal {
                    if (EditRefusal r = moveToken(s, j, i)) {
                        return r;
                    }
                    return moveToken(s, i + 1, j);
                });
    }
    const std::vector<std::string> first = otherWords(authored.vocabOrder, tokens, "", 1);
    if (!first.empty()) {
        tryEdit("add " + first[0], [&](EditableAttention& s) { return addToken(s, first[0]); });
    }
}

// The vectors control: one entry of the first vector changed, and its signs turned around.
void vectorWhatIfs(const EditableAttention& authored, const TryEdit& tryEdit) {
    const std::string name = authored.config.direct ? "queries" : "X0";
    const arma::mat m = editableMatrix(authored, name);
    if (m.is_empty()) {
        return;
    }
    tryEdit("add 1 to " + name + "[0][0]",
            [&](EditableAttention& s) { return setMatrixEntry(s, name, 0, 0, m(0, 0) + 1); });
    // A sign says which way a vector points ("asks for a plural thing"): each entry of
    // the first vector turned around, so claims about directions are tried.
    for (arma::uword col = 0; col < std::min<arma::uword>(m.n_cols, kSignsTried); ++col) {
        if (m(0, col) != 0) {
            const std::string at = "[0][" + std::to_string(col) + "]";
            tryEdit("negate " + name + at, [&](EditableAttention& s) {
                return setMatrixEntry(s, name, 0, int(col), -m(0, col));
            });
        }
    }
}

// The mask control: both masks, and the first and last key padded.
void maskWhatIfs(const EditableAttention& authored, const TryEdit& tryEdit) {
    const AttentionConfig& c = authored.config;
    tryEdit("no mask", [](EditableAttention& s) { return setMask(s, MaskKind::None); });
    tryEdit("causal mask", [](EditableAttention& s) { return setMask(s, MaskKind::Causal); });
    const int keys = int(c.direct ? c.keys.n_rows : c.X0.n_rows);
    for (const int key : {0, keys - 1}) {
        tryEdit("pad key " + std::to_string(key + 1),
                [&](EditableAttention& s) { return setPadding(s, key, true); });
    }
}

// The positional, scale and projections controls: each choice they offer.
void choiceWhatIfs(const std::string& control, const TryEdit& tryEdit) {
    if (control == "positional") {
        tryEdit("no positions",
                [](EditableAttention& s) { return setPositional(s, PositionalKind::None); });
        tryEdit("sinusoidal positions",
                [](EditableAttention& s) { return setPositional(s, PositionalKind::Sinusoidal); });
        tryEdit("learned positions",
                [](EditableAttention& s) { return setPositional(s, PositionalKind::Learned); });
    } else if (control == "scale") {
        tryEdit("scale 1/√d_k",
                [](EditableAttention& s) { return setScale(s, ScaleKind::InverseSqrtDk, 1.0); });
        tryEdit("no scaling",
                [](EditableAttention& s) { return setScale(s, ScaleKind::Off, 1.0); });
        tryEdit("scale 1/2",
                [](EditableAttention& s) { return setScale(s, ScaleKind::Divisor, 2.0); });
    } else if (control == "projections") {
        for (const char* name : {"W_Q", "W_K", "W_V", "W_O"}) {
            tryEdit(std::string(name) + " identity",
                    [&](EditableAttention& s) { return setIdentity(s, name); });
            tryEdit(std::string(name) + " zeros",
                    [&](EditableAttention& s) { return setZero(s, name); });
        }
    }
}

std::vector<ReaderWhatIf> attentionWhatIfs(const std::string& id, const AttentionCellSpec& spec) {
    const EditableAttention authored = EditableAttention::fromSpec(spec);
    const std::vector<std::string>& controls = spec.controls;
    Collector out(id);
    const TryEdit tryEdit = [&](const std::string& label, const AttentionEdit& edit) {
        EditableAttention state = authored;
        if (!edit(state)) {
            out.add(label, changedKeys(authored, state));
        }
    };
    const bool direct = authored.config.direct;
    if (has(controls, "tokens") && !direct) {
        out.control("tokens");
        tokenWhatIfs(authored, tryEdit);
    }
    if (has(controls, "vectors")) {
        out.control("vectors");
        vectorWhatIfs(authored, tryEdit);
    }
    if (has(controls, "heads")) {
        out.control("heads");
        for (int h : allowedHeads(authored)) {
            tryEdit(std::to_string(h) + " heads",
                    [&](EditableAttention& s) { return setHeads(s, h); });
        }
    }
    if (has(controls, "mask")) {
        out.control("mask");
        maskWhatIfs(authored, tryEdit);
    }
    for (const char* control : {"positional", "scale", "projections"}) {
        if (has(controls, control) && !(direct && std::string(control) == "projections")) {
            out.control(control);
            choiceWhatIfs(control, tryEdit);
        }
    }
    return out.take();
}

std::vector<ReaderWhatIf> transformerWhatIfs(const std::string& id,
                                             const TransformerCellSpec& spec) {
    Collector out(id);
    const TransformerLiveCell authored(spec);
    const auto tryEdit = [&](const std::string& label,
                             const std::function<std::string(TransformerLiveCell&)>& edit) {
        TransformerLiveCell cell(spec);
        if (edit(cell).empty()) {
            out.add(label, cell.keepPlan().keys);
        }
    };
    const std::vector<std::string>& tokens = authored.settings().tokens;
    if (authored.allows("tokens")) {
        out.control("tokens");
        for (size_t i = 0; i < tokens.size(); ++i) {
            tryEdit("remove " + tokenName(tokens, i),
                    [&](TransformerLiveCell& c) { return c.removeToken(int(i)); });
        }
        for (size_t i = 0; i < tokens.size(); ++i) {
            for (const std::string& word :
                 otherWords(spec.vocabOrder, tokens, tokens[i], kReplacements)) {
                tryEdit("replace " + tokenName(tokens, i) + " with " + word,
                        [&](TransformerLiveCell& c) { return c.replaceToken(int(i), word); });
            }
        }
        for (size_t i = 0; i + 1 < tokens.size(); ++i) {
            tryEdit("swap " + tokenName(tokens, i) + " and " + tokenName(tokens, i + 1),
                    [&](TransformerLiveCell& c) {
                        const std::string first = c.replaceToken(int(i), tokens[i + 1]);
                        return first.empty() ? c.replaceToken(int(i + 1), tokens[i]) : first;
                    });
        }
        if (!spec.vocabOrder.empty()) {
            tryEdit("add " + spec.vocabOrder.front(),
                    [&](TransformerLiveCell& c) { return c.addToken(spec.vocabOrder.front()); });
        }
    }
    if (authored.allows("temperature")) {
        out.control("temperature");
        for (const double t : {0.5, 2.0}) {
            tryEdit(t < 1 ? "temperature 0.5" : "temperature 2",
                    [&](TransformerLiveCell& c) { return c.setTemperature(t); });
        }
    }
    if (authored.allows("generate")) {
        out.control("generate");
        tryEdit("generate nothing",
                [](TransformerLiveCell& c) { return c.setGenerate(0, PickKind::Greedy, 0); });
        tryEdit("generate three greedy words",
                [](TransformerLiveCell& c) { return c.setGenerate(3, PickKind::Greedy, 0); });
    }
    if (authored.allows("positional")) {
        out.control("positional");
        tryEdit("no positions",
                [](TransformerLiveCell& c) { return c.setPositional(PositionalKind::None); });
        tryEdit("sinusoidal positions",
                [](TransformerLiveCell& c) { return c.setPositional(PositionalKind::Sinusoidal); });
    }
    return out.take();
}

} // namespace

std::vector<ReaderViewWhatIf> readerViewWhatIfs(const LessonCell& cell) {
    const TransformerCellSpec* spec = cell.transformer();
    if (!spec) {
        return {};
    }
    const TransformerLiveCell authored(*spec);
    std::vector<ReaderViewWhatIf> out;
    const auto add = [&](const std::string& control, const std::string& label,
                         const std::string& value,
                         std::function<std::string(TransformerLiveCell&)> edit) {
        TransformerLiveCell trial(*spec);
        if (authored.allows(control) && edit(trial).empty()) {
            out.push_back({cell.id, control, label, std::move(edit), "view." + control, value});
        }
    };
    const int layers = int(spec->config.layers.size());
    for (int run = 1; run < layers; ++run) {
        add("layers",
            std::to_string(run) + (run == 1 ? " layer" : " layers") + " of " +
                std::to_string(layers),
            std::to_string(run), [run](TransformerLiveCell& c) { return c.setLayersRun(run); });
    }
    add("norm", "norm off", "off", [](TransformerLiveCell& c) { return c.setNorm(false); });
    add("ffn", "feed-forward off", "off",
        [](TransformerLiveCell& c) { return c.setFeedForward(false); });
    add("mask", "no mask", "none",
        [](TransformerLiveCell& c) { return c.setMask(MaskKind::None); });
    return out;
}

bool readerMayChange(const LessonCell& cell, const std::string& key) {
    if (key == "focus") {
        return cell.attention() || cell.transformer();
    }
    if (isReaderViewKey(key)) {
        const TransformerCellSpec* spec = cell.transformer();
        const std::string control = readerViewControl(key);
        return spec && !control.empty() && has(spec->controls, control);
    }
    const std::vector<std::string>* controls = nullptr;
    const std::map<std::string, std::vector<std::string>>* keysOf = nullptr;
    if (const AttentionCellSpec* spec = cell.attention()) {
        controls = &spec->controls;
        keysOf = &attentionKeysOf();
    } else if (const TransformerCellSpec* spec = cell.transformer()) {
        controls = &spec->controls;
        keysOf = &transformerKeysOf();
    } else {
        return false;
    }
    for (const std::string& control : *controls) {
        const auto found = keysOf->find(control);
        if (found != keysOf->end() && has(found->second, key)) {
            return true;
        }
    }
    return false;
}

std::vector<ReaderWhatIf> readerWhatIfs(const LessonCell& cell) {
    if (const AttentionCellSpec* spec = cell.attention()) {
        return attentionWhatIfs(cell.id, *spec);
    }
    if (const TransformerCellSpec* spec = cell.transformer()) {
        return transformerWhatIfs(cell.id, *spec);
    }
    return {};
}

} // namespace attnbook

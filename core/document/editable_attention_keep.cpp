// What Keep writes back for an edited attention cell: the keys that differ from the authored
// cell, each written as the lesson writes it, with a value read from a file kept as a file
// reference when the edit keeps its shape (docs/lesson-format.md).
#include "core/document/editable_attention.h"

#include "core/document/attention_member_lookup.h"
#include "core/document/cell_editor.h"
#include "core/document/json.h"
#include "core/document/setting_words.h"

#include <algorithm>
#include <functional>

namespace attnbook {
namespace {

// Entry by entry, stopping at the first difference and allocating nothing: the window asks
// after every edit, and a loaded projection has 589824 entries.
bool sameMatrix(const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols &&
           std::equal(a.begin(), a.end(), b.begin());
}
bool sameVector(const arma::rowvec& a, const arma::rowvec& b) {
    return a.n_elem == b.n_elem && std::equal(a.begin(), a.end(), b.begin());
}
bool sameProjection(const Projection& a, const Projection& b) {
    return a.identity == b.identity && (a.identity || sameMatrix(a.weights, b.weights));
}

std::string flowLabel(const std::string& label) {
    const std::string list = yamlFlowStrings({label});
    return list.substr(1, list.size() - 2);
}

std::string numberText(double value) {
    return shortestDouble(value);
}

// The value of cell key `key` as a matrix in the shape its file gave (`source`), or nullopt
// when the key holds no matrix now (an identity projection, no learned positions).
std::optional<arma::mat> keyMatrix(const EditableAttention& s, const std::string& key,
                                   const FileValueSource& source) {
    const AttentionConfig& c = s.config;
    if (key == "X") {
        return c.direct || s.usesVocab() ? std::nullopt : std::optional(c.X0);
    }
    if (key == "positional") {
        return c.positional == PositionalKind::Learned ? std::optional(c.learnedP) : std::nullopt;
    }
    if (key == "upstream") {
        return c.upstream;
    }
    // The member lookups (attention_member_lookup.h), read-only.
    AttentionConfig& named = const_cast<AttentionConfig&>(c);
    if (const arma::mat* m = directMatrixOf(named, key)) {
        return c.direct ? std::optional(*m) : std::nullopt;
    }
    if (const Projection* p = projectionOf(c, key)) {
        return p->identity ? std::nullopt : std::optional(p->weights);
    }
    if (const arma::rowvec* b = biasOf(named, key); b && b->n_elem == source.rows * source.cols) {
        // (1 × n) or (n × 1), as the file gave it.
        return arma::mat(arma::reshape(arma::mat(*b), source.rows, source.cols));
    }
    return std::nullopt;
}

// The reference Keep writes for `key` of `b`, when `a` read it from a file and the edit keeps
// its shape (keptFileValue); nullopt: Keep types the value out.
std::optional<FileValueSource> keptSourceOf(const EditableAttention& a, const EditableAttention& b,
                                            const std::string& key) {
    const auto found = a.fileValues.find(key);
    if (found == a.fileValues.end()) {
        return std::nullopt;
    }
    const std::optional<arma::mat> before = keyMatrix(a, key, found->second);
    const std::optional<arma::mat> after = keyMatrix(b, key, found->second);
    if (!before || !after) {
        return std::nullopt;
    }
    return keptFileValue(found->second, *before, *after);
}

// What Keep writes for `key`: its file reference with the changed entries set, or `typed()`.
template <class Typed>
std::string keptText(const EditableAttention& a, const EditableAttention& b, const std::string& key,
                     Typed typed) {
    if (const std::optional<FileValueSource> kept = keptSourceOf(a, b, key)) {
        return fileValueText(*kept);
    }
    return typed();
}

// visitChanges for the tokens and their vectors (vocab or X); true when `changed` stops it.
template <class Sink>
bool visitTokenChanges(const EditableAttention& a, const EditableAttention& b, Sink& changed) {
    const AttentionConfig& x = a.config;
    const AttentionConfig& y = b.config;
    if (!y.direct && x.tokens != y.tokens) {
        if (changed("tokens", [&] { return std::string(yamlFlowStrings(y.tokens)); })) {
            return true;
        }
    }
    if (b.usesVocab()) {
        bool differs = a.vocabOrder != b.vocabOrder;
        for (const auto& [label, vector] : b.vocab) {
            const auto found = a.vocab.find(label);
            differs = differs || found == a.vocab.end() || !sameVector(found->second, vector);
        }
        if (differs) {
            // One line per word, as lessons write their vocab.
            if (changed("vocab", [&] {
                    std::string text;
                    for (const std::string& label : b.vocabOrder) {
                        text += flowLabel(label) + ": " + yamlFlowVector(b.vocab.at(label)) + "\n";
                    }
                    return text;
                })) {
                return true;
            }
        }
    } else if (!y.direct && !sameMatrix(x.X0, y.X0)) {
        if (changed("X",
                    [&] { return keptText(a, b, "X", [&] { return yamlFlowMatrix(y.X0); }); })) {
            return true;
        }
    }
    return false;
}

// visitChanges for the settings: heads, scale, mask, padding, positional.
template <class Sink>
bool visitSettingChanges(const EditableAttention& a, const EditableAttention& b, Sink& changed) {
    const AttentionConfig& x = a.config;
    const AttentionConfig& y = b.config;
    if (x.heads != y.heads) {
        if (changed("heads", [&] { return std::string(std::to_string(y.heads)); })) {
            return true;
        }
    }
    if (x.scaleKind != y.scaleKind ||
        (y.scaleKind == ScaleKind::Divisor && x.scaleDivisor != y.scaleDivisor)) {
        if (changed("scale", [&] {
                return std::string(y.scaleKind == ScaleKind::InverseSqrtDk ? "true"
                                   : y.scaleKind == ScaleKind::Off         ? "false"
                                                                   : numberText(y.scaleDivisor));
            })) {
            return true;
        }
    }
    if (x.mask != y.mask) {
        if (changed("mask", [&] { return maskName(y.mask); })) {
            return true;
        }
    }
    if (x.padding != y.padding) {
        if (changed("padding", [&] {
                if (y.padding.empty()) {
                    return std::string("none");
                }
                std::string text = "[";
                for (size_t i = 0; i < y.padding.size(); ++i) {
                    text += std::string(i ? ", " : "") + (y.padding[i] ? "true" : "false");
                }
                return text + "]";
            })) {
            return true;
        }
    }
    if (x.positional != y.positional ||
        (y.positional == PositionalKind::Learned && !sameMatrix(x.learnedP, y.learnedP))) {
        if (changed("positional", [&] {
                return y.positional == PositionalKind::Learned
                           ? keptText(a, b, "positional",
                                      [&] { return yamlFlowMatrix(y.learnedP); })
                           : positionalName(y.positional);
            })) {
            return true;
        }
    }
    return false;
}

// visitChanges for the weights, the biases, the direct inputs and upstream.
template <class Sink>
bool visitMatrixChanges(const EditableAttention& a, const EditableAttention& b, Sink& changed) {
    const AttentionConfig& x = a.config;
    const AttentionConfig& y = b.config;
    // The weights, the biases, then the direct inputs (the name table's order).
    for (const InputMatrixName& entry : inputMatrixNames()) {
        const std::string name = entry.key;
        std::function<std::string()> text;
        if (entry.projection) {
            const Projection& p = x.*(entry.projection);
            const Projection& q = y.*(entry.projection);
            if (!sameProjection(p, q)) {
                text = [&a, &b, &q, name] {
                    return q.identity
                               ? std::string("identity")
                               : keptText(a, b, name, [&] { return yamlFlowMatrix(q.weights); });
                };
            }
        } else if (entry.bias) {
            const arma::rowvec& v = y.*(entry.bias);
            if (!sameVector(x.*(entry.bias), v)) {
                text = [&a, &b, &v, name] {
                    return keptText(a, b, name, [&] { return yamlFlowVector(v); });
                };
            }
        } else if (entry.isDirect() && y.direct) {
            const arma::mat& m = y.*(entry.matrix);
            if (!sameMatrix(x.*(entry.matrix), m)) {
                text = [&a, &b, &m, name] {
                    return keptText(a, b, name, [&] { return yamlFlowMatrix(m); });
                };
            }
        }
        if (text && changed(name, text)) {
            return true;
        }
    }
    if (x.upstream.has_value() != y.upstream.has_value() ||
        (y.upstream && !sameMatrix(*x.upstream, *y.upstream))) {
        if (changed("upstream", [&] {
                return y.upstream
                           ? keptText(a, b, "upstream", [&] { return yamlFlowMatrix(*y.upstream); })
                           : std::string("ones");
            })) {
            return true;
        }
    }
    return false;
}

// Calls `changed(key, text)` for each key that differs, where `text()`
// writes the new value; comparing does not need the text, so it is lazy.
template <class Sink>
void visitChanges(const EditableAttention& a, const EditableAttention& b, Sink changed,
                  bool focus = true) {
    if (visitTokenChanges(a, b, changed) || visitSettingChanges(a, b, changed) ||
        visitMatrixChanges(a, b, changed)) {
        return;
    }
    const AttentionConfig& x = a.config;
    const AttentionConfig& y = b.config;
    if (focus && x.focus != y.focus) {
        if (changed("focus", [&] { return std::string(std::to_string(y.focus)); })) {
            return;
        }
    }
}

} // namespace

EditableAttention keptState(const EditableAttention& authored, const EditableAttention& edited) {
    EditableAttention kept = edited;
    kept.fileValues = authored.fileValues;
    for (auto& [key, source] : authored.fileValues) {
        const std::optional<arma::mat> before = keyMatrix(authored, key, source);
        const std::optional<arma::mat> after = keyMatrix(edited, key, source);
        if (before && after && sameMatrix(*before, *after)) {
            continue; // not edited: the document still says what it said
        }
        if (std::optional<FileValueSource> written = keptSourceOf(authored, edited, key)) {
            kept.fileValues[key] = std::move(*written);
        } else {
            kept.fileValues.erase(key); // typed out (or no longer a matrix)
        }
    }
    return kept;
}

std::vector<std::pair<std::string, std::string>> changedKeys(const EditableAttention& authored,
                                                             const EditableAttention& edited) {
    std::vector<std::pair<std::string, std::string>> out;
    visitChanges(authored, edited, [&](const std::string& key, const auto& text) {
        out.emplace_back(key, text());
        return false;
    });
    return out;
}

bool hasChanges(const EditableAttention& authored, const EditableAttention& edited,
                bool countFocus) {
    bool any = false;
    visitChanges(
        authored, edited,
        [&](const std::string&, const auto&) {
            any = true;
            return true; // one difference is enough
        },
        countFocus);
    return any;
}

} // namespace attnbook

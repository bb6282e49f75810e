// One refusable edit per control of an attention cell (heads, mask, padding, positional, scale,
// focus, tokens, every matrix entry), each with the reason it refuses in words. They all go
// through the same tryEdit and shape checks at the top; the diff against the authored cell that
// Keep writes back is editable_attention_keep.cpp.
#include "core/document/editable_attention.h"

#include "core/document/attention_member_lookup.h"
#include "core/document/cell_editor.h"
#include "core/document/cell_specs.h"
#include "core/document/json.h"
#include "core/document/matrix_names.h"
#include "core/document/setting_words.h"
#include "core/math/attention_shapes.h"
#include "core/math/attention_widths.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace attnbook {
namespace {

// Why the shapes of an edited cell cannot be computed. Its values need no new check: they
// were checked when the cell was read, and every edit writes finite numbers only (a number
// typed is refused when not finite; a new token's vector comes from the vocab or is zeros).
EditRefusal shapeProblem(const EditableAttention& state) {
    try {
        resolveWidths(state.config, state.config.heads, AttentionLimits{});
    } catch (const InvalidConfig& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

// Applies `edit` to a copy and commits it only when the result can be
// computed, so a refused edit never leaves a half-changed cell behind.
template <class Edit> EditRefusal tryEdit(EditableAttention& state, Edit edit) {
    EditableAttention candidate = state;
    if (EditRefusal refusal = edit(candidate)) {
        return refusal;
    }
    if (EditRefusal problem = shapeProblem(candidate)) {
        return problem;
    }
    state = std::move(candidate);
    return std::nullopt;
}

// tryEdit for an edit that leaves the four weight matrices alone: they move into the copy
// and back instead of being copied. They are most of a cell read from a model's files (19 MB
// in GPT-2 small's shape), and the window makes every edit on the GUI thread.
template <class Edit> EditRefusal tryEditKeepingWeights(EditableAttention& state, Edit edit) {
    WeightMatrices kept = takeWeights(state);
    EditableAttention candidate = state;
    putWeights(candidate, std::move(kept));
    EditRefusal refusal = edit(candidate);
    if (!refusal) {
        refusal = shapeProblem(candidate);
    }
    if (refusal) {
        putWeights(state, takeWeights(candidate));
        return refusal;
    }
    state = std::move(candidate);
    return std::nullopt;
}

int keyRows(const AttentionConfig& c) {
    return c.direct ? int(c.keys.n_rows) : int(c.tokens.size());
}
int queryRows(const AttentionConfig& c) {
    return c.direct ? int(c.queries.n_rows) : int(c.tokens.size());
}

// (rows × cols) of `name` as the resolved widths say.
std::pair<arma::uword, arma::uword> resolvedShape(const AttentionShapes& s,
                                                  const std::string& name) {
    return inputMatrixNamed(name)->shapeIn(s);
}

bool validIndex(int i, int size) {
    return i >= 0 && i < size;
}

std::string vocabList(const EditableAttention& state) {
    std::string out;
    for (const std::string& word : state.vocabOrder) {
        out += (out.empty() ? "" : ", ") + word;
    }
    return out;
}

// Moves element `from` of a list to position `to`, shifting those between.
template <class T> void moveItem(std::vector<T>& items, int from, int to) {
    T item = items[size_t(from)];
    items.erase(items.begin() + from);
    items.insert(items.begin() + to, item);
}
void moveRow(arma::mat& m, int from, int to) {
    if (m.n_rows == 0) {
        return;
    }
    const arma::rowvec row = m.row(arma::uword(from));
    m.shed_row(arma::uword(from));
    m.insert_rows(arma::uword(to), row);
}

} // namespace

WeightMatrices takeWeights(EditableAttention& state) {
    AttentionConfig& c = state.config;
    return {std::move(c.wQ.weights), std::move(c.wK.weights), std::move(c.wV.weights),
            std::move(c.wO.weights)};
}

void putWeights(EditableAttention& state, WeightMatrices&& weights) {
    AttentionConfig& c = state.config;
    c.wQ.weights = std::move(weights[0]);
    c.wK.weights = std::move(weights[1]);
    c.wV.weights = std::move(weights[2]);
    c.wO.weights = std::move(weights[3]);
}

Projection* projectionNamed(AttentionConfig& config, const std::string& name) {
    return projectionOf(config, name);
}

std::optional<AttentionEngine::Projected> projectedBy(const std::string& name) {
    const InputMatrixName* entry = inputMatrixNamed(name);
    return entry ? entry->feeds : std::nullopt;
}

EditableAttention EditableAttention::fromSpec(const AttentionCellSpec& spec) {
    EditableAttention state;
    state.config = spec.config;
    state.vocab = spec.vocab;
    state.vocabOrder = spec.vocabOrder;
    state.fileValues = spec.fileValues;
    return state;
}

EditRefusal EditableAttention::problem() const {
    try {
        resolveShapes(config, AttentionLimits{});
    } catch (const InvalidConfig& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

bool isEditableMatrix(const EditableAttention& state, const std::string& name) {
    const InputMatrixName* entry = inputMatrixNamed(name);
    return entry && entry->existsIn(state.config);
}

arma::mat editableMatrix(const EditableAttention& state, const std::string& name) {
    const AttentionConfig& c = state.config;
    const InputMatrixName* entry = inputMatrixNamed(name);
    if (!entry) {
        return {};
    }
    if (entry->matrix) {
        return c.*(entry->matrix);
    }
    const Projection* p = entry->projection ? &(c.*(entry->projection)) : nullptr;
    const arma::rowvec* b = entry->bias ? &(c.*(entry->bias)) : nullptr;
    if (p && !p->identity) {
        return p->weights;
    }
    if (b && !b->is_empty()) {
        return arma::mat(*b);
    }
    // An identity projection or a missing bias: the matrix it stands for.
    const auto [rows, cols] = entry->shapeIn(resolveWidths(c, c.heads, AttentionLimits{}));
    return p ? arma::mat(arma::eye(rows, cols)) : arma::mat(rows, cols, arma::fill::zeros);
}

std::pair<arma::uword, arma::uword> editableShape(const EditableAttention& state,
                                                  const std::string& name) {
    const AttentionConfig& c = state.config;
    const InputMatrixName* entry = inputMatrixNamed(name);
    if (!entry) {
        return {0, 0};
    }
    if (entry->matrix) {
        const arma::mat& m = c.*(entry->matrix);
        return {m.n_rows, m.n_cols};
    }
    if (const Projection* p = projectionOf(c, name); p && !p->identity) {
        return {p->weights.n_rows, p->weights.n_cols};
    }
    if (entry->bias && !(c.*(entry->bias)).is_empty()) {
        return {1, (c.*(entry->bias)).n_elem};
    }
    return resolvedShape(resolveWidths(c, c.heads, AttentionLimits{}), name);
}

EditRefusal setHeads(EditableAttention& state, int heads) {
    if (heads < 1) {
        return std::string("heads must be at least 1");
    }
    return tryEditKeepingWeights(state, [&](EditableAttention& s) -> EditRefusal {
        s.config.heads = heads;
        return std::nullopt;
    });
}

EditRefusal setMask(EditableAttention& state, MaskKind mask) {
    return tryEditKeepingWeights(state, [&](EditableAttention& s) -> EditRefusal {
        s.config.mask = mask;
        return std::nullopt;
    });
}

EditRefusal setPadding(EditableAttention& state, int key, bool padded) {
    return tryEditKeepingWeights(state, [&](EditableAttention& s) -> EditRefusal {
        const int m = keyRows(s.config);
        if (!validIndex(key, m)) {
            return "there is no token " + std::to_string(key + 1) + " to pad";
        }
        std::vector<bool>& flags = s.config.padding;
        if (flags.empty()) {
            flags.assign(size_t(m), false);
        }
        flags[size_t(key)] = padded;
        if (std::none_of(flags.begin(), flags.end(), [](bool f) { return f; })) {
            flags.clear(); // no flag set is the same as no padding
        }
        return std::nullopt;
    });
}

EditRefusal setPositional(EditableAttention& state, PositionalKind kind) {
    return tryEditKeepingWeights(state, [&](EditableAttention& s) -> EditRefusal {
        if (s.config.direct && kind != PositionalKind::None) {
            return std::string("a cell that gives queries, keys and values directly has no "
                               "positional encoding");
        }
        if (kind == PositionalKind::Learned && s.config.learnedP.is_empty()) {
            return std::string("this cell has no learned positional matrix");
        }
        s.config.positional = kind;
        return std::nullopt;
    });
}

EditRefusal setScale(EditableAttention& state, ScaleKind kind, double divisor) {
    if (kind == ScaleKind::Divisor && !(std::isfinite(divisor) && divisor > 0)) {
        return std::string("the divisor must be a finite number above 0");
    }
    return tryEditKeepingWeights(state, [&](EditableAttention& s) -> EditRefusal {
        s.config.scaleKind = kind;
        if (kind == ScaleKind::Divisor) {
            s.config.scaleDivisor = divisor;
        }
        return std::nullopt;
    });
}

EditRefusal setFocus(EditableAttention& state, int row) {
    if (!validIndex(row, queryRows(state.config))) {
        return "there is no row " + std::to_string(row + 1) + " to follow";
    }
    state.config.focus = row;
    return std::nullopt;
}

namespace {

EditRefusal refuseInDirectMode(const EditableAttention& state) {
    if (state.config.direct) {
        return std::string("this cell gives queries, keys and values directly; edit those "
                           "matrices instead of the tokens");
    }
    return std::nullopt;
}

EditRefusal vectorFor(const EditableAttention& state, const std::string& label,
                      arma::rowvec& vector) {
    if (label.empty()) {
        return std::string("a token needs a name");
    }
    if (!state.usesVocab()) {
        vector.zeros(state.config.X0.n_cols);
        return std::nullopt;
    }
    const auto found = state.vocab.find(label);
    if (found == state.vocab.end()) {
        return "'" + label + "' is not in the vocab; pick one of " + vocabList(state);
    }
    vector = found->second;
    return std::nullopt;
}

} // namespace

EditRefusal addToken(EditableAttention& state, const std::string& label) {
    if (EditRefusal r = refuseInDirectMode(state)) {
        return r;
    }
    return tryEditKeepingWeights(state, [&](EditableAttention& s) -> EditRefusal {
        // A word the vocab lacks joins it with a vector of zeros, which the
        // reader can then edit like any other (Keep writes it into the vocab).
        if (s.usesVocab() && !label.empty() && s.vocab.count(label) == 0) {
            if (label.find_first_of("\n\r") != std::string::npos) {
                return std::string("a token's name is one line");
            }
            s.vocab[label] = arma::zeros<arma::rowvec>(s.config.X0.n_cols);
            s.vocabOrder.push_back(label);
        }
        arma::rowvec vector;
        if (EditRefusal r = vectorFor(s, label, vector)) {
            return r;
        }
        AttentionConfig& c = s.config;
        c.tokens.push_back(label);
        c.X0.insert_rows(c.X0.n_rows, vector);
        if (!c.padding.empty()) {
            c.padding.push_back(false);
        }
        // A learned encoding has one row per position: the new last
        // position starts at zero.
        if (!c.learnedP.is_empty()) {
            c.learnedP.insert_rows(c.learnedP.n_rows, 1);
        }
        // The upstream gradient has one row per token: a new token's output
        // does not count towards L until the author says so.
        if (c.upstream) {
            c.upstream->insert_rows(c.upstream->n_rows, 1);
        }
        return std::nullopt;
    });
}

EditRefusal removeToken(EditableAttention& state, int index) {
    if (EditRefusal r = refuseInDirectMode(state)) {
        return r;
    }
    return tryEditKeepingWeights(state, [&](EditableAttention& s) -> EditRefusal {
        AttentionConfig& c = s.config;
        const int n = int(c.tokens.size());
        if (!validIndex(index, n)) {
            return "there is no token " + std::to_string(index + 1);
        }
        if (n == 1) {
            return std::string("a cell needs at least one token");
        }
        c.tokens.erase(c.tokens.begin() + index);
        c.X0.shed_row(arma::uword(index));
        if (!c.padding.empty()) {
            c.padding.erase(c.padding.begin() + index);
        }
        if (!c.learnedP.is_empty()) {
            c.learnedP.shed_row(c.learnedP.n_rows - 1);
        }
        if (c.upstream) {
            c.upstream->shed_row(arma::uword(index));
        }
        if (c.focus > index || c.focus >= n - 1) {
            c.focus = std::max(0, c.focus - 1);
        }
        return std::nullopt;
    });
}

EditRefusal renameToken(EditableAttention& state, int index, const std::string& label) {
    if (EditRefusal r = refuseInDirectMode(state)) {
        return r;
    }
    return tryEditKeepingWeights(state, [&](EditableAttention& s) -> EditRefusal {
        AttentionConfig& c = s.config;
        if (!validIndex(index, int(c.tokens.size()))) {
            return "there is no token " + std::to_string(index + 1);
        }
        if (label.empty()) {
            return std::string("a token needs a name");
        }
        if (s.usesVocab()) {
            arma::rowvec vector;
            if (EditRefusal r = vectorFor(s, label, vector)) {
                return r;
            }
            c.X0.row(arma::uword(index)) = vector;
        }
        c.tokens[size_t(index)] = label;
        return std::nullopt;
    });
}

EditRefusal moveToken(EditableAttention& state, int from, int to) {
    if (EditRefusal r = refuseInDirectMode(state)) {
        return r;
    }
    return tryEditKeepingWeights(state, [&](EditableAttention& s) -> EditRefusal {
        AttentionConfig& c = s.config;
        const int n = int(c.tokens.size());
        if (!validIndex(from, n) || !validIndex(to, n)) {
            return std::string("a token can only move within the sentence");
        }
        if (from == to) {
            return std::nullopt;
        }
        moveItem(c.tokens, from, to);
        moveRow(c.X0, from, to);
        if (!c.padding.empty()) {
            std::vector<bool> flags(c.padding.begin(), c.padding.end());
            bool moved = flags[size_t(from)];
            flags.erase(flags.begin() + from);
            flags.insert(flags.begin() + to, moved);
            c.padding = flags;
        }
        if (c.upstream) {
            moveRow(*c.upstream, from, to);
        }
        // The focus stays on the same token.
        if (c.focus == from) {
            c.focus = to;
        } else if (from < c.focus && to >= c.focus) {
            --c.focus;
        } else if (from > c.focus && to <= c.focus) {
            ++c.focus;
        }
        return std::nullopt;
    });
}

// One entry changes in place, without tryEdit's copy of the cell: the shapes stay as they
// were (an identity or a missing bias becomes the same matrix written out), so the edit
// cannot make the cell uncomputable, and it is the edit a reader repeats most.
EditRefusal setMatrixEntry(EditableAttention& state, const std::string& name, int row, int col,
                           double value) {
    if (!std::isfinite(value)) {
        return std::string("the number must be finite");
    }
    if (!isEditableMatrix(state, name)) {
        return name + " cannot be edited in this cell";
    }
    AttentionConfig& c = state.config;
    const auto [rows, cols] = editableShape(state, name);
    if (!validIndex(row, int(rows)) || !validIndex(col, int(cols))) {
        return name + " has no entry at row " + std::to_string(row + 1) + ", column " +
               std::to_string(col + 1);
    }
    const auto r = arma::uword(row), k = arma::uword(col);
    if (inputMatrixNamed(name)->role == InputMatrixName::Role::Tokens) {
        if (state.usesVocab()) {
            // Equal tokens share their vocab vector: every copy changes.
            const std::string& label = c.tokens[r];
            state.vocab[label](k) = value;
            for (size_t i = 0; i < c.tokens.size(); ++i) {
                if (c.tokens[i] == label) {
                    c.X0(arma::uword(i), k) = value;
                }
            }
        } else {
            c.X0(r, k) = value;
        }
    } else if (Projection* p = projectionOf(c, name)) {
        if (p->identity) {
            p->weights = editableMatrix(state, name);
            p->identity = false;
        }
        p->weights(r, k) = value;
    } else if (arma::rowvec* b = biasOf(c, name)) {
        if (b->is_empty()) {
            *b = arma::rowvec(editableMatrix(state, name).row(0));
        }
        (*b)(k) = value;
    } else if (arma::mat* m = directMatrixOf(c, name)) {
        (*m)(r, k) = value;
    }
    return std::nullopt;
}

EditRefusal setIdentity(EditableAttention& state, const std::string& name) {
    if (state.config.direct || !projectionOf(state.config, name)) {
        return name + " has no identity setting";
    }
    return tryEdit(state, [&](EditableAttention& s) -> EditRefusal {
        Projection* p = projectionOf(s.config, name);
        p->identity = true;
        p->weights.reset();
        return std::nullopt;
    });
}

EditRefusal setZero(EditableAttention& state, const std::string& name) {
    if (state.config.direct || (!projectionOf(state.config, name) && !biasOf(state.config, name))) {
        return name + " has no zero setting";
    }
    return tryEdit(state, [&](EditableAttention& s) -> EditRefusal {
        arma::mat current = editableMatrix(s, name);
        current.zeros();
        if (Projection* p = projectionOf(s.config, name)) {
            p->identity = false;
            p->weights = current;
        } else if (arma::rowvec* b = biasOf(s.config, name)) {
            *b = arma::rowvec(current.row(0));
        }
        return std::nullopt;
    });
}

std::vector<int> allowedHeads(const EditableAttention& state) {
    const AttentionConfig& c = state.config;
    // The width that the heads split: the query/key width of all heads.
    arma::uword width =
        c.direct ? c.queries.n_cols : (c.wQ.identity ? c.X0.n_cols : c.wQ.weights.n_rows);
    std::vector<int> out;
    for (arma::uword h = 1; h <= width; ++h) {
        if (width % h != 0) {
            continue;
        }
        try {
            resolveWidths(c, int(h), AttentionLimits{});
            out.push_back(int(h));
        } catch (const InvalidConfig&) {
            // these heads do not split the widths
        }
    }
    return out;
}
} // namespace attnbook

#include "core/present/attention_matrices.h"

#include "core/math/number_format.h"
#include "core/math/worked_steps.h"

#include <utility>

namespace attnbook {

namespace {

constexpr int kMaxHeadsShown = 4;

using Labels = std::vector<std::string>;

PresentedMatrix table(std::string caption, std::string note, Labels rows, Labels columns,
                      arma::mat values) {
    PresentedMatrix t;
    t.caption = std::move(caption);
    t.note = std::move(note);
    t.rowLabels = std::move(rows);
    t.columnLabels = std::move(columns);
    t.values = std::move(values);
    return t;
}

// 1 where the mask blocked query row r from key c (the head keeps them key-major).
arma::umat blockedOf(const HeadResult& h) {
    arma::umat blocked(h.scoresT.n_cols, h.scoresT.n_rows, arma::fill::zeros);
    for (arma::uword r = 0; r < blocked.n_rows; ++r) {
        for (arma::uword c = 0; c < blocked.n_cols; ++c) {
            blocked(r, c) = h.blocked(r, c) ? 1 : 0;
        }
    }
    return blocked;
}

// Appends a matrix to the list, with the group it is shown in: the inputs, the weights,
// Q K V, each head's, and what follows the heads.
void push(std::vector<PresentedMatrix>& out, std::string name, int head, PresentedMatrix t) {
    const int group = head >= 0                                    ? 10 + head
                      : name == "X0" || name == "P" || name == "X" ? 0
                      : name.starts_with('W')                      ? (name == "W_O" ? 100 : 1)
                      : name == "Q" || name == "K" || name == "V"  ? 2
                                                                   : 100;
    t.name = std::move(name);
    t.head = head;
    t.group = group;
    out.push_back(std::move(t));
}

// X (and X₀, P), the weights and Q K V; in direct mode the given Q K V.
void pushInputs(std::vector<PresentedMatrix>& out, const AttentionCellSpec& spec,
                const AttentionResult& r, bool compact, const Labels& rows, const Labels& keys) {
    const AttentionConfig& c = spec.config;
    const auto columnsOf = [](const arma::mat& m) { return coordinateLabelTexts(int(m.n_cols)); };
    if (r.direct) {
        push(out, "Q", -1, table("Q", "queries", rows, columnsOf(r.Q), r.Q));
        push(out, "K", -1, table("K", "keys", keys, columnsOf(r.K), r.K));
        push(out, "V", -1, table("V", "values", keys, columnsOf(r.V), r.V));
        return;
    }
    const Labels coords = coordinateLabelTexts(r.d);
    if (c.positional != PositionalKind::None) {
        push(out, "X0", -1, table("X₀", "token vectors", rows, coords, r.X0));
        push(out, "P", -1, table("P", "positions", rows, coords, r.P));
        push(out, "X", -1, table("X = X₀ + P", {}, rows, coords, r.X));
    } else {
        push(out, "X", -1, table("X", "token vectors", rows, coords, r.X));
    }
    const auto weights = [&](const char* name, const Projection& w) {
        if (!w.identity) {
            push(out, name, -1,
                 table(name, "one output unit per row", coordinateLabelTexts(int(w.weights.n_rows)),
                       columnsOf(w.weights), w.weights));
        }
    };
    weights("W_Q", c.wQ);
    weights("W_K", c.wK);
    weights("W_V", c.wV);
    if (!(compact && plainProjection(c.wQ, c.bQ))) {
        push(out, "Q", -1, table("Q = X W_Qᵀ + b_Q", {}, rows, columnsOf(r.Q), r.Q));
    }
    if (!(compact && plainProjection(c.wK, c.bK))) {
        push(out, "K", -1, table("K = X W_Kᵀ + b_K", {}, keys, columnsOf(r.K), r.K));
    }
    if (!(compact && plainProjection(c.wV, c.bV))) {
        push(out, "V", -1, table("V = X W_Vᵀ + b_V", {}, keys, columnsOf(r.V), r.V));
    }
}

// Each shown head's scores, weights and context.
void pushHeads(std::vector<PresentedMatrix>& out, const AttentionResult& r, bool compact,
               bool plainO, const Labels& rows, const Labels& keys) {
    // Decided as the cell's summary decides (attentionSummaryText): at d_k = 1 the scores are
    // divided by √1, which the summary says, so the caption must not call them "not scaled".
    const bool byRoot = r.dividesBySqrtDk();
    const std::string scaleNote = byRoot && r.dK == 1         ? "s = 1/√1 = 1"
                                  : !byRoot && r.scale == 1.0 ? "not scaled"
                                                              : "s = " + readableNumber(r.scale, 4);
    for (int head = 0; head < std::min(r.h, kMaxHeadsShown); ++head) {
        const HeadResult& h = r.head[size_t(head)];
        const std::string note = r.h > 1 ? "head " + std::to_string(head + 1) : std::string();
        const arma::umat blocked = blockedOf(h);
        PresentedMatrix s = table("S = Q Kᵀ · s", (note.empty() ? note : note + ", ") + scaleNote,
                                  rows, keys, h.scores());
        s.blocked = blocked;
        push(out, "scores", head, std::move(s));
        PresentedMatrix a = table("A = softmax(S)", note, rows, keys, h.weights());
        a.blocked = blocked;
        push(out, "weights", head, std::move(a));
        const bool contextIsOutput = r.h == 1 && plainO;
        if (!(compact && contextIsOutput)) {
            push(out, "context", head,
                 table("H = A V", note, rows, coordinateLabelTexts(r.dV, head * r.dV + 1),
                       h.context));
        }
    }
}

// "÷ √4" or "÷ 2" or "not scaled".
std::string scaleWords(const AttentionResult& r) {
    if (r.dividesBySqrtDk()) {
        return "scores ÷ √" + std::to_string(r.dK); // also at d_k = 1: ÷ √1
    }
    if (r.scale == 1.0) {
        return "scores not scaled";
    }
    return "scores ÷ " + readableNumber(1.0 / r.scale, 4);
}

std::string joined(const Labels& parts, const std::string& between) {
    std::string out;
    for (const std::string& part : parts) {
        out += (out.empty() ? "" : between) + part;
    }
    return out;
}

} // namespace

std::vector<PresentedMatrix> presentedMatrices(const AttentionCellSpec& spec,
                                               const AttentionResult& r, bool compact) {
    std::vector<PresentedMatrix> out;
    const Labels rows = queryLabelTexts(r);
    const Labels keys = keyLabelTexts(r);
    const AttentionConfig& c = spec.config;
    const bool plainO = r.direct || plainProjection(c.wO, c.bO);
    pushInputs(out, spec, r, compact, rows, keys);
    pushHeads(out, r, compact, plainO, rows, keys);
    if (r.h > 1 && !(compact && plainO)) {
        push(out, "concat", -1,
             table("C = [H₁ … H" + std::to_string(r.h) + "]", "heads side by side", rows,
                   coordinateLabelTexts(int(r.concat.n_cols)), r.concat));
    }
    if (!c.wO.identity && !r.direct) {
        push(out, "W_O", -1,
             table("W_O", "one output unit per row", coordinateLabelTexts(int(c.wO.weights.n_rows)),
                   coordinateLabelTexts(int(c.wO.weights.n_cols)), c.wO.weights));
    }
    std::string caption = r.direct ? "Output = A V" : "Y = C W_Oᵀ + b_O";
    if (plainO && !r.direct) {
        caption = r.h == 1 ? "Y = A V" : "Y = C";
    }
    push(out, "output", -1,
         table(caption, plainO && !r.direct ? "W_O is the identity" : "", rows,
               coordinateLabelTexts(int(r.output.n_cols)), r.output));
    return out;
}

bool plainProjection(const Projection& weights, const arma::rowvec& bias) {
    return weights.identity && (bias.is_empty() || !arma::any(bias != 0.0));
}

bool plainInputProjections(const AttentionCellSpec& spec, const AttentionResult& r) {
    const AttentionConfig& c = spec.config;
    return !r.direct && plainProjection(c.wQ, c.bQ) && plainProjection(c.wK, c.bK) &&
           plainProjection(c.wV, c.bV);
}

std::string attentionSummaryText(const AttentionCellSpec& spec, const AttentionResult& r) {
    Labels parts;
    if (r.direct) {
        parts.push_back(std::to_string(r.n) + (r.n == 1 ? " query" : " queries") + " reading " +
                        std::to_string(r.m) + (r.m == 1 ? " key" : " keys"));
    } else {
        parts.push_back("tokens " + joined(keyLabelTexts(r), ", "));
        parts.push_back("width " + std::to_string(r.d));
    }
    parts.push_back(r.h == 1 ? "1 head" : std::to_string(r.h) + " heads");
    parts.push_back(scaleWords(r));
    parts.push_back(spec.config.mask == MaskKind::Causal ? "causal mask" : "no mask");
    if (!spec.config.padding.empty()) {
        parts.push_back("padding");
    }
    if (spec.config.positional == PositionalKind::Sinusoidal) {
        parts.push_back("sinusoidal positions");
    } else if (spec.config.positional == PositionalKind::Learned) {
        parts.push_back("given positions");
    }
    return joined(parts, " · ");
}

std::vector<std::string> queryLabelTexts(const AttentionResult& r) {
    Labels out;
    for (int i = 0; i < r.n; ++i) {
        out.push_back(queryLabel(r, i));
    }
    return out;
}

std::vector<std::string> keyLabelTexts(const AttentionResult& r) {
    Labels out;
    for (int i = 0; i < r.m; ++i) {
        out.push_back(keyLabel(r, i));
    }
    return out;
}

std::vector<std::string> coordinateLabelTexts(int count, int first) {
    Labels out;
    for (int i = 0; i < count; ++i) {
        out.push_back(std::to_string(first + i));
    }
    return out;
}

} // namespace attnbook

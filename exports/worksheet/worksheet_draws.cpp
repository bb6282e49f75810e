// The draws of a worksheet variant's numbers (worksheet_variants.h says which and why), and the
// checks that a drawn cell is workable by hand.
#include "exports/worksheet/worksheet_draws.h"

#include "core/document/json.h"
#include "core/document/matrix_names.h"
#include "core/math/attention_shapes.h"
#include "exports/worksheet/worksheet_transformer.h"

#include <algorithm>
#include <cmath>

namespace attnbook {

namespace {

// Shares closer than this count as a tie: a student rounding to 3 decimals could not tell.
constexpr double kTieTolerance = 1e-3;

} // namespace

std::string unworkableReason(const AttentionResult& r, double maxScore) {
    const auto zeroRow = [](const arma::mat& m, arma::uword row, arma::uword first,
                            arma::uword count) {
        return count > 0 && !arma::any(m.row(row).cols(first, first + count - 1) != 0.0);
    };
    if (!r.direct) {
        for (int i = 0; i < r.n; ++i) {
            if (zeroRow(r.X0, arma::uword(i), 0, arma::uword(r.d))) {
                return "an all-zero token vector";
            }
        }
    }
    for (int head = 0; head < r.h; ++head) {
        const arma::uword first = arma::uword(head * r.dK);
        for (int i = 0; i < r.n; ++i) {
            if (zeroRow(r.Q, arma::uword(i), first, arma::uword(r.dK))) {
                return "an all-zero query";
            }
        }
        for (int j = 0; j < r.m; ++j) {
            if (zeroRow(r.K, arma::uword(j), first, arma::uword(r.dK))) {
                return "an all-zero key";
            }
        }
        const HeadResult& h = r.head[size_t(head)];
        for (int i = 0; i < r.n; ++i) {
            for (int j = 0; j < r.m; ++j) {
                if (!h.blocked(arma::uword(i), arma::uword(j)) &&
                    std::abs(h.score(arma::uword(i), arma::uword(j))) > maxScore) {
                    return "a score beyond ±" + shortestDouble(maxScore);
                }
            }
            double best = -1;
            for (int j = 0; j < r.m; ++j) {
                if (!h.blocked(arma::uword(i), arma::uword(j))) {
                    best = std::max(best, h.weight(arma::uword(i), arma::uword(j)));
                }
            }
            // The keys that share the largest share: a tie unless they are the same token with
            // the same key (two copies of "red" always get the same share).
            int leader = -1;
            for (int j = 0; j < r.m; ++j) {
                if (h.blocked(arma::uword(i), arma::uword(j)) ||
                    h.weight(arma::uword(i), arma::uword(j)) < best - kTieTolerance) {
                    continue;
                }
                if (leader < 0) {
                    leader = j;
                    continue;
                }
                const bool sameLabel = size_t(j) < r.tokens.size() &&
                                       size_t(leader) < r.tokens.size() &&
                                       r.tokens[size_t(j)] == r.tokens[size_t(leader)];
                const bool sameKey =
                    arma::all(r.K.row(arma::uword(j)).cols(first, first + r.dK - 1) ==
                              r.K.row(arma::uword(leader)).cols(first, first + r.dK - 1));
                if (!sameLabel || !sameKey) {
                    return "a tie for the largest share";
                }
            }
        }
    }
    return {};
}

namespace {

arma::mat drawMatrix(VariantRandom& random, arma::uword rows, arma::uword cols,
                     const WorksheetSpec::Range& range) {
    arma::mat m(rows, cols);
    // Row by row, left to right: the order is part of what a seed reproduces.
    for (arma::uword r = 0; r < rows; ++r) {
        for (arma::uword c = 0; c < cols; ++c) {
            m(r, c) = range.min + range.step * random.uniform(0, range.count());
        }
    }
    return m;
}

} // namespace

// Draws every key of `vary` into a copy of `spec`, in key order.
// Throws InvalidConfig when the cell's shapes do not resolve (it computed before, so they do).
std::string drawInto(AttentionCellSpec& spec, VariantRandom& random) {
    AttentionConfig& c = spec.config;
    for (const auto& [key, range] : spec.worksheet->vary) {
        if (key == "vocab") {
            if (spec.vocab.empty()) {
                return "worksheet.vary: 'vocab', but the cell gives its vectors as X";
            }
            const arma::uword d = spec.vocab.begin()->second.n_elem;
            for (const std::string& label : spec.vocabOrder) {
                spec.vocab[label] = arma::rowvec(drawMatrix(random, 1, d, range));
            }
            for (size_t i = 0; i < c.tokens.size(); ++i) {
                c.X0.row(arma::uword(i)) = spec.vocab.at(c.tokens[i]);
            }
        } else if (const InputMatrixName* input = inputMatrixOfKey(key);
                   input && (input->role == InputMatrixName::Role::Tokens ||
                             input->role == InputMatrixName::Role::Direct ||
                             input->role == InputMatrixName::Role::Projection)) {
            // The shape it has now, identity or not (attention.md "Shapes"), from the one
            // table of matrix names (core/document/matrix_names.h).
            const auto [rows, cols] = input->shapeIn(resolveShapes(c, AttentionLimits{}));
            const arma::mat drawn = drawMatrix(random, rows, cols, range);
            if (input->projection) {
                Projection& p = c.*(input->projection);
                p.identity = false;
                p.weights = drawn;
            } else {
                c.*(input->matrix) = drawn;
            }
        }
    }
    return {};
}

// FNV-1a of a cell's id: the same on every platform, unlike std::hash.
std::uint64_t idHash(const std::string& id) {
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : id) {
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    return h;
}

// Draws a transformer cell's variant into `spec`: the keys of `vary` (vocab or X), then the
// token order (a shuffle) and the word at the focus row, which steps through the vocabulary from
// one variant to the next (`base` from the seed and the cell), so that neighbours never share it.
std::string drawTransformerInto(TransformerCellSpec& spec, VariantRandom& random,
                                std::uint64_t base, int number) {
    TransformerConfig& c = spec.config;
    for (const auto& [key, range] : spec.worksheet->vary) {
        if (key == "vocab") {
            if (spec.vocab.empty()) {
                return "worksheet.vary: 'vocab', but the cell gives its vectors as X";
            }
            const arma::uword d = spec.vocab.begin()->second.n_elem;
            for (size_t i = 0; i < spec.vocabOrder.size(); ++i) {
                const arma::rowvec v(drawMatrix(random, 1, d, range));
                spec.vocab[spec.vocabOrder[i]] = v;
                if (i < c.vocab.n_rows) {
                    c.vocab.row(arma::uword(i)) = v;
                }
            }
        } else if (key == "X") {
            if (!spec.vocab.empty()) {
                return "worksheet.vary: 'X', but the cell's tokens take their vectors from its "
                       "vocab: vary vocab instead";
            }
            c.X0 = drawMatrix(random, c.X0.n_rows, c.X0.n_cols, range);
        } else {
            return "worksheet.vary: a transformer cell varies its vocab or X, not '" + key + "'";
        }
    }
    const size_t n = c.tokens.size();
    if (n == 0 || c.X0.n_rows != n) {
        return {};
    }
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) {
        order[i] = i;
    }
    for (size_t i = n; i > 1; --i) { // Fisher–Yates
        std::swap(order[i - 1], order[size_t(random.uniform(0, int(i) - 1))]);
    }
    const size_t focus = size_t(std::clamp(c.focus, 0, int(n) - 1));
    if (spec.vocabOrder.empty()) {
        // Without a vocabulary the rows themselves move: row (base + number) mod n comes to the
        // focus.
        const size_t wanted = size_t((base + std::uint64_t(number)) % n);
        const auto at = std::find(order.begin(), order.end(), wanted);
        std::swap(*at, order[focus]);
    }
    std::vector<std::string> tokens(n);
    arma::mat X0(c.X0.n_rows, c.X0.n_cols);
    for (size_t i = 0; i < n; ++i) {
        tokens[i] = c.tokens[order[i]];
        X0.row(arma::uword(i)) = c.X0.row(arma::uword(order[i]));
    }
    if (!spec.vocabOrder.empty()) {
        tokens[focus] = spec.vocabOrder[size_t((base + std::uint64_t(number)) %
                                               std::uint64_t(spec.vocabOrder.size()))];
        for (size_t i = 0; i < n; ++i) {
            X0.row(arma::uword(i)) = spec.vocab.at(tokens[i]);
        }
    }
    c.tokens = std::move(tokens);
    c.X0 = std::move(X0);
    return {};
}

// Why a transformer variant is not workable by hand: a LayerNorm input with no spread (when
// layer 1 has a LayerNorm), two next words with the same logit (greedy decoding would hang on
// vocabulary order), or a chance of the training step too small to print.
std::string transformerUnworkableReason(const TransformerCellSpec& spec,
                                        const TransformerResult& r) {
    const TransformerConfig& c = spec.config;
    if (r.layers.empty() || r.logits.is_empty()) {
        return {};
    }
    // One step of training by hand: a chance the key prints as 0.0000 leaves nothing to work.
    if (const auto step = trainingStepExercise(spec, r, printedGiven);
        step && step->probs.min() < 0.5e-4) {
        return "a chance of the training step that rounds to 0";
    }
    const arma::rowvec x = r.layers[0].input.row(arma::uword(std::clamp(c.focus, 0, r.n - 1)));
    const bool normed = !c.layers.empty() && !c.layers[0].ln1.identity;
    if (normed && arma::var(x, 1) < 1e-6) {
        return "a LayerNorm input with every entry the same";
    }
    arma::rowvec last = arma::sort(r.logits.row(r.logits.n_rows - 1), "descend");
    if (last.n_elem > 1 && last(0) - last(1) < 1e-3) {
        return "a tie for the most likely next word";
    }
    return {};
}

} // namespace attnbook

#include "exports/worksheet_variants.h"

#include "core/document/json.h"
#include "core/math/transformer_engine.h"

#include <QtCore/QCryptographicHash>

#include <algorithm>
#include <cmath>
#include <set>

namespace attnbook {

namespace {

constexpr int kMaxDraws = 2000;
// Shares closer than this count as a tie: a student rounding to 3 decimals could not tell.
constexpr double kTieTolerance = 1e-3;

} // namespace

std::uint64_t splitMix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

VariantRandom::VariantRandom(std::uint64_t seed, int variant)
    : engine_(splitMix64(splitMix64(seed) ^ std::uint64_t(std::uint32_t(variant)))) {}

int VariantRandom::uniform(int lo, int hi) {
    if (hi <= lo) {
        return lo;
    }
    const std::uint64_t range = std::uint64_t(std::int64_t(hi) - std::int64_t(lo)) + 1;
    // Reject the top of the 64-bit range that does not divide evenly, so every value is
    // equally likely.
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() -
                                std::numeric_limits<std::uint64_t>::max() % range;
    std::uint64_t x = engine_();
    while (x >= limit) {
        x = engine_();
    }
    return int(std::int64_t(lo) + std::int64_t(x % range));
}

QString WorksheetVariant::label() const {
    if (number == 0) {
        return QStringLiteral("The lesson's numbers · #%1").arg(hash);
    }
    return QStringLiteral("Variant %1 of %2 · seed %3 · #%4")
        .arg(number)
        .arg(count)
        .arg(seed)
        .arg(hash);
}

std::vector<const LessonCell*> worksheetCells(const Lesson& lesson) {
    std::vector<const LessonCell*> out;
    for (const LessonCell& cell : lesson.cells) {
        if (const AttentionCellSpec* spec = cell.attention(); spec && spec->worksheet) {
            out.push_back(&cell);
        }
    }
    return out;
}

std::vector<const LessonCell*> transformerWorksheetCells(const Lesson& lesson) {
    std::vector<const LessonCell*> out;
    for (const LessonCell& cell : lesson.cells) {
        if (const TransformerCellSpec* spec = cell.transformer(); spec && spec->worksheet) {
            out.push_back(&cell);
        }
    }
    return out;
}

std::vector<const LessonCell*> exerciseCells(const Lesson& lesson) {
    std::vector<const LessonCell*> out;
    for (const LessonCell& cell : lesson.cells) {
        const AttentionCellSpec* attention = cell.attention();
        const TransformerCellSpec* transformer = cell.transformer();
        if ((attention && attention->worksheet) || (transformer && transformer->worksheet)) {
            out.push_back(&cell);
        }
    }
    return out;
}

bool lessonHasWorksheet(const Lesson& lesson) {
    if (!exerciseCells(lesson).empty()) {
        return true;
    }
    return std::any_of(lesson.cells.begin(), lesson.cells.end(),
                       [](const LessonCell& c) { return c.quiz() != nullptr; });
}

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

// Where a variant problem points: the cell's `worksheet:` key.
FilePosition worksheetPosition(const LessonCell& cell) {
    const auto it = cell.read.positions.keys.find("worksheet");
    return it != cell.read.positions.keys.end() ? it->second : FilePosition{cell.openLine, 1};
}

arma::mat drawMatrix(VariantRandom& random, arma::uword rows, arma::uword cols,
                     const WorksheetSpec::Range& range) {
    arma::mat m(rows, cols);
    // Row by row, left to right: the order is part of what a seed reproduces.
    for (arma::uword r = 0; r < rows; ++r) {
        for (arma::uword c = 0; c < cols; ++c) {
            m(r, c) = random.uniform(range.min, range.max);
        }
    }
    return m;
}

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
        } else if (key == "X") {
            c.X0 = drawMatrix(random, c.X0.n_rows, c.X0.n_cols, range);
        } else if (key == "queries" || key == "keys" || key == "values") {
            arma::mat& m = key == "queries" ? c.queries : key == "keys" ? c.keys : c.values;
            m = drawMatrix(random, m.n_rows, m.n_cols, range);
        } else if (key == "W_Q" || key == "W_K" || key == "W_V" || key == "W_O") {
            Projection& p = key == "W_Q" ? c.wQ : key == "W_K" ? c.wK : key == "W_V" ? c.wV : c.wO;
            // The shape the weights have now, identity or not (attention.md "Shapes").
            const AttentionShapes s = resolveShapes(c, AttentionLimits{});
            const arma::uword d = arma::uword(s.d);
            const arma::uword rows = key == "W_Q" || key == "W_K" ? arma::uword(s.h * s.dK)
                                     : key == "W_V"               ? arma::uword(s.h * s.dV)
                                                                  : arma::uword(s.dO);
            const arma::uword cols = key == "W_O" ? arma::uword(s.h * s.dV) : d;
            p.identity = false;
            p.weights = drawMatrix(random, rows, cols, range);
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

// Why a transformer variant is not workable by hand: a LayerNorm input with no spread, or two
// next words with the same logit (greedy decoding would hang on vocabulary order).
std::string transformerUnworkableReason(const TransformerConfig& c, const TransformerResult& r) {
    if (r.layers.empty() || r.logits.is_empty()) {
        return {};
    }
    const arma::rowvec x = r.layers[0].input.row(arma::uword(std::clamp(c.focus, 0, r.n - 1)));
    if (arma::var(x, 1) < 1e-6) {
        return "a LayerNorm input with every entry the same";
    }
    arma::rowvec last = arma::sort(r.logits.row(r.logits.n_rows - 1), "descend");
    if (last.n_elem > 1 && last(0) - last(1) < 1e-3) {
        return "a tie for the most likely next word";
    }
    return {};
}

// The numbers of the worksheet cells, for the variant's hash.
QByteArray numbersText(const Lesson& lesson) {
    std::string text;
    const auto matrix = [&](const char* name, const arma::mat& m) {
        text += std::string(name) + "=" + jsonMatrix(m).dump() + ";";
    };
    for (const LessonCell* cell : worksheetCells(lesson)) {
        const AttentionConfig& c = cell->attention()->config;
        text += cell->id + ":";
        if (c.direct) {
            matrix("queries", c.queries);
            matrix("keys", c.keys);
            matrix("values", c.values);
        } else {
            matrix("X0", c.X0);
        }
        for (const auto& [name, p] : {std::pair<const char*, const Projection*>{"W_Q", &c.wQ},
                                      {"W_K", &c.wK},
                                      {"W_V", &c.wV},
                                      {"W_O", &c.wO}}) {
            if (!p->identity) {
                matrix(name, p->weights);
            }
        }
        text += "\n";
    }
    for (const LessonCell* cell : transformerWorksheetCells(lesson)) {
        const TransformerConfig& c = cell->transformer()->config;
        text += cell->id + ":";
        for (const std::string& token : c.tokens) {
            text += token + " ";
        }
        matrix("X0", c.X0);
        text += "\n";
    }
    return QByteArray::fromStdString(text);
}

} // namespace

ExportResult drawVariant(const Lesson& lesson, std::uint64_t seed, int number, int count,
                         WorksheetVariant* out) {
    out->number = number;
    out->count = count;
    out->seed = seed;
    out->lesson = lesson;
    AttentionEngine engine;
    if (number > 0) {
        VariantRandom random(seed, number);
        for (LessonCell& cell : out->lesson.cells) {
            AttentionCellSpec* spec = std::get_if<AttentionCellSpec>(&cell.read.spec);
            if (!spec || !spec->worksheet || spec->worksheet->vary.empty()) {
                continue;
            }
            const AttentionCellSpec original = *spec;
            std::string why;
            int draws = 0;
            for (; draws < kMaxDraws; ++draws) {
                *spec = original;
                try {
                    if (std::string problem = drawInto(*spec, random); !problem.empty()) {
                        const FilePosition at = worksheetPosition(cell);
                        return {ExportStatus::InvalidDocument,
                                QString::fromStdString(cell.id + ": " + problem), at.line,
                                at.column};
                    }
                    AttentionResult result;
                    engine.compute(spec->config, result, GradientCheck::Skip);
                    why = unworkableReason(result, spec->worksheet->maxScore);
                } catch (const InvalidConfig& e) {
                    why = e.what();
                }
                if (why.empty()) {
                    break;
                }
            }
            if (draws == kMaxDraws) {
                const FilePosition at = worksheetPosition(cell);
                return {ExportStatus::InvalidDocument,
                        QStringLiteral("%1: worksheet.vary finds no workable variant in %2 draws "
                                       "(the last had %3): widen the ranges")
                            .arg(QString::fromStdString(cell.id))
                            .arg(kMaxDraws)
                            .arg(QString::fromStdString(why)),
                        at.line, at.column};
            }
        }
    }
    for (LessonCell& cell : out->lesson.cells) {
        TransformerCellSpec* spec = std::get_if<TransformerCellSpec>(&cell.read.spec);
        if (!spec || !spec->worksheet) {
            continue;
        }
        TransformerSheetGivens givens;
        const TransformerConfig& c0 = spec->config;
        if (number == 0) {
            givens.cacheN = int(c0.tokens.size());
            givens.cacheT = c0.generate ? std::max(2, c0.generate->steps) : 3;
            out->transformerGivens[cell.id] = givens;
            continue;
        }
        // Each transformer cell draws from its own stream, so that adding one leaves the
        // attention cells' draws as they were.
        const std::uint64_t base = splitMix64(seed ^ idHash(cell.id));
        VariantRandom random(base, number);
        const TransformerCellSpec original = *spec;
        TransformerEngine transformers;
        std::string why;
        int draws = 0;
        for (; draws < kMaxDraws; ++draws) {
            *spec = original;
            try {
                if (std::string problem = drawTransformerInto(*spec, random, base, number);
                    !problem.empty()) {
                    const FilePosition at = worksheetPosition(cell);
                    return {ExportStatus::InvalidDocument,
                            QString::fromStdString(cell.id + ": " + problem), at.line, at.column};
                }
                TransformerResult result;
                transformers.forward(spec->config, result);
                why = transformerUnworkableReason(spec->config, result);
            } catch (const InvalidConfig& e) {
                why = e.what();
            }
            if (why.empty()) {
                break;
            }
        }
        if (draws == kMaxDraws) {
            const FilePosition at = worksheetPosition(cell);
            return {ExportStatus::InvalidDocument,
                    QStringLiteral("%1: no workable variant in %2 draws (the last had %3): "
                                   "widen worksheet.vary's ranges")
                        .arg(QString::fromStdString(cell.id))
                        .arg(kMaxDraws)
                        .arg(QString::fromStdString(why)),
                    at.line, at.column};
        }
        // The FFN unit and the cache question: n and t step on with the variant (never the
        // same as a neighbour's), from a start the seed picks.
        for (const TransformerLayer& layer : spec->config.layers) {
            if (layer.ffn.present && layer.ffn.W1.n_rows > 0) {
                givens.ffnUnit = random.uniform(0, int(layer.ffn.W1.n_rows) - 1);
                break;
            }
        }
        givens.cacheN = 3 + int((splitMix64(base ^ 1) + std::uint64_t(number)) % 8);
        givens.cacheT = 2 + int((splitMix64(base ^ 2) + std::uint64_t(number)) % 7);
        out->transformerGivens[cell.id] = givens;
    }
    out->results = computeLesson(out->lesson, engine);
    if (hasErrors(out->results.diagnostics)) {
        for (const Diagnostic& d : out->results.diagnostics) {
            if (d.severity == Severity::Error) {
                return {ExportStatus::InvalidDocument,
                        QStringLiteral("variant %1: %2")
                            .arg(number)
                            .arg(QString::fromStdString(d.message)),
                        d.line, d.column};
            }
        }
    }
    // Quiz text is printed with this variant's numbers; a claim it relies on must hold for
    // them too, or the sheet would say something false (document-format.md).
    for (const LessonClaim& claim : lessonClaims(out->lesson, out->results)) {
        if (!claim.cellId.empty() && !claim.verdict.holds) {
            const std::string why =
                claim.verdict.error.empty()
                    ? "claim is false: " + claim.expression + " (" + claim.verdict.sides + ")"
                    : claim.verdict.error;
            return {ExportStatus::InvalidDocument,
                    QStringLiteral("variant %1: quiz %2: %3")
                        .arg(number)
                        .arg(QString::fromStdString(claim.cellId), QString::fromStdString(why)),
                    claim.line, claim.column};
        }
    }
    QByteArray numbers = numbersText(out->lesson);
    for (const auto& [id, g] : out->transformerGivens) {
        numbers += QByteArray::fromStdString(id + ": unit " + std::to_string(g.ffnUnit) + ", n " +
                                             std::to_string(g.cacheN) + ", t " +
                                             std::to_string(g.cacheT) + "\n");
    }
    out->hash = QString::fromLatin1(
        QCryptographicHash::hash(numbers, QCryptographicHash::Sha256).toHex().left(8));
    return ExportResult::done();
}

std::vector<size_t> choiceOrder(const std::string& quizId, size_t right, size_t count,
                                std::uint64_t seed, int variant) {
    std::vector<size_t> order(count);
    for (size_t i = 0; i < count; ++i) {
        order[i] = i;
    }
    if (variant == 0 || count < 2 || right >= count) {
        return order;
    }
    // FNV-1a of the id: the same on every platform, unlike std::hash.
    std::uint64_t id = 1469598103934665603ull;
    for (const char c : quizId) {
        id = (id ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    std::vector<size_t> others;
    for (size_t i = 0; i < count; ++i) {
        if (i != right) {
            others.push_back(i);
        }
    }
    VariantRandom random(splitMix64(seed ^ id), variant);
    for (size_t i = others.size(); i > 1; --i) { // Fisher–Yates
        std::swap(others[i - 1], others[size_t(random.uniform(0, int(i) - 1))]);
    }
    const size_t place = size_t((id + std::uint64_t(variant)) % count);
    others.insert(others.begin() + std::ptrdiff_t(place), right);
    return others;
}

} // namespace attnbook

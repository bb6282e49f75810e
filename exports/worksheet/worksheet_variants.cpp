// A worksheet's variants: the random source, the retries until a draw is workable by hand, the
// variant plan that keeps neighbours' answers apart, and each drawn cell recomputed as the
// lesson computes it. The draws themselves and the checks that a draw is workable are
// worksheet_draws.cpp.
#include "exports/worksheet/worksheet_variants.h"

#include "core/document/json.h"
#include "core/document/result_json.h"
#include "core/math/transformer_engine.h"
#include "exports/worksheet/worksheet_answers.h"
#include "exports/worksheet/worksheet_draws.h"
#include "exports/worksheet/worksheet_transformer.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QStringList>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <set>

namespace attnbook {

namespace {

constexpr int kMaxDraws = 2000;
// Workable draws a cell gets, per variant, to find answers no earlier variant has: enough to
// find a value that one draw in fifty reaches, cheap for a 3-token cell (about 0.15 ms a draw,
// its answers included: 30 variants of attention.md are refused in under half a second).
constexpr int kSpreadDraws = 200;

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

namespace {

// Where a variant problem points: the cell's `worksheet:` key.
FilePosition worksheetPosition(const LessonCell& cell) {
    const auto it = cell.read().positions.keys.find("worksheet");
    return it != cell.read().positions.keys.end() ? it->second : FilePosition{cell.openLine, 1};
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

// The sheet's id: a digest of the lesson's title, the exercises' numbers, the transformer
// exercises' givens and every quiz as the sheet asks it (its answer and the order of its
// choices), so that a lesson with nothing to vary has an id of its own, never the digest of
// empty input.
QString sheetHash(const WorksheetVariant& v) {
    QByteArray text = QByteArray::fromStdString(v.lesson.title()) + "\n" + numbersText(v.lesson);
    for (const auto& [id, g] : v.transformerGivens) {
        text += QByteArray::fromStdString(id + ": unit " + std::to_string(g.ffnUnit) + ", n " +
                                          std::to_string(g.cacheN) + ", t " +
                                          std::to_string(g.cacheT) + "\n");
    }
    for (const LessonCell& cell : v.lesson.cells) {
        const QuizCellSpec* quiz = cell.quiz();
        const ComputedCell* computed = v.results.cell(cell.id);
        if (!quiz || !computed) {
            continue;
        }
        const Json* answer = computed->json.find("answer");
        text += QByteArray::fromStdString(cell.id + ": " + quiz->question + " = " +
                                          (answer ? answer->dump() : std::string()));
        if (!quiz->choices.empty() && answer && answer->isNumber()) {
            for (const size_t i : choiceOrder(cell.id, size_t(answer->number()),
                                              quiz->choices.size(), v.seed, v.number)) {
                text += " " + QByteArray::number(qulonglong(i));
            }
        }
        text += "\n";
    }
    return QString::fromLatin1(
        QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex().left(8));
}

// Every draw of the cell was refused (a score past the limit, a shape the engine refuses): at
// the cell's worksheet key, with the last reason, for either kind of cell.
ExportResult noWorkableDraw(const LessonCell& cell, const std::string& why) {
    const FilePosition at = worksheetPosition(cell);
    return {ExportStatus::InvalidDocument,
            QStringLiteral("%1: worksheet.vary finds no workable variant in %2 draws "
                           "(the last had %3): widen the ranges")
                .arg(QString::fromStdString(cell.id))
                .arg(kMaxDraws)
                .arg(QString::fromStdString(why)),
            at.line, at.column};
}

// One workable draw of an attention cell: `spec` is `original` with fresh numbers, `result` its
// computation. InvalidDocument, at the cell's worksheet key, when the ranges give none.
ExportResult workableAttentionDraw(const LessonCell& cell, const AttentionCellSpec& original,
                                   VariantRandom& random, AttentionEngine& engine,
                                   AttentionCellSpec& spec,
                                   std::shared_ptr<AttentionResult>& result) {
    std::string why;
    for (int draws = 0; draws < kMaxDraws; ++draws) {
        spec = original;
        result = std::make_shared<AttentionResult>();
        try {
            if (std::string problem = drawInto(spec, random); !problem.empty()) {
                const FilePosition at = worksheetPosition(cell);
                return {ExportStatus::InvalidDocument,
                        QString::fromStdString(cell.id + ": " + problem), at.line, at.column};
            }
            engine.compute(spec.config, *result, GradientCheck::Skip);
            why = unworkableReason(*result, spec.worksheet->maxScore);
        } catch (const InvalidConfig& e) {
            why = e.what();
        }
        if (why.empty()) {
            return ExportResult::done();
        }
    }
    return noWorkableDraw(cell, why);
}

// The same for a transformer cell, with the givens of its exercises: the FFN unit and the cache
// question's n and t, drawn with the rest so that they too can differ from other variants'.
ExportResult workableTransformerDraw(const LessonCell& cell, const TransformerCellSpec& original,
                                     VariantRandom& random, std::uint64_t base, int number,
                                     TransformerCellSpec& spec,
                                     std::shared_ptr<TransformerResult>& result,
                                     TransformerSheetGivens& givens) {
    TransformerEngine transformers;
    std::string why;
    for (int draws = 0; draws < kMaxDraws; ++draws) {
        spec = original;
        result = std::make_shared<TransformerResult>();
        try {
            if (std::string problem = drawTransformerInto(spec, random, base, number);
                !problem.empty()) {
                const FilePosition at = worksheetPosition(cell);
                return {ExportStatus::InvalidDocument,
                        QString::fromStdString(cell.id + ": " + problem), at.line, at.column};
            }
            transformers.forward(spec.config, *result);
            why = transformerUnworkableReason(spec, *result);
        } catch (const InvalidConfig& e) {
            why = e.what();
        }
        if (why.empty()) {
            givens = TransformerSheetGivens{};
            for (const TransformerLayer& layer : spec.config.layers) {
                if (layer.ffn.present && layer.ffn.W1.n_rows > 0) {
                    givens.ffnUnit = random.uniform(0, int(layer.ffn.W1.n_rows) - 1);
                    break;
                }
            }
            // The cache's answers depend on n + t − 1 alone: these ranges give it 37 values,
            // enough for 30 variants to differ, with numbers still fit for working by hand.
            givens.cacheN = random.uniform(3, 32);
            givens.cacheT = random.uniform(2, 9);
            return ExportResult::done();
        }
    }
    return noWorkableDraw(cell, why);
}

// A draw's cell as computeLesson gives it, for the bindings of the quizzes about it.
ComputedCell drawnCell(const LessonCell& cell, Json json,
                       std::shared_ptr<const AttentionResult> attention,
                       std::shared_ptr<const TransformerResult> transformer) {
    ComputedCell out;
    out.id = cell.id;
    out.kind = cell.kind;
    out.ok = true;
    out.json = std::move(json);
    out.attention = std::move(attention);
    out.transformer = std::move(transformer);
    return out;
}

// Draws the variants in order, each cell's draw redone while one of its answers is one an
// earlier variant already has (planVariants).
class VariantPlanner {
  public:
    VariantPlanner(const Lesson& lesson, VariantPlan& plan, int wanted)
        : lesson_(lesson), plan_(plan), wanted_(wanted) {}

    ExportResult drawNext() {
        const int number = int(plan_.variants.size()) + 1;
        VariantDraw draw;
        VariantRandom random(plan_.seed, number);
        AttentionEngine engine;
        for (const LessonCell& cell : lesson_.cells) {
            const AttentionCellSpec* original = cell.attention();
            if (!original || !original->worksheet || original->worksheet->vary.empty()) {
                continue;
            }
            AttentionCellSpec candidate;
            std::shared_ptr<AttentionResult> result;
            const auto attempt = [&](std::vector<SheetAnswer>* answers) {
                ExportResult r =
                    workableAttentionDraw(cell, *original, random, engine, candidate, result);
                if (r.ok()) {
                    *answers = answersOf(
                        cell, drawnCell(cell, attentionJson(cell.id, *result), result, nullptr),
                        {});
                }
                return r;
            };
            if (ExportResult r =
                    spread(attempt, [&] { draw.attention.insert_or_assign(cell.id, candidate); });
                !r.ok()) {
                return r;
            }
        }
        for (const LessonCell& cell : lesson_.cells) {
            const TransformerCellSpec* original = cell.transformer();
            if (!original || !original->worksheet) {
                continue;
            }
            // Each transformer cell draws from its own stream, so that adding one leaves the
            // attention cells' draws as they were.
            const std::uint64_t base = splitMix64(plan_.seed ^ idHash(cell.id));
            VariantRandom own(base, number);
            TransformerCellSpec candidate;
            TransformerSheetGivens givens;
            std::shared_ptr<TransformerResult> result;
            const auto attempt = [&](std::vector<SheetAnswer>* answers) {
                ExportResult r = workableTransformerDraw(cell, *original, own, base, number,
                                                         candidate, result, givens);
                if (r.ok()) {
                    *answers = answersOf(
                        cell, drawnCell(cell, transformerJson(cell.id, *result), nullptr, result),
                        givens);
                }
                return r;
            };
            if (ExportResult r = spread(attempt,
                                        [&] {
                                            draw.transformer.insert_or_assign(cell.id, candidate);
                                            draw.givens[cell.id] = givens;
                                        });
                !r.ok()) {
                return r;
            }
        }
        plan_.variants.push_back(std::move(draw));
        return ExportResult::done();
    }

  private:
    struct Tally {
        std::set<std::string> chosen; // the answers of the variants drawn so far
        std::set<std::string> found;  // the answers of every draw tried
        int draws = 0;
    };

    // The answers of a cell's exercise and of the numeric quizzes about it, for a draw.
    std::vector<SheetAnswer> answersOf(const LessonCell& cell, ComputedCell computed,
                                       const TransformerSheetGivens& givens) const {
        std::vector<SheetAnswer> answers = exerciseAnswers(cell, computed, givens);
        LessonResults results;
        results.cells.push_back(std::move(computed));
        for (SheetAnswer& a : quizAnswersAbout(lesson_, cell.id, results)) {
            answers.push_back(std::move(a));
        }
        return answers;
    }

    Tally& tally(const std::string& question) {
        const auto [it, added] = tallies_.try_emplace(question);
        if (added) {
            order_.push_back(question);
        }
        return it->second;
    }

    // A question whose answer was the same in every one of many draws is about nothing that
    // varies (a quiz on d_k): it cannot differ, and is not redrawn for.
    static bool fixed(const Tally& t) { return t.found.size() == 1 && t.draws >= kSpreadDraws; }

    // A question whose every answer found is taken (a kept draw had to share one): later
    // variants are not redrawn for it, which would cost kSpreadDraws draws each for nothing;
    // its answers then repeat while the others' still differ.
    bool saturated(const std::string& question) const {
        return std::find(short_.begin(), short_.end(), question) != short_.end();
    }

    // Tries `attempt` up to kSpreadDraws times and keeps (with `keep`) the first draw none of
    // whose answers an earlier variant has, else the one that shares fewest. A question whose
    // answer is still shared then is saturated, and noted for refusal().
    ExportResult spread(const std::function<ExportResult(std::vector<SheetAnswer>*)>& attempt,
                        const std::function<void()>& keep) {
        int fewest = std::numeric_limits<int>::max();
        std::vector<SheetAnswer> kept;
        std::vector<std::string> shared;
        for (int tries = 0; tries < kSpreadDraws && fewest > 0; ++tries) {
            std::vector<SheetAnswer> answers;
            if (ExportResult r = attempt(&answers); !r.ok()) {
                return r;
            }
            std::vector<std::string> clashes;
            for (const SheetAnswer& a : answers) {
                Tally& t = tally(a.question);
                t.found.insert(a.text);
                ++t.draws;
                if (!fixed(t) && !saturated(a.question) && t.chosen.count(a.text)) {
                    clashes.push_back(a.question);
                }
            }
            if (int(clashes.size()) < fewest) {
                fewest = int(clashes.size());
                kept = std::move(answers);
                shared = std::move(clashes);
                keep();
            }
        }
        for (const SheetAnswer& a : kept) {
            tally(a.question).chosen.insert(a.text);
        }
        for (const std::string& question : shared) {
            if (!saturated(question)) {
                short_.push_back(question);
            }
        }
        return ExportResult::done();
    }

  public:
    // Refused, naming every question whose different answers in all the draws tried are fewer
    // than `wanted_` (the most variants that can all differ is the least of them); else done.
    ExportResult refusal() const {
        QStringList why;
        int most = wanted_;
        for (const std::string& question : short_) {
            const Tally& t = tallies_.at(question);
            if (wanted_ > 0 && !fixed(t) && int(t.found.size()) < wanted_) {
                why << (why.isEmpty()
                            ? QStringLiteral("%1 has only %2 different answers within the ranges "
                                             "of worksheet.vary (in %3 draws)")
                            : QStringLiteral("%1 only %2 (in %3 draws)"))
                           .arg(QString::fromStdString(question))
                           .arg(t.found.size())
                           .arg(t.draws);
                most = std::min(most, int(t.found.size()));
            }
        }
        if (why.isEmpty()) {
            return ExportResult::done();
        }
        return ExportResult::refused(
            QStringLiteral("%1, so %2 variants cannot all differ: ask for at most %3 variants (a "
                           "roster longer than that takes them again from 1)")
                .arg(why.join(QStringLiteral(", ")))
                .arg(wanted_)
                .arg(most));
    }

  public:
    std::vector<QuestionSpread> spreads() const {
        std::vector<QuestionSpread> out;
        for (const std::string& question : order_) {
            const Tally& t = tallies_.at(question);
            out.push_back({question, int(t.chosen.size()), int(t.found.size()), t.draws});
        }
        return out;
    }

  private:
    const Lesson& lesson_;
    VariantPlan& plan_;
    const int wanted_;
    std::map<std::string, Tally> tallies_;
    std::vector<std::string> order_; // questions as first met
    std::vector<std::string> short_; // questions a kept draw shared an answer of, as met
};

} // namespace

ExportResult planVariants(const Lesson& lesson, std::uint64_t seed, int count, int wanted,
                          VariantPlan* plan) {
    *plan = VariantPlan{};
    plan->seed = seed;
    VariantPlanner planner(lesson, *plan, wanted);
    for (int number = 1; number <= count; ++number) {
        if (ExportResult r = planner.drawNext(); !r.ok()) {
            plan->spread = planner.spreads();
            return r;
        }
    }
    plan->spread = planner.spreads();
    return planner.refusal();
}

ExportResult computeVariant(const Lesson& lesson, const VariantPlan& plan, int number, int count,
                            WorksheetVariant* out, const LessonResults* lessonResults) {
    out->number = number;
    out->count = count;
    out->seed = plan.seed;
    out->lesson = lesson;
    out->transformerGivens.clear();
    if (number > 0) {
        const VariantDraw& draw = plan.variants.at(size_t(number - 1));
        for (LessonCell& cell : out->lesson.cells) {
            if (const auto a = draw.attention.find(cell.id); a != draw.attention.end()) {
                cell.readToChange().spec = a->second;
            } else if (const auto t = draw.transformer.find(cell.id); t != draw.transformer.end()) {
                cell.readToChange().spec = t->second;
            }
        }
        out->transformerGivens = draw.givens;
    } else {
        // The lesson's own numbers take the strongest unit and the cell's n and steps.
        for (const LessonCell* cell : transformerWorksheetCells(lesson)) {
            const TransformerConfig& c = cell->transformer()->config;
            TransformerSheetGivens givens;
            givens.cacheN = int(c.tokens.size());
            givens.cacheT = c.generate ? std::max(2, c.generate->steps) : 3;
            out->transformerGivens[cell->id] = givens;
        }
    }
    ComputePolicy policy;
    if (lessonResults) {
        const VariantDraw* draw = number > 0 ? &plan.variants.at(size_t(number - 1)) : nullptr;
        policy.reuse = [lessonResults, draw](const LessonCell& cell) -> const ComputedCell* {
            const bool drawn = draw && (draw->attention.count(cell.id) != 0 ||
                                        draw->transformer.count(cell.id) != 0);
            return drawn ? nullptr : lessonResults->cell(cell.id);
        };
    }
    AttentionEngine engine;
    out->results = computeLesson(out->lesson, engine, policy);
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
    // them too, or the sheet would say something false (docs/lesson-format.md).
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
    out->hash = sheetHash(*out);
    return ExportResult::done();
}

ExportResult drawVariant(const Lesson& lesson, std::uint64_t seed, int number, int count,
                         WorksheetVariant* out) {
    VariantPlan plan;
    if (ExportResult r = planVariants(lesson, seed, number, 0, &plan); !r.ok()) {
        return r;
    }
    return computeVariant(lesson, plan, number, count, out);
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
    // The id is mixed first: FNV-1a alone leaves every id of attention.md's quizzes at the same
    // place modulo 3, which put all of a variant's right answers under one letter.
    const size_t place = size_t((splitMix64(seed ^ id) + std::uint64_t(variant)) % count);
    others.insert(others.begin() + std::ptrdiff_t(place), right);
    return others;
}

} // namespace attnbook

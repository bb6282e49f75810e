// Finding a hand-typed number (the scanner: typed_number_scan.h) among the cell values it may
// restate, the rules for which binding to suggest, and fixing: the same sites located in the
// file's bytes (prose, tables, quiz YAML).
#include "core/document/typed_numbers.h"

#include "core/document/bindings.h"
#include "core/document/lesson.h"
#include "core/document/line_index.h"
#include "core/document/source_text.h"
#include "core/document/typed_number_scan.h"
#include "core/document/yaml_tree.h"
#include "core/math/number_format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <functional>
#include <optional>
#include <tuple>

namespace attnbook {

Diagnostic TypedNumber::diagnostic() const {
    std::string message = typed + " is typed by hand but equals " +
                          binding.substr(0, binding.rfind(':')) + ": write " + replacement() +
                          " so it stays true";
    if (inVaryingQuiz) {
        message += " (this quiz's cell varies on worksheets, so the typed number is false on "
                   "every other variant)";
    }
    return {inVaryingQuiz ? Severity::Error : Severity::Warning, line, column, message, quizId};
}

namespace {

using typed_scan::Typed;
using typed_scan::typedIn;

YamlNode cellYaml(const CellBlock& cell) {
    return parseYaml(cellYamlText(cell), cell.bodyFirstLine, cell.indent);
}

// A number or a row of numbers somewhere in a computed cell.
struct CellValue {
    std::string path;
    const Json* json;
    int cellIndex;
    int rank; // the stage that computes it: inputs first (X0, the token vectors), then
              // what is derived from them, in the order the layer computes it
    bool transformer = false; // ranked by transformerStageOf
};

// A transformer cell's top-level key's rank: what prose restates most first (the next words,
// the loss, generation's picks and costs, the chances, knock-outs), then the inputs, then the
// stream's stages (many numbers, so that a coincidence there does not win), the gradients
// last. Unlike an attention cell's, the inputs do not lead: the positions alone are n × d
// numbers in [−1, 1], and a chance typed as 0.9955 is a chance, not P[2][9].
int transformerStageOf(const std::string& key) {
    static const std::vector<std::pair<std::string, int>> order = {
        {"next", 0}, {"loss", 0}, {"generation", 0}, {"probs", 1},  {"knockout", 2}, {"X0", 3},
        {"X", 4},    {"P", 5},    {"final_ln", 7},   {"logits", 8}, {"layers", 9}};
    for (const auto& [name, rank] : order) {
        if (name == key) {
            return rank;
        }
    }
    return 12; // grad and anything new
}

// Whether a whole number typed in prose may restate this value: a result, never an input, a
// size or a gradient (the gradient of a sum is all ones, whose totals are counts).
bool countsWhole(const CellValue& v) {
    if (v.transformer) {
        // Generation's costs and the cache's size ("25 comparisons"); the stream's entries
        // that happen to be whole are inputs passed on, not results.
        return v.rank == 0;
    }
    // From the scores on: Q, K and V are the inputs again under identity projections.
    constexpr int kScoresRank = 4, kOutputRank = 10;
    return v.rank >= kScoresRank && v.rank <= kOutputRank;
}

// A top-level key's stage; a head's scores, weights and context are 4, 5 and 6.
int stageOf(const std::string& key) {
    static const std::vector<std::string> order = {"X0",    "X",    "P",      "Q",      "K",   "V",
                                                   "scale", "head", "concat", "output", "grad"};
    const auto at = std::find(order.begin(), order.end(), key);
    const int index = int(at - order.begin());
    return index <= 2 ? index : index <= 6 ? 3 : index == 7 ? 5 : index + 1; // unknown: last
}

bool isNumberRow(const Json& json) {
    return json.isArray() && !json.array().empty() &&
           std::all_of(json.array().begin(), json.array().end(),
                       [](const Json& v) { return v.isNumber(); });
}

void collectValues(const Json& json, const std::string& path, int cellIndex, int rank,
                   std::vector<CellValue>& out, size_t limit, bool transformer = false) {
    if (out.size() >= limit) {
        return;
    }
    if (json.isNumber() || isNumberRow(json)) {
        out.push_back({path, &json, cellIndex, rank, transformer});
    }
    if (json.isArray()) {
        for (size_t i = 0; i < json.array().size(); ++i) {
            collectValues(json.array()[i], path + "[" + std::to_string(i) + "]", cellIndex, rank,
                          out, limit, transformer);
        }
    } else if (json.isObject()) {
        // Sizes and the gradient check's report are settings and diagnostics, not values
        // prose restates; a width typed as 4 is not a decimal anyway.
        static const std::vector<std::string> skipped = {
            "n",   "d",         "heads",    "d_k",        "d_v",
            "d_o", "gradcheck", "warnings", "vocab_size", "layers_run"};
        for (const auto& [key, value] : json.object_()) {
            if (std::find(skipped.begin(), skipped.end(), key) != skipped.end()) {
                continue;
            }
            const bool topLevel = path.find('.') == std::string::npos;
            if (transformer) {
                // Within a knock-out, its likeliest words before its whole row of chances.
                const int keyRank = topLevel ? transformerStageOf(key) : rank + (key == "probs");
                collectValues(value, path + "." + key, cellIndex, keyRank, out, limit, true);
                continue;
            }
            const bool inHead = rank == stageOf("head") && path.find(".head[") != std::string::npos;
            const int keyRank = topLevel                     ? stageOf(key)
                                : inHead && key == "scores"  ? 4
                                : inHead && key == "weights" ? 5
                                : inHead && key == "context" ? 6
                                                             : rank;
            collectValues(value, path + "." + key, cellIndex, keyRank, out, limit);
        }
    }
}

bool shows(const CellValue& candidate, const Typed& typed) {
    const Json& json = *candidate.json;
    if (typed.vector != json.isArray()) {
        return false;
    }
    if (typed.whole) { // exactly, and a result: inputs, sizes and settings are not
        // A transformer's counts start small (n + t − 1 comparisons at step t): below 10, a
        // step's or a position's number is far likelier than a restated count.
        constexpr double kSmallestTransformerCount = 10;
        return countsWhole(candidate) &&
               (!candidate.transformer || typed.values[0] >= kSmallestTransformerCount) &&
               std::abs(json.number() - typed.values[0]) <=
                   1e-9 * std::max(1.0, std::abs(typed.values[0]));
    }
    if (typed.percent) {
        const int places = typed.decimals - 2;
        return json.number() > 0 && json.number() < 1 &&
               formatBoundValue(Json(json.number() * 100), places) ==
                   typed.text.substr(0, typed.text.find_first_of(" %"));
    }
    if (typed.vector) {
        if (json.array().size() != typed.values.size()) {
            return false;
        }
        for (size_t i = 0; i < typed.values.size(); ++i) {
            if (std::abs(json.array()[i].number() - typed.values[i]) >
                std::pow(10.0, -typed.decimals)) {
                return false;
            }
        }
    } else if (std::abs(json.number() - typed.values[0]) > std::pow(10.0, -typed.decimals)) {
        return false; // far off: skip the formatting
    } else if (typed.decimals == 1 && std::abs(json.number() - typed.values[0]) >
                                          1e-9 * std::max(1.0, std::abs(json.number()))) {
        // One place is too coarse to tell a restatement from a coincidence: a cell of a few
        // hundred values has one near any 0.1 ("an error of 0.1 or more"). Only a value that
        // is exactly what was typed (a scale of 0.5) counts.
        return false;
    }
    // Bound numbers print a real minus sign; an author types either.
    return asciiMinus(formatBoundValue(json, typed.decimals)) == asciiMinus(typed.text);
}

class TypedNumberFinder {
  public:
    TypedNumberFinder(const Lesson& lesson, const LessonResults& results)
        : lesson_(lesson), results_(results), file_(lesson.document.serialize()), lines_(file_) {
        for (size_t i = 0; i < results.cells.size(); ++i) {
            const ComputedCell& cell = results.cells[i];
            if (cell.ok && cell.kind == CellKind::Attention) {
                collectValues(cell.json, cell.id, int(i), 99, values_, kMaxValues);
            } else if (cell.ok && cell.kind == CellKind::Transformer) {
                collectValues(cell.json, cell.id, int(i), 99, values_, kMaxValues, true);
                addTopTotals(cell, int(i));
            }
        }
    }

    std::vector<TypedNumber> find() {
        if (values_.empty()) {
            return {};
        }
        for (const Segment& segment : lesson_.document.segments) {
            if (!segment.isCell()) {
                findInProse(segment.prose());
            }
        }
        for (const CellBlock* block : lesson_.document.cells()) {
            if (block->kind == CellKind::Quiz) {
                findInQuiz(*block);
            }
        }
        std::stable_sort(out_.begin(), out_.end(), [](const TypedNumber& a, const TypedNumber& b) {
            return std::tie(a.line, a.column) < std::tie(b.line, b.column);
        });
        return std::move(out_);
    }

  private:
    static constexpr size_t kMaxValues = 400000;

    // The totals of a transformer cell's likeliest words ("the three take 0.9977"): the sum of
    // next[0..k−1].prob for k = 2 … 5, each as the expression a binding writes. Ranked with the
    // chances, after them on a tie (a longer path): a total of many is near 1, as chances are.
    void addTopTotals(const ComputedCell& cell, int cellIndex) {
        const Json* next = cell.json.isObject() ? cell.json.find("next") : nullptr;
        if (!next || !next->isArray()) {
            return;
        }
        double total = 0.0;
        std::string expression;
        constexpr size_t kLongestTotal = 5;
        for (size_t k = 0;
             k < std::min(next->array().size(), kLongestTotal) && values_.size() < kMaxValues;
             ++k) {
            const Json* prob =
                next->array()[k].isObject() ? next->array()[k].find("prob") : nullptr;
            if (!prob || !prob->isNumber()) {
                return;
            }
            total += prob->number();
            expression += (k ? " + " : "") + cell.id + ".next[" + std::to_string(k) + "].prob";
            if (k > 0) {
                derived_.emplace_back(total);
                values_.push_back({expression + " ", &derived_.back(), cellIndex, 1, true});
            }
        }
    }

    struct Found {
        std::string binding;                 // "colour.X0[1]:0", "100 * colour.…:0"
        std::vector<std::string> candidates; // every value that shows it, best first
    };

    // The binding for `typed`: the subject cell's value first, then the first cell's, then
    // inputs before derived values, then the shortest path. A whole number or a percentage
    // is looked for in the subject cell only: elsewhere, one is a coincidence too easily.
    std::optional<Found> bindingFor(const Typed& typed, const std::string& subject) const {
        std::vector<const CellValue*> showing;
        const auto key = [&](const CellValue* v) {
            return std::make_tuple(results_.cells[size_t(v->cellIndex)].id != subject, v->cellIndex,
                                   v->rank, v->path.size(), std::string_view(v->path));
        };
        const bool subjectOnly = typed.whole || typed.percent;
        for (const CellValue& candidate : values_) {
            if ((!subjectOnly || results_.cells[size_t(candidate.cellIndex)].id == subject) &&
                shows(candidate, typed)) {
                showing.push_back(&candidate);
            }
        }
        if (showing.empty()) {
            return std::nullopt;
        }
        std::stable_sort(showing.begin(), showing.end(),
                         [&](const CellValue* a, const CellValue* b) { return key(a) < key(b); });
        Found found;
        const std::string scaled = typed.percent ? "100 * " : "";
        for (const CellValue* value : showing) { // the chosen cell's: the text is about it
            if (value->cellIndex == showing.front()->cellIndex) {
                found.candidates.push_back(scaled + value->path);
            }
        }
        const int places = typed.percent ? typed.decimals - 2 : typed.decimals;
        found.binding = found.candidates.front() + ":" + std::to_string(places);
        return found;
    }

    // The bindings of the paragraph around `offset` in a prose block.
    static std::vector<Binding>
    paragraphBindings(std::string_view text, const std::vector<ProsePiece>& pieces, size_t offset) {
        const auto [begin, end] = paragraphAround(text, offset);
        std::vector<Binding> out;
        for (const ProsePiece& piece : pieces) {
            if (piece.kind == ProsePiece::Kind::Binding && !piece.binding.claim &&
                piece.offset >= begin && piece.offset < end) {
                out.push_back(piece.binding);
            }
        }
        return out;
    }

    static std::pair<size_t, size_t> paragraphAround(std::string_view text, size_t offset) {
        size_t begin = text.rfind("\n\n", offset);
        size_t crBegin = text.rfind("\n\r\n", offset);
        begin = begin == std::string_view::npos ? 0 : begin;
        if (crBegin != std::string_view::npos) {
            begin = std::max(begin, crBegin);
        }
        const size_t end = std::min(text.find("\n\n", offset), text.find("\n\r\n", offset));
        return {begin, end};
    }

    // The cell a paragraph is about: the one it binds closest to the number, else the
    // attention cell nearest to the paragraph.
    std::string proseSubject(const ProseBlock& prose, const std::vector<ProsePiece>& pieces,
                             size_t offset) const {
        const auto [begin, end] = paragraphAround(prose.text, offset);
        const ProsePiece* closest = nullptr; // in a list, the item's own binding
        const auto gap = [&](const ProsePiece& piece) {
            return piece.offset > offset ? piece.offset - offset : offset - piece.offset;
        };
        for (const ProsePiece& piece : pieces) {
            if (piece.kind == ProsePiece::Kind::Binding && piece.offset >= begin &&
                piece.offset < end && !piece.binding.paths.empty() &&
                (!closest || gap(piece) < gap(*closest))) {
                closest = &piece;
            }
        }
        if (closest) {
            return closest->binding.paths.front().cellId;
        }
        const int line = prose.firstLine;
        std::string nearest;
        int distance = 0;
        for (const LessonCell& cell : lesson_.cells) {
            if (cell.kind != CellKind::Attention && cell.kind != CellKind::Transformer) {
                continue;
            }
            const int d = std::abs(cell.openLine - line);
            if (nearest.empty() || d < distance) {
                nearest = cell.id, distance = d;
            }
        }
        return nearest;
    }

    void findInProse(const ProseBlock& prose) {
        const std::vector<ProsePiece> pieces =
            scanProse(prose.text, prose.firstLine, 1, lesson_.document.codeBlocks);
        const size_t blockStart = lines_.lineStart(prose.firstLine);
        for (const ProsePiece& piece : pieces) {
            if (piece.kind != ProsePiece::Kind::Text) {
                continue;
            }
            const std::string_view text =
                std::string_view(prose.text).substr(piece.offset, piece.length);
            size_t covered = 0; // the end of the last vector found, whose numbers are in it
            for (const Typed& typed : typedIn(text)) {
                if (typed.offset < covered) {
                    continue;
                }
                const size_t at = piece.offset + typed.offset;
                const std::string subject = proseSubject(prose, pieces, at);
                const std::vector<Binding> around = paragraphBindings(prose.text, pieces, at);
                // A whole number or a percentage counts only beside a binding of its cell:
                // near a cell is not enough for numbers this common.
                const bool bindsSubject =
                    std::any_of(around.begin(), around.end(), [&](const Binding& b) {
                        return std::any_of(
                            b.paths.begin(), b.paths.end(),
                            [&](const BindingPath& p) { return p.cellId == subject; });
                    });
                const std::optional<Found> found = (typed.whole || typed.percent) && !bindsSubject
                                                       ? std::nullopt
                                                       : bindingFor(typed, subject);
                if (found) {
                    covered = typed.offset + typed.text.size();
                    const FilePosition where = lines_.position(blockStart + at);
                    TypedNumber site{where.line,     where.column, typed.text,
                                     found->binding, "",           false,
                                     true,           {},           {}};
                    take(site, typed, *found, around);
                }
            }
        }
    }

    void findInQuiz(const CellBlock& block) {
        const LessonCell* cell = lesson_.cell(block.id);
        if (!cell || !cell->quiz()) {
            return;
        }
        YamlNode body;
        try {
            body = cellYaml(block);
        } catch (const YamlError&) {
            return; // the reader reported it
        }
        const std::string subject = quizSubject(*cell);
        quizBindings_.clear();
        const QuizCellSpec& quiz = *cell->quiz();
        std::vector<std::string> texts = {quiz.question, quiz.explain};
        texts.insert(texts.end(), quiz.choices.begin(), quiz.choices.end());
        for (const std::string& text : texts) {
            for (const ProsePiece& piece : scanProse(text, 1)) {
                if (piece.kind == ProsePiece::Kind::Binding && !piece.binding.claim) {
                    quizBindings_.push_back(piece.binding);
                }
            }
        }
        const LessonCell* subjectCell = lesson_.cell(subject);
        const AttentionCellSpec* spec = subjectCell ? subjectCell->attention() : nullptr;
        const TransformerCellSpec* decoder = subjectCell ? subjectCell->transformer() : nullptr;
        const bool varies = (spec && spec->worksheet && !spec->worksheet->vary.empty()) ||
                            (decoder && decoder->worksheet && !decoder->worksheet->vary.empty());
        std::vector<FilePosition> starts; // every node's start: where a scalar's text ends
        for (const auto& [key, value] : body.entries) {
            starts.push_back(key.at);
            starts.push_back(value.at);
            for (const YamlNode& item : value.items) {
                starts.push_back(item.at);
            }
        }
        const size_t bodyEnd =
            std::min(file_.size(), lines_.lineStart(block.bodyFirstLine) + block.body.size());
        for (const auto& [key, value] : body.entries) {
            if (key.scalar != "question" && key.scalar != "explain" && key.scalar != "choices") {
                continue;
            }
            std::vector<const YamlNode*> texts;
            if (value.isScalar()) {
                texts.push_back(&value);
            }
            for (const YamlNode& item : value.items) {
                if (item.isScalar()) {
                    texts.push_back(&item);
                }
            }
            for (const YamlNode* node : texts) {
                findInScalar(*node, starts, bodyEnd, block.id, subject, varies);
            }
        }
    }

    // A scalar's text as YAML decodes it (folded, unescaped) is where numbers are found;
    // its k-th "0.38" is the k-th "0.38" between its start and the next node's in the file.
    void findInScalar(const YamlNode& node, const std::vector<FilePosition>& starts, size_t bodyEnd,
                      const std::string& quizId, const std::string& subject, bool varies) {
        const std::optional<size_t> begin = lines_.offset(node.at.line, node.at.column);
        if (!begin) {
            return;
        }
        size_t end = std::max(bodyEnd, *begin);
        for (const FilePosition& start : starts) {
            const std::optional<size_t> at = lines_.offset(start.line, start.column);
            if (at && *at > *begin) {
                end = std::min(end, *at);
            }
        }
        const std::string_view raw = std::string_view(file_).substr(*begin, end - *begin);
        std::vector<ProsePiece> pieces = scanProse(node.scalar, node.at.line, node.at.column);
        std::vector<Typed> rawTyped = typedIn(raw);
        std::vector<std::string> seen;
        for (const ProsePiece& piece : pieces) {
            if (piece.kind != ProsePiece::Kind::Text) {
                continue;
            }
            size_t covered = 0;
            for (const Typed& typed :
                 typedIn(std::string_view(node.scalar).substr(piece.offset, piece.length))) {
                const size_t k = size_t(std::count(seen.begin(), seen.end(), typed.text));
                seen.push_back(typed.text);
                const std::optional<Found> found =
                    typed.offset < covered ? std::nullopt : bindingFor(typed, subject);
                if (!found) {
                    continue;
                }
                covered = typed.offset + typed.text.size();
                TypedNumber site{node.at.line,
                                 node.at.column,
                                 typed.text,
                                 found->binding,
                                 quizId,
                                 varies,
                                 false,
                                 {},
                                 {}};
                size_t matching = 0;
                for (const Typed& inFile : rawTyped) {
                    if (inFile.text == typed.text && matching++ == k) {
                        const FilePosition where = lines_.position(*begin + inFile.offset);
                        site.line = where.line, site.column = where.column, site.located = true;
                        break;
                    }
                }
                take(site, typed, *found, quizBindings_);
            }
        }
    }

    // Keeps a site with what --fix weighs. A percentage's site is its number: the sign stays.
    void take(TypedNumber& site, const Typed& typed, const Found& found,
              std::vector<Binding> neighbours) {
        if (typed.percent) {
            site.typed = site.typed.substr(0, site.typed.find_first_of(" %"));
        }
        site.candidates = found.candidates;
        site.neighbours = std::move(neighbours);
        out_.push_back(std::move(site));
    }

    const Lesson& lesson_;
    const LessonResults& results_;
    std::vector<Binding> quizBindings_; // the bindings of the quiz being read
    const std::string file_;            // the document's text as the file has it, for positions
    const LineIndex lines_;
    std::deque<Json> derived_; // values no cell prints, such as totals (stable addresses)
    std::vector<CellValue> values_;
    std::vector<TypedNumber> out_;
};

// Every scalar of a quiz's YAML in file order (keys included), or nullopt when the file
// or the quiz does not read.
std::optional<std::vector<std::string>> quizScalars(const std::string& bytes,
                                                    const std::string& quizId) {
    std::vector<Diagnostic> problems;
    const std::optional<SourceText> text = decodeSource(bytes, problems);
    if (!text) {
        return std::nullopt;
    }
    const ParsedDocument parsed = parseDocument(*text, "");
    for (const CellBlock* block : parsed.document.cells()) {
        if (block->id != quizId) {
            continue;
        }
        try {
            std::vector<std::string> out;
            const std::function<void(const YamlNode&)> walk = [&](const YamlNode& node) {
                if (node.isScalar()) {
                    out.push_back(node.scalar);
                }
                for (const YamlNode& item : node.items) {
                    walk(item);
                }
                for (const auto& [key, value] : node.entries) {
                    walk(key);
                    walk(value);
                }
            };
            walk(cellYaml(*block));
            return out;
        } catch (const YamlError&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

// True when `after` reads as `before` with one `typed` replaced by `replacement`.
bool replacedOnce(const std::string& before, const std::string& after, const std::string& typed,
                  const std::string& replacement) {
    if (after.size() != before.size() - typed.size() + replacement.size()) {
        return false;
    }
    for (size_t at = before.find(typed); at != std::string::npos; at = before.find(typed, at + 1)) {
        if (after.compare(0, at, before, 0, at) == 0 &&
            after.compare(at, replacement.size(), replacement) == 0 &&
            after.compare(at + replacement.size(), std::string::npos, before, at + typed.size(),
                          std::string::npos) == 0) {
            return true;
        }
    }
    return false;
}

// True when the quiz reads the same after the edit, apart from the site's text.
bool quizKeepsReading(const std::string& before, const std::string& after,
                      const TypedNumber& site) {
    const auto old = quizScalars(before, site.quizId);
    const auto edited = quizScalars(after, site.quizId);
    if (!old || !edited || old->size() != edited->size()) {
        return false;
    }
    int changed = 0;
    for (size_t i = 0; i < old->size(); ++i) {
        if ((*old)[i] != (*edited)[i]) {
            if (++changed > 1 ||
                !replacedOnce((*old)[i], (*edited)[i], site.typed, site.replacement())) {
                return false;
            }
        }
    }
    return changed == 1;
}

} // namespace

std::vector<TypedNumber> findTypedNumbers(const Lesson& lesson, const LessonResults& results) {
    return TypedNumberFinder(lesson, results).find();
}

TypedNumberFix fixTypedNumbers(const std::string& fileBytes,
                               const std::vector<TypedNumber>& sites) {
    TypedNumberFix out;
    const LineIndex lines(fileBytes);
    std::vector<std::pair<size_t, const TypedNumber*>> edits;
    for (const TypedNumber& site : sites) {
        if (!site.located) {
            out.refused.push_back({site, "its place in the quiz's YAML is not known (an escape "
                                         "in a quoted string?): write " +
                                             site.replacement() + " by hand"});
            continue;
        }
        const std::optional<size_t> at = lines.offset(site.line, site.column);
        if (!at || fileBytes.compare(*at, site.typed.size(), site.typed) != 0) {
            out.refused.push_back({site, "the file does not hold '" + site.typed + "' there"});
            continue;
        }
        if (!site.quizId.empty()) {
            std::string edited = fileBytes;
            edited.replace(*at, site.typed.size(), site.replacement());
            if (!quizKeepsReading(fileBytes, edited, site)) {
                out.refused.push_back(
                    {site, "the quiz's YAML would not read the same with " + site.replacement() +
                               " there (quote the string, then run --fix again)"});
                continue;
            }
        }
        edits.push_back({*at, &site});
    }
    std::sort(edits.begin(), edits.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    out.bytes = fileBytes;
    size_t limit = std::string::npos; // edits run back to front and never overlap
    for (const auto& [at, site] : edits) {
        if (at + site->typed.size() > limit) {
            out.refused.push_back({*site, "it overlaps another site"});
            continue;
        }
        out.bytes.replace(at, site->typed.size(), site->replacement());
        out.fixed.push_back(*site);
        limit = at;
    }
    std::reverse(out.fixed.begin(), out.fixed.end());
    return out;
}

} // namespace attnbook

#include "core/live/what_if_sweep.h"

#include "core/document/cell_cost.h"
#include "core/document/cell_editor.h"
#include "core/document/cell_reread.h"
#include "core/document/prose_sentences.h"
#include "core/document/result_json.h"
#include "core/live/reader_what_ifs.h"
#include "core/live/sentence_words.h"
#include "core/live/transformer_live_cell.h"
#include "core/math/transformer_engine.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace attnbook {
namespace {

// "cell.first" for a path: the part of a cell's result it reads ("playground.head",
// "tiny.next"), what decides whether a claim reads the numbers a sentence states.
std::string pathRoot(const BindingPath& path) {
    const auto* first = path.steps.empty() ? nullptr : std::get_if<std::string>(&path.steps[0]);
    return path.cellId + "." + (first ? *first : std::string());
}

std::vector<std::string> tokensOf(const LessonResults& results, const std::string& cellId) {
    std::vector<std::string> tokens;
    const ComputedCell* cell = results.cell(cellId);
    const Json* list = cell && cell->ok ? cell->json.find("tokens") : nullptr;
    if (list && list->isArray()) {
        for (const Json& token : list->array()) {
            if (token.isString()) {
                tokens.push_back(token.string());
            }
        }
    }
    return tokens;
}

std::string shown(const LessonResults& results, const Binding& binding) {
    return results.boundText(binding).value_or("—");
}

bool claimHolds(const LessonResults& results, const Binding& claim) {
    const ClaimVerdict verdict = evaluateClaim(claim, results.lookup());
    return verdict.error.empty() && verdict.holds;
}

// `text` cut to `longest` bytes (at a character), with "…" when cut.
std::string shortened(std::string text, size_t longest = 40) {
    if (text.size() > longest) {
        size_t cut = longest;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
            --cut;
        }
        text = text.substr(0, cut) + "…";
    }
    return text;
}

// (Not `quoted`: an unqualified call with a std::string that is not const finds std::quoted
// too, by argument-dependent lookup, wherever <iomanip> is included, and takes it.)
std::string inQuotes(const std::string& text) {
    return "'" + shortened(text, 60) + "'";
}

// The explanations of the lesson's quizzes: the window shows them with the reader's numbers
// too. (A question asks; it claims nothing.)
// Where a scalar's text starts: after a block scalar's `>-` or `|`, at the next line's first
// character.
FilePosition textStart(const Document& document, const std::string& cellId, FilePosition at) {
    for (const CellBlock* block : document.cells()) {
        if (block->id != cellId || at.line < block->bodyFirstLine) {
            continue;
        }
        std::vector<std::string> lines;
        size_t from = 0;
        for (size_t to; (to = block->body.find('\n', from)) != std::string::npos; from = to + 1) {
            lines.push_back(block->body.substr(from, to - from));
        }
        const size_t index = size_t(at.line - block->bodyFirstLine);
        if (index + 1 >= lines.size() || size_t(at.column) > lines[index].size() ||
            (lines[index][size_t(at.column) - 1] != '>' &&
             lines[index][size_t(at.column) - 1] != '|')) {
            return at;
        }
        const std::string& next = lines[index + 1];
        return {at.line + 1, int(next.find_first_not_of(' ') == std::string::npos
                                     ? 1
                                     : next.find_first_not_of(' ') + 1)};
    }
    return at;
}

std::vector<QuizText> quizTextsOf(const Lesson& lesson) {
    std::vector<QuizText> out;
    for (const LessonCell& cell : lesson.cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            const FilePosition at =
                textStart(lesson.document, cell.id, cell.read().positions.of("explain"));
            if (!quiz->explain.empty() && at.line > 0) {
                out.push_back({cell.id, at.line, at.column, quiz->explain});
            }
        }
    }
    return out;
}

// One reason a sentence may be false under one what-if.
struct Suspect {
    enum class Kind {
        Value,   // a bound number changed: any claim that can fail states its condition
        Setting, // the words name the setting: a claim must fail when that setting changes
        Numbers, // the words state a quantity or a relation: a claim must read those numbers
    };
    std::string setting; // "try.mask=causal (causal mask)"
    std::string says;
    std::string now;
    Kind kind = Kind::Value;
    std::string key; // "playground.scale": what the words name
    // Kind::Numbers: the parts of the results the sentence's changed values read
    // ("playground.head"), or, binding none, the cell it is about ("playground.").
    std::vector<std::string> reads;
};

// The sweep over one lesson: its sentences before any what-if, then each what-if in turn.
class Sweep {
  public:
    Sweep(const Lesson& lesson, const LessonResults& results)
        : results_(results), sentences_(proseSentences(lesson.document, quizTextsOf(lesson))),
          suspects_(sentences_.sentences.size()), claimFailedUnder_(sentences_.sentences.size()),
          failedClaimReads_(sentences_.sentences.size()) {
        for (const ProseSentence& sentence : sentences_.sentences) {
            std::vector<std::string> values;
            for (const Binding& binding : sentence.values) {
                values.push_back(shown(results, binding));
            }
            shownBefore_.push_back(std::move(values));
        }
        for (size_t s = 0; s < sentences_.sentences.size(); ++s) {
            const ProseSentence& sentence = sentences_.sentences[s];
            paragraphSentences_[sentence.paragraph].push_back(s);
            std::vector<std::string>& cells = paragraphCells_[sentence.paragraph];
            for (const std::string& id : cellsNamedBy(sentence)) {
                if (std::find(cells.begin(), cells.end(), id) == cells.end()) {
                    cells.push_back(id);
                }
            }
        }
    }

    void tryWhatIf(const SweepWhatIf& whatIf, const LessonResults& now) {
        const std::vector<std::string> tokensBefore = tokensOf(results_, whatIf.cellId);
        const std::vector<std::string> tokensNow = tokensOf(now, whatIf.cellId);
        const std::string& setting = whatIf.setting;
        for (size_t s = 0; s < sentences_.sentences.size(); ++s) {
            const ProseSentence& sentence = sentences_.sentences[s];
            const std::string key = whatIf.cellId + "." + whatIf.key;
            bool paragraphMarked = false; // a claim of the paragraph fails: the reader sees it
            for (const size_t other : paragraphSentences_[sentence.paragraph]) {
                for (const Binding& claim : sentences_.sentences[other].claims) {
                    if (!claimHolds(now, claim)) {
                        paragraphMarked = true;
                        if (other == s) {
                            claimFailedUnder_[s].insert(key);
                            for (const BindingPath& path : claim.paths) {
                                failedClaimReads_[s].insert(pathRoot(path));
                            }
                        }
                    }
                }
            }
            if (paragraphMarked || sentence.general) {
                continue;
            }
            if (std::optional<Suspect> found = byWords(sentence, whatIf, tokensBefore, tokensNow)) {
                found->setting = setting;
                found->key = key;
                suspects_[s].push_back(*found);
            }
            // The values it shows that this what-if changes, and what those values read.
            std::optional<size_t> firstChanged;
            std::vector<std::string> changedReads;
            for (size_t v = 0; v < sentence.values.size(); ++v) {
                if (shown(now, sentence.values[v]) != shownBefore_[s][v]) {
                    firstChanged = firstChanged.value_or(v);
                    for (const BindingPath& path : sentence.values[v].paths) {
                        changedReads.push_back(pathRoot(path));
                    }
                }
            }
            // Its words state a quantity or a relation of numbers that this what-if changes:
            // those it binds, or, binding none, those of the cell it is about.
            const bool numbersChanged = sentence.values.empty() ? isAbout(sentence, whatIf.cellId)
                                                                : firstChanged.has_value();
            if (numbersChanged) {
                if (const std::string said = numberWords(sentence.words); !said.empty()) {
                    suspects_[s].push_back(
                        {setting, inQuotes(said), whatIf.now, Suspect::Kind::Numbers, key,
                         sentence.values.empty() ? std::vector<std::string>{whatIf.cellId + "."}
                                                 : changedReads});
                }
            }
            if (firstChanged) {
                const size_t v = *firstChanged;
                suspects_[s].push_back({setting,
                                        inQuotes(shownBefore_[s][v]),
                                        inQuotes(shown(now, sentence.values[v])),
                                        Suspect::Kind::Value,
                                        {},
                                        {}});
            }
        }
    }

    std::vector<Diagnostic> warnings() const {
        std::vector<Diagnostic> out;
        for (size_t s = 0; s < sentences_.sentences.size(); ++s) {
            std::vector<const Suspect*> kept;
            std::set<std::string> settings; // the what-ifs the kept suspects come from
            for (const Suspect& suspect : suspects_[s]) {
                if (!guarded(s, suspect) && settings.insert(suspect.setting).second) {
                    kept.push_back(&suspect);
                }
            }
            if (kept.empty()) {
                continue;
            }
            const ProseSentence& sentence = sentences_.sentences[s];
            std::string message = "this sentence may be false when " + kept[0]->setting +
                                  " (it says " + kept[0]->says + "; the cell now gives " +
                                  kept[0]->now + ")";
            if (kept.size() > 1) {
                message += ", and under " + std::to_string(kept.size() - 1) + " more what-if" +
                           (kept.size() > 2 ? "s" : "");
            }
            message += ": guard it with a claim that fails then, bind what it names, or mark it "
                       "<!-- general --> if its words hold for any numbers";
            out.push_back({Severity::Warning, sentence.line, sentence.column, message, ""});
        }
        return out;
    }

  private:
    // Whether a claim of sentence `s` guards it against `suspect`. A claim that some what-if
    // breaks states the condition of the sentence's numbers; one that never fails states
    // nothing. Words that name a setting need a claim that fails when that setting changes:
    // one about the setting. Words that state a quantity or a relation ("more than half", "the
    // largest") need one that reads the numbers they are about, not one about the mask.
    bool guarded(size_t s, const Suspect& suspect) const {
        switch (suspect.kind) {
        case Suspect::Kind::Value:
            return !claimFailedUnder_[s].empty();
        case Suspect::Kind::Setting:
            return claimFailedUnder_[s].count(suspect.key) > 0;
        case Suspect::Kind::Numbers:
            for (const std::string& read : failedClaimReads_[s]) {
                for (const std::string& about : suspect.reads) {
                    // "cell." (a sentence that binds nothing) is any part of that cell.
                    if (read == about || (about.back() == '.' && read.rfind(about, 0) == 0)) {
                        return true;
                    }
                }
            }
            return false;
        }
        return false;
    }

    // Whether the sentence is about the cell: it or its paragraph binds it, or, binding
    // nothing, it stands in the cell's section.
    bool isAbout(const ProseSentence& sentence, const std::string& cellId) const {
        const auto found = paragraphCells_.find(sentence.paragraph);
        if (found != paragraphCells_.end() && !found->second.empty()) {
            return std::find(found->second.begin(), found->second.end(), cellId) !=
                   found->second.end();
        }
        const auto section = sentences_.cellSection.find(cellId);
        return section != sentences_.cellSection.end() && section->second == sentence.section;
    }

    std::optional<Suspect> byWords(const ProseSentence& sentence, const SweepWhatIf& whatIf,
                                   const std::vector<std::string>& tokensBefore,
                                   const std::vector<std::string>& tokensNow) const {
        if (!isAbout(sentence, whatIf.cellId)) {
            return std::nullopt;
        }
        const std::string& key = whatIf.key;
        const std::string& now = whatIf.now;
        for (const std::string& word : topicWords(key)) {
            if (const size_t at = findWord(sentence.words, word); at != std::string::npos) {
                return Suspect{{},  inQuotes(sentence.words.substr(at, word.size())),
                               now, Suspect::Kind::Setting,
                               {},  {}};
            }
        }
        const bool countChanged = key == "heads" || key == "layers" ||
                                  (key == "tokens" && tokensBefore.size() != tokensNow.size());
        for (const std::string& noun : countChanged ? countedNouns(key) : countedNouns("")) {
            for (const std::string& count : countWords()) {
                const std::string said = count + " " + noun;
                if (findWord(sentence.words, said) != std::string::npos &&
                    (count != "one" && count != "1" && count != "single") == (noun.back() == 's')) {
                    return Suspect{{}, inQuotes(said), now, Suspect::Kind::Setting, {}, {}};
                }
            }
        }
        if (key != "tokens") {
            return std::nullopt;
        }
        for (size_t i = 0; i < tokensBefore.size(); ++i) {
            const std::string& label = tokensBefore[i];
            const bool moved = i >= tokensNow.size() || tokensNow[i] != label;
            if (moved && (namesTokenByHand(sentence.words, label) ||
                          namesTokenBare(sentence.words, label))) {
                return Suspect{{},
                               inQuotes(label),
                               "token " + std::to_string(i + 1) + ": " +
                                   (i < tokensNow.size() ? tokensNow[i] : std::string("none")),
                               Suspect::Kind::Setting,
                               {},
                               {}};
            }
        }
        return std::nullopt;
    }

    const LessonResults& results_;
    LessonSentences sentences_;
    std::vector<std::vector<std::string>> shownBefore_; // each sentence's values, as shown
    std::map<size_t, std::vector<std::string>> paragraphCells_;
    std::map<size_t, std::vector<size_t>> paragraphSentences_;
    std::vector<std::vector<Suspect>> suspects_;
    // Per sentence: the settings ("cell.key") under which one of its own claims failed.
    std::vector<std::set<std::string>> claimFailedUnder_;
    // Per sentence: what its claims that failed under some what-if read (pathRoot).
    std::vector<std::set<std::string>> failedClaimReads_;
};

} // namespace

namespace {

// The lesson's results with one cell replaced, in place: a cell is swapped in and back out,
// and each quiz's answer is resolved again, since an answer may bind the cell. Copying every
// other cell's JSON for each what-if made the sweep quadratic in the lesson's cells.
class ResultsWithOneCell {
  public:
    ResultsWithOneCell(const Lesson& lesson, const LessonResults& results) : scratch_(results) {
        for (size_t i = 0; i < scratch_.cells.size(); ++i) {
            at_[scratch_.cells[i].id] = i;
        }
        for (const LessonCell& cell : lesson.cells) {
            const auto at = at_.find(cell.id);
            if (cell.quiz() && at != at_.end()) {
                quizzes_.emplace_back(&cell, at->second);
            }
        }
    }

    void visit(ComputedCell cell, const std::function<void(const LessonResults&)>& visitor) {
        const auto found = at_.find(cell.id);
        if (found == at_.end()) {
            return;
        }
        std::swap(scratch_.cells[found->second], cell);
        const size_t diagnostics = scratch_.diagnostics.size();
        std::vector<std::pair<size_t, Json>> answers; // each quiz's answer before
        for (const auto& [quizCell, index] : quizzes_) {
            Json answer =
                quizJson(quizCell->id, resolveQuizAnswer(*quizCell, *quizCell->quiz(), scratch_));
            std::swap(scratch_.cells[index].json, answer);
            answers.emplace_back(index, std::move(answer));
        }
        visitor(scratch_);
        for (auto& [index, answer] : answers) {
            scratch_.cells[index].json = std::move(answer);
        }
        scratch_.diagnostics.resize(diagnostics);
        std::swap(scratch_.cells[found->second], cell);
    }

  private:
    LessonResults scratch_;
    std::map<std::string, size_t> at_;                          // each cell's place in scratch_
    std::vector<std::pair<const LessonCell*, size_t>> quizzes_; // each quiz and its place
};

// The cell re-read after a what-if, computed alone (with the cell whose model it names, as it
// was): nullopt when it does not compute, as the window refuses it.
std::optional<ComputedCell> recomputed(const Lesson& lesson, const LessonResults& results,
                                       LessonCell cell, AttentionEngine& engine) {
    Lesson alone;
    alone.files = lesson.files;
    if (const TransformerCellSpec* spec = cell.transformer(); spec && spec->sharedModel) {
        if (const LessonCell* model = lesson.cell(spec->sharedModel->cell)) {
            alone.cells.push_back(*model);
        }
    }
    const std::string id = cell.id;
    alone.cells.push_back(std::move(cell));
    // The other cell is the lesson's, as it was.
    ComputePolicy onlyThisCell;
    onlyThisCell.reuse = [&](const LessonCell& other) {
        return other.id == id ? nullptr : results.cell(other.id);
    };
    LessonResults now = computeLesson(alone, engine, onlyThisCell);
    for (ComputedCell& c : now.cells) {
        if (c.id == id && c.ok) {
            return std::move(c);
        }
    }
    return std::nullopt;
}

// A transformer cell under one of the window's views, computed as the window computes it.
std::optional<ComputedCell> viewedCell(const LessonCell& cell, const ComputedCell& computed,
                                       const ReaderViewWhatIf& view,
                                       const AttentionEngine& attention) {
    // A cell that trains switches the view of its trained weights, as the window does.
    TransformerCellSpec shown = *cell.transformer();
    if (computed.transformer && computed.transformer->training) {
        shown.config = computed.transformer->training->weights;
    }
    TransformerLiveCell live(std::move(shown));
    if (!view.apply(live).empty()) {
        return std::nullopt;
    }
    try {
        TransformerEngine engine(TransformerLimits{attention.limits()});
        TransformerConfig config = live.config();
        config.knockouts = cell.transformer()->knockoutsQuoted; // only what sentences read
        auto result = std::make_shared<TransformerResult>(engine.compute(config));
        ComputedCell out{cell.id, cell.kind, true,   transformerJson(cell.id, *result, nullptr),
                         nullptr, {},        nullptr};
        out.transformer = std::move(result);
        return out;
    } catch (const std::exception&) {
        return std::nullopt; // the window refuses what the cell cannot compute
    }
}

} // namespace

double sweepWork(const LessonCell& cell, size_t whatIfs, size_t cellBytes, size_t lessonBytes) {
    // Besides computing the cell, a what-if edits the cell's YAML and reads it again (two
    // parses: about 2,500 of the engine's multiply-adds a byte, so a vocab of 50,000 words
    // costs a second a what-if) and has every sentence read under it (one a byte of the
    // lesson); about 3e4 more whatever the sizes. Measured by attnbook-cost-bench.
    constexpr double kPerWhatIf = 3e4;
    constexpr double kPerCellByte = 2500;
    constexpr double kPerLessonByte = 1;
    const double overhead =
        kPerWhatIf + kPerCellByte * double(cellBytes) + kPerLessonByte * double(lessonBytes);
    return double(whatIfs) * (cellCost(cell).multiplyAdds + overhead);
}

size_t
forEachReaderWhatIf(const Lesson& lesson, const LessonResults& results, AttentionEngine& engine,
                    const std::function<void(const SweepWhatIf&, const LessonResults&)>& visit,
                    std::vector<Diagnostic>* skipped) {
    size_t ran = 0;
    const CellRereader rereader(lesson);
    ResultsWithOneCell withCell(lesson, results);
    double spent = 0; // by the cells swept so far
    const size_t lessonBytes = lesson.document.serialize().size();
    std::map<std::string, size_t> bodyBytes; // each cell's YAML, by id
    for (const CellBlock* block : lesson.document.cells()) {
        bodyBytes[block->id] = block->body.size();
    }
    for (const LessonCell& cell : lesson.cells) {
        const ComputedCell* computed = results.cell(cell.id);
        if (!computed || !computed->ok) {
            continue; // its own error says what is wrong
        }
        const std::vector<ReaderWhatIf> whatIfs = readerWhatIfs(cell);
        const std::vector<ReaderViewWhatIf> views = readerViewWhatIfs(cell);
        const double work =
            sweepWork(cell, whatIfs.size() + views.size(), bodyBytes[cell.id], lessonBytes);
        if (spent + work > costLimits().maxMultiplyAdds) {
            if (skipped) {
                CellCost cost;
                cost.multiplyAdds = spent + work;
                skipped->push_back(
                    {Severity::Warning, cell.openLine, 1,
                     "the what-if sweep skips cell '" + cell.id + "': its " +
                         std::to_string(whatIfs.size() + views.size()) + " what-ifs would take " +
                         (spent > 0 ? "the sweep to " : "") + costProblem(cost, costLimits()) +
                         ", so the sentences are not checked against them",
                     cell.id});
            }
            continue;
        }
        spent += work;
        for (const ReaderWhatIf& whatIf : whatIfs) {
            Document document = lesson.document;
            bool applied = true;
            for (const auto& [key, yaml] : whatIf.keys) {
                applied = applied && !setCellKey(document, cell.id, key, yaml);
            }
            std::vector<Diagnostic> problems;
            std::optional<LessonCell> changed =
                applied ? rereader.reread(document, cell.id, problems) : std::nullopt;
            if (!changed) {
                continue;
            }
            // The sentences read only the knock-outs they quote: those a view alone asks for
            // (L·h + 3L passes per what-if) are not computed here.
            if (auto* spec = std::get_if<TransformerCellSpec>(&changed->readToChange().spec)) {
                spec->config.knockouts = spec->knockoutsQuoted;
            }
            std::optional<ComputedCell> after =
                recomputed(lesson, results, std::move(*changed), engine);
            if (!after) {
                continue; // the window refuses what the cell cannot compute
            }
            ++ran;
            const auto& [key, yaml] = whatIf.keys.front();
            const SweepWhatIf named{cell.id, key,
                                    shortened(whatIf.setText(0)) + " (" + whatIf.label + ")",
                                    key + ": " + shortened(yaml)};
            withCell.visit(std::move(*after), [&](const LessonResults& now) { visit(named, now); });
        }
        for (const ReaderViewWhatIf& view : views) {
            if (std::optional<ComputedCell> viewed = viewedCell(cell, *computed, view, engine)) {
                ++ran;
                // A view's key is its control; "mask " keeps a transformer's mask view apart
                // from an attention cell's `mask` key (the same words name both).
                const SweepWhatIf named{cell.id, view.control == "mask" ? "mask " : view.control,
                                        view.setText() + " (" + view.label + ")", view.label};
                withCell.visit(std::move(*viewed),
                               [&](const LessonResults& now) { visit(named, now); });
            }
        }
    }
    return ran;
}

SweepReport sweepReaderWhatIfs(const Lesson& lesson, const LessonResults& results,
                               AttentionEngine& engine) {
    SweepReport report;
    Sweep sweep(lesson, results);
    std::vector<Diagnostic> skipped;
    report.whatIfs = forEachReaderWhatIf(
        lesson, results, engine,
        [&](const SweepWhatIf& whatIf, const LessonResults& now) { sweep.tryWhatIf(whatIf, now); },
        &skipped);
    report.warnings = sweep.warnings();
    report.warnings.insert(report.warnings.end(), skipped.begin(), skipped.end());
    return report;
}

} // namespace attnbook

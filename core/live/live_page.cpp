#include "core/live/live_page.h"

#include "core/document/cell_reread.h"
#include "core/document/result_json.h"
#include "core/live/live_quiz.h"
#include "core/live/reader_what_ifs.h"
#include "core/live/what_if.h"
#include "core/math/attention_engine.h"
#include "core/present/gradient_view_html.h"
#include "core/present/live_marks.h"
#include "core/present/transformer_summary.h"
#include "core/present/transformer_view_html.h"
#include "core/present/view_html.h"

#include "core/document/expression.h"

#include <algorithm>
#include <optional>

namespace attnbook {

namespace {

struct ParsedWhatIf {
    std::string words;
    SetOption set;
};

// The what-ifs a reader may make, in order; the others go to `refused`.
std::vector<ParsedWhatIf> readersWhatIfs(const Lesson& lesson,
                                         const std::vector<std::string>& setWords,
                                         std::vector<RefusedWhatIf>& refused) {
    std::vector<ParsedWhatIf> out;
    for (const std::string& words : setWords) {
        std::string error;
        const std::optional<SetOption> set = parseSetOption(words, error);
        if (!set) {
            refused.push_back({words, error});
            continue;
        }
        const LessonCell* cell = lesson.cell(set->cellId);
        if (!cell) {
            refused.push_back({words, "this lesson has no cell '" + set->cellId + "'"});
        } else if (!readerMayChange(*cell, set->key)) {
            refused.push_back(
                {words, "cell " + set->cellId + " does not let a reader change " + set->key});
        } else {
            out.push_back({words, *set});
        }
    }
    return out;
}

// The what-if of every set the lesson accepts: a set whose own error the lesson reports
// ("--set ID.KEY: error: ...") is refused with it and the rest tried again.
WhatIf applyAccepted(const Lesson& lesson, const LessonResults& lessonResults,
                     std::vector<ParsedWhatIf>& sets, std::vector<RefusedWhatIf>& refused,
                     AttentionEngine& engine, const ComputePolicy& policy,
                     const CellRereader* rereader) {
    for (;;) {
        std::vector<SetOption> options;
        for (const ParsedWhatIf& s : sets) {
            options.push_back(s.set);
        }
        WhatIf whatIf = applyWhatIf(lesson, options, engine, &lessonResults, policy, rereader);
        if (whatIf.errors.empty() || sets.empty()) {
            return whatIf;
        }
        const std::string& first = whatIf.errors.front();
        auto culprit = std::find_if(sets.begin(), sets.end(), [&](const ParsedWhatIf& s) {
            return first.starts_with(s.set.label() + ":");
        });
        if (culprit == sets.end()) {
            culprit = sets.end() - 1; // not attributed: the last one goes, as a reader undoes
        }
        const std::string prefix = culprit->set.label() + ": error: ";
        refused.push_back(
            {culprit->words, first.starts_with(prefix) ? first.substr(prefix.size()) : first});
        sets.erase(culprit);
    }
}

// Why the binding waits for the second answer (LiveChecks::Later): it reads the gradient check
// (ID.gradcheck…) or the knock-outs (ID.knockout…) of one of `cells`; "" when it does not.
std::string whyItWaits(const Binding& binding, const std::vector<std::string>& cells) {
    for (const BindingPath& p : binding.paths) {
        const auto* key = p.steps.empty() ? nullptr : std::get_if<std::string>(&p.steps.front());
        if (!key || std::find(cells.begin(), cells.end(), p.cellId) == cells.end()) {
            continue;
        }
        if (*key == "gradcheck") {
            return "the gradient check is running";
        }
        if (*key == "knockout") {
            return "the knock-outs are being computed";
        }
    }
    return {};
}

bool readsAny(const Binding& binding, const std::vector<std::string>& cells) {
    return std::any_of(binding.paths.begin(), binding.paths.end(), [&](const BindingPath& p) {
        return std::find(cells.begin(), cells.end(), p.cellId) != cells.end();
    });
}

// The views of an edited cell that follow the what-if: an attention cell's summary, tables,
// heatmap, shares, worked arithmetic, trace and gradients, a transformer cell's summary,
// settings, chances, stream, FFN, generation, cache, blocks, knock-outs, gradients and training
// curve: every view a cell has on the page (a chart follows no what-if).
std::optional<LiveCellViews> liveViews(const LessonCell& cell, const LessonResults& results) {
    const ComputedCell* computed = results.cell(cell.id);
    if (!computed || !computed->ok) {
        return std::nullopt;
    }
    const auto shows = [](const std::vector<std::string>& views, const char* view) {
        return std::find(views.begin(), views.end(), view) != views.end();
    };
    const AttentionCellSpec* attention = cell.attention();
    if (attention && computed->attention) {
        LiveCellViews out{cell.id, attentionSummaryText(*attention, *computed->attention)};
        const AttentionResult& result = *computed->attention;
        if (shows(attention->views, "matrices")) {
            out.views["matrices"] = attentionMatricesHtml(*attention, result);
        }
        if (shows(attention->views, "heatmap")) {
            out.views["heatmap"] = heatmapHtml(result);
        }
        const int focus = attention->config.focus;
        if (shows(attention->views, "shares")) {
            out.views["shares"] = sharesHtml(result, focus);
        }
        if (shows(attention->views, "arithmetic")) {
            out.views["arithmetic"] = arithmeticHtml(result, focus);
        }
        if (shows(attention->views, "trace")) {
            out.views["trace"] = traceHtml(result, focus);
        }
        if (shows(attention->views, "gradients")) {
            out.views["gradients"] = attentionGradientsHtml(*attention, result);
        }
        return out;
    }
    const TransformerCellSpec* transformer = cell.transformer();
    if (transformer && computed->transformer) {
        LiveCellViews out{cell.id, transformerSummaryText(*transformer, *computed->transformer)};
        const TransformerResult& result = *computed->transformer;
        const std::vector<std::string>& views = transformer->views;
        out.views["settings"] = transformerSettingsHtml(cell, *transformer, result);
        if (shows(views, "next")) {
            out.views["next"] = nextWordsHtml(nextWordsView(*transformer, result));
        }
        // Each layer's attention views, one figure for them all (as the export writes them).
        if (std::string html = transformerAttentionHtml(*transformer, result); !html.empty()) {
            out.views["attention"] = std::move(html);
        }
        if (shows(views, "stream")) {
            out.views["stream"] = streamHtml(result);
        }
        if (shows(views, "ffn")) {
            out.views["ffn"] = ffnHtml(*transformer, result);
        }
        if (shows(views, "generation")) {
            out.views["generation"] = generationHtml(*transformer, result);
        }
        if (shows(views, "cache")) {
            out.views["cache"] = cacheHtml(*transformer, result, shows(views, "generation"));
        }
        // Blocks and knock-outs may have nothing to show (no layer ran, no knock-outs asked
        // for): the page then has no such figure either.
        if (shows(views, "blocks")) {
            if (std::string html = blocksHtml(*transformer, result); !html.empty()) {
                out.views["blocks"] = std::move(html);
            }
        }
        if (shows(views, "gradients")) {
            out.views["gradients"] = transformerGradientsHtml(*transformer, result);
        }
        if (shows(views, "training")) {
            if (std::string html = trainingHtml(*transformer, result); !html.empty()) {
                out.views["training"] = std::move(html);
            }
        }
        if (shows(views, "knockout")) {
            if (std::string html = knockoutHtml(result); !html.empty()) {
                out.views["knockout"] = std::move(html);
            } else if (transformer->config.knockouts && !result.knockouts.computed) {
                // Only the first answer skips them (ComputePolicy::knockouts); livePage keeps
                // the second answer complete whatever this says.
                out.pending.emplace_back("knockout"); // left for the second answer
            }
        }
        return out;
    }
    return std::nullopt;
}

// The words of `words` that set a key of cell `cellId`, in order.
std::vector<std::string> wordsOfCell(const std::vector<std::string>& words,
                                     const std::string& cellId) {
    std::vector<std::string> own;
    for (const std::string& w : words) {
        std::string error;
        const std::optional<SetOption> option = parseSetOption(w, error);
        if (option && option->cellId == cellId) {
            own.push_back(w);
        }
    }
    return own;
}

// Whether `cell` takes its model (`model: ID`) from one of `cells`.
bool takesModelOfAny(const LessonCell& cell, const std::vector<std::string>& cells) {
    const TransformerCellSpec* spec = cell.transformer();
    return spec && spec->sharedModel &&
           std::find(cells.begin(), cells.end(), spec->sharedModel->cell) != cells.end();
}

// Takes out of `views` each view whose HTML is the lesson's own, naming it in `asLesson`.
void leaveTheLessons(LiveCellViews& views, const LiveCellViews* lessons) {
    if (!lessons) {
        return;
    }
    for (auto view = views.views.begin(); view != views.views.end();) {
        const auto own = lessons->views.find(view->first);
        if (own != lessons->views.end() && own->second == view->second) {
            views.asLesson.push_back(view->first);
            view = views.views.erase(view);
        } else {
            ++view;
        }
    }
}

} // namespace

LivePage livePage(const Lesson& lesson, const LessonResults& lessonResults,
                  const std::vector<std::string>& setWords, AttentionEngine& engine,
                  const ComputePolicy& policy, LiveChecks checks, const LivePageKept& kept) {
    LivePage page;
    std::vector<ParsedWhatIf> sets = readersWhatIfs(lesson, setWords, page.refused);
    ComputePolicy computing = policy;
    if (checks == LiveChecks::Later) {
        computing.gradientCheck = [](const LessonCell&) { return false; };
        computing.knockouts = [](const LessonCell&) { return false; };
    }
    // No what-if to apply: the lesson as it is, read and computed already.
    WhatIf whatIf = sets.empty() ? WhatIf{}
                                 : applyAccepted(lesson, lessonResults, sets, page.refused, engine,
                                                 computing, kept.rereader);
    for (const ParsedWhatIf& s : sets) {
        page.applied.push_back(s.words);
        if (std::find(page.editedCells.begin(), page.editedCells.end(), s.set.cellId) ==
            page.editedCells.end()) {
            page.editedCells.push_back(s.set.cellId);
        }
    }
    const LessonResults& results = sets.empty() ? lessonResults : whatIf.results;
    // Every cell the what-ifs computed again (an edited one, or one taking an edited cell's
    // model): the ones left alone share the lesson's result.
    std::vector<std::string> computedAgain;
    for (const ComputedCell& computed : results.cells) {
        const ComputedCell* before = lessonResults.cell(computed.id);
        const bool again = !sets.empty() && (!before || before->attention != computed.attention ||
                                             before->transformer != computed.transformer);
        const LessonCell* cell = whatIf.lesson.cell(computed.id);
        if (again) {
            computedAgain.push_back(computed.id);
        }
        if (again && cell) {
            if (std::optional<LiveCellViews> views = liveViews(*cell, results)) {
                const LessonCell* authored = lesson.cell(computed.id);
                if (kept.lessonViews && authored) {
                    leaveTheLessons(*views, kept.lessonViews(*authored));
                }
                if (checks == LiveChecks::Now) {
                    views->pending.clear(); // the second answer leaves nothing for a third
                }
                page.cells.push_back(std::move(*views));
            }
        }
    }
    for (const std::string& id : page.editedCells) {
        const LessonCell* cell = whatIf.lesson.cell(id);
        if (cell && !takesModelOfAny(*cell, page.editedCells)) {
            if (ReaderControls controls = readerControls(*cell); !controls.controls.empty()) {
                page.controls.push_back(std::move(controls));
                if (kept.cellsRead) {
                    kept.cellsRead->push_back(*cell);
                }
            }
        }
    }
    std::optional<NumberedProse> readNow;
    if (!kept.prose) {
        readNow = numberedProsePieces(lesson);
    }
    const NumberedProse& prose = kept.prose ? *kept.prose : *readNow;
    // A value or claim of cells the what-ifs left alone is the lesson's own.
    const LivePage* own = kept.lessonsOwn;
    const auto lessonsOwn = [&](const Binding& binding) {
        return own && own->values.size() == prose.values.size() &&
               own->falseClaims.size() == prose.claims.size() && !readsAny(binding, computedAgain);
    };
    // Later: what reads a check or the knock-outs of a cell computed again without them waits.
    const auto waits = [&](const Binding& binding) {
        return checks == LiveChecks::Later ? whyItWaits(binding, computedAgain) : std::string();
    };
    for (const NumberedBinding& numbered : prose.values) {
        const Binding& binding = *numbered.binding;
        if (std::string why = waits(binding); !why.empty()) {
            page.pendingValues.push_back(int(page.values.size()));
            page.values.emplace_back("…");
            page.valueNotes.push_back(std::move(why));
            continue;
        }
        if (lessonsOwn(binding)) {
            page.values.push_back(own->values[page.values.size()]);
            page.valueNotes.push_back(own->valueNotes[page.valueNotes.size()]);
            continue;
        }
        const BindingValue value = results.value(binding);
        if (value.value) {
            page.values.push_back(formatBoundValue(*value.value, binding.digits));
            page.valueNotes.emplace_back();
        } else {
            // A what-if took it away (a token past the new ones): a dash, and why.
            page.values.emplace_back("—");
            page.valueNotes.push_back(binding.expression + ": " + value.error);
        }
    }
    for (const NumberedBinding& numbered : prose.claims) {
        const Binding& claim = *numbered.binding;
        if (!waits(claim).empty()) {
            page.pendingClaims.push_back(int(page.falseClaims.size()));
            page.falseClaims.emplace_back();
            continue;
        }
        if (lessonsOwn(claim)) {
            page.falseClaims.push_back(own->falseClaims[page.falseClaims.size()]);
            continue;
        }
        const ClaimVerdict verdict = evaluateClaim(claim, results.lookup());
        if (verdict.holds) {
            page.falseClaims.emplace_back();
        } else if (!verdict.error.empty() && !readsAny(claim, page.editedCells)) {
            page.falseClaims.emplace_back(); // the lesson's own, listed with its problems
        } else {
            page.falseClaims.push_back(claim.expression + ": " +
                                       (verdict.error.empty() ? verdict.sides : verdict.error));
        }
    }
    if (!sets.empty()) {
        page.results = std::make_shared<const LessonResults>(std::move(whatIf.results));
    }
    return page;
}

const LiveCellViews* LivePageSession::lessonViewsOf(const LessonCell& cell) {
    auto [at, isNew] = lessonViews_.try_emplace(cell.id);
    if (isNew) {
        at->second = liveViews(cell, results_);
    }
    return at->second ? &*at->second : nullptr;
}

bool LivePage::complete() const {
    return pendingValues.empty() && pendingClaims.empty() &&
           std::all_of(cells.begin(), cells.end(),
                       [](const LiveCellViews& cell) { return cell.pending.empty(); });
}

LivePageSession::LivePageSession(Lesson lesson)
    : lesson_(std::move(lesson)), prose_(numberedProsePieces(lesson_)),
      engine_(std::make_unique<AttentionEngine>()) {
    // The paths the prose quotes, cell by cell: all the page reads of a cell's JSON.
    for (const std::vector<ProsePiece>& block : prose_.pieces) {
        for (const ProsePiece& piece : block) {
            if (piece.kind != ProsePiece::Kind::Binding) {
                continue;
            }
            for (const BindingPath& path : piece.binding.paths) {
                std::shared_ptr<JsonSelection>& paths = quoted_[path.cellId];
                if (!paths) {
                    paths = std::make_shared<JsonSelection>();
                }
                paths->add(path);
            }
        }
    }
    for (const BindingPath& path : quizAnswerPaths(lesson_)) { // the quizzes' answers too
        std::shared_ptr<JsonSelection>& paths = quoted_[path.cellId];
        if (!paths) {
            paths = std::make_shared<JsonSelection>();
        }
        paths->add(path);
    }
    results_ = computeLesson(lesson_, *engine_, quotedJsonOnly());
    rereader_ = std::make_unique<CellRereader>(lesson_);
    lessonsOwn_ = livePage(lesson_, results_, {}, *engine_, quotedJsonOnly(), LiveChecks::Now,
                           {rereader_.get(), &prose_, nullptr});
}

LivePageSession::~LivePageSession() = default;

ComputePolicy LivePageSession::quotedJsonOnly() const {
    const auto request = [this](const std::string& id) -> JsonRequest {
        const auto found = quoted_.find(id);
        return found == quoted_.end() ? JsonRequest{false} : JsonRequest{true, found->second.get()};
    };
    ComputePolicy policy;
    policy.json = [request](const LessonCell& cell, const AttentionResult&) {
        return request(cell.id);
    };
    policy.transformerJson = [request](const LessonCell& cell) { return request(cell.id); };
    // The gradient check is most of a small cell's time, and the page shows it only where
    // the prose quotes it.
    policy.gradientCheck = [this](const LessonCell& cell) {
        const auto found = quoted_.find(cell.id);
        return found != quoted_.end() &&
               (found->second->whole() || found->second->key("gradcheck") != nullptr);
    };
    return policy;
}

std::optional<LessonCell> LivePageSession::cellUnderWhatIfs(const std::vector<std::string>& words,
                                                            const std::string& cellId) const {
    const auto read = lastCellsRead_.find(cellId);
    if (read != lastCellsRead_.end() && read->second.words == wordsOfCell(words, cellId)) {
        return read->second.cell;
    }
    return attnbook::cellUnderWhatIfs(lesson_, *rereader_, words, cellId);
}

const LivePage& LivePageSession::answer(const std::vector<std::string>& setWords,
                                        LiveChecks checks) {
    constexpr size_t kKept = 16;
    for (const Kept& kept : recent_) {
        // A complete answer serves both kinds of question.
        if (kept.words == setWords && (kept.checks == checks || kept.page.complete())) {
            last_ = &kept.page;
            return kept.page;
        }
    }
    if (recent_.size() == kKept) {
        recent_.erase(recent_.begin());
    }
    std::vector<LessonCell> cellsRead;
    recent_.push_back(
        {setWords, checks,
         livePage(lesson_, results_, setWords, *engine_, quotedJsonOnly(), checks,
                  {rereader_.get(), &prose_, &lessonsOwn_,
                   [this](const LessonCell& cell) { return lessonViewsOf(cell); }, &cellsRead})});
    const LivePage& page = recent_.back().page;
    lastCellsRead_.clear();
    for (LessonCell& cell : cellsRead) {
        std::vector<std::string> own = wordsOfCell(page.applied, cell.id);
        const std::string id = cell.id;
        lastCellsRead_.insert_or_assign(id, CellRead{std::move(own), std::move(cell)});
    }
    last_ = &recent_.back().page;
    return *last_;
}

Json livePageJson(const LivePage& page) {
    const auto strings = [](const std::vector<std::string>& list) {
        Json::Array out;
        for (const std::string& s : list) {
            out.push_back(Json(s));
        }
        return Json(std::move(out));
    };
    Json::Array refused;
    for (const RefusedWhatIf& r : page.refused) {
        Json entry = Json::object();
        entry.set("words", r.words);
        entry.set("why", r.why);
        refused.push_back(std::move(entry));
    }
    Json out = Json::object();
    out.set("applied", strings(page.applied));
    out.set("refused", Json(std::move(refused)));
    out.set("edited", strings(page.editedCells));
    out.set("values", strings(page.values));
    out.set("valueNotes", strings(page.valueNotes));
    out.set("falseClaims", strings(page.falseClaims));
    Json cells = Json::object();
    for (const LiveCellViews& cell : page.cells) {
        Json views = Json::object();
        for (const auto& [name, html] : cell.views) {
            views.set(name, html);
        }
        Json entry = Json::object();
        entry.set("summary", cell.summary);
        entry.set("views", std::move(views));
        entry.set("pending", strings(cell.pending));
        entry.set("asLesson", strings(cell.asLesson));
        cells.set(cell.cellId, std::move(entry));
    }
    out.set("cells", std::move(cells));
    out.set("complete", page.complete());
    const auto numbers = [](const std::vector<int>& list) {
        Json::Array out;
        for (const int i : list) {
            out.push_back(Json(i));
        }
        return Json(std::move(out));
    };
    Json controls = Json::object();
    for (const ReaderControls& cell : page.controls) {
        controls.set(cell.cellId, readerControlsJson(cell));
    }
    out.set("controls", std::move(controls));
    out.set("pendingValues", numbers(page.pendingValues));
    out.set("pendingClaims", numbers(page.pendingClaims));
    return out;
}

} // namespace attnbook

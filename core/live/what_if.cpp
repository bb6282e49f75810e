#include "core/live/what_if.h"

#include "core/document/cell_editor.h"
#include "core/document/cell_reread.h"
#include "core/document/shared_model.h"
#include "core/live/reader_view_words.h"
#include "core/live/reader_what_ifs.h"

#include <algorithm>
#include <set>

namespace attnbook {

std::optional<SetOption> parseSetOption(const std::string& text, std::string& error) {
    const size_t equals = text.find('=');
    const size_t dot = text.find('.');
    if (equals == std::string::npos || dot == std::string::npos || dot > equals || dot == 0 ||
        dot + 1 == equals) {
        error = "--set takes ID.KEY=YAML, like --set colour.heads=2 (got '" + text + "')";
        return std::nullopt;
    }
    return SetOption{text.substr(0, dot), text.substr(dot + 1, equals - dot - 1),
                     text.substr(equals + 1)};
}

namespace {

// Whether `cell` of the what-if may be taken as the lesson computed it: its text is the
// lesson's, and it names no cell whose model a set changed (a cell that takes another's model,
// `model: ID`, is computed again; a name that only looks like one costs a recompute, no
// more). A set of a key that is no part of a model (a prompt, a temperature) stays with its
// cell (shared_model.h).
bool unchangedBy(const CellBlock& cell, const Document& lessonDocument,
                 const std::vector<SetOption>& sets) {
    const CellBlock* before = lessonDocument.findCell(cell.id);
    if (!before || before->body != cell.body || before->openFence != cell.openFence) {
        return false;
    }
    if (std::any_of(sets.begin(), sets.end(), [&](const SetOption& s) {
            return s.cellId == cell.id && isReaderViewKey(s.key);
        })) {
        return false; // a reader's view changes what the cell computes, not its text
    }
    const std::vector<std::string>& modelKeys = sharedModelKeys();
    return std::none_of(sets.begin(), sets.end(), [&](const SetOption& s) {
        return std::find(modelKeys.begin(), modelKeys.end(), s.key) != modelKeys.end() &&
               cell.body.find(s.cellId) != std::string::npos;
    });
}

// The lesson with `edited` as its document and only the set cells read again: the text of every
// other cell is the lesson's, and so is what it read. nullopt when a set names no cell.
std::optional<Lesson> withSetCellsReread(const Lesson& lesson, Document edited,
                                         const std::vector<SetOption>& sets,
                                         const CellRereader& rereader) {
    std::set<std::string> ids; // a cell only a reader's view changes keeps its text, and read
    for (const SetOption& set : sets) {
        if (!isReaderViewKey(set.key)) {
            ids.insert(set.cellId);
        }
    }
    Lesson out;
    out.document = std::move(edited);
    out.files = lesson.files;
    out.cells = lesson.cells;
    for (const Diagnostic& d : lesson.diagnostics) {
        if (!ids.count(d.cellId)) {
            out.diagnostics.push_back(d);
        }
    }
    for (const std::string& id : ids) {
        std::vector<KeySet> keys; // what setCellKey wrote in the cell, in order
        for (const SetOption& set : sets) {
            if (set.cellId == id && !isReaderViewKey(set.key)) {
                keys.push_back({set.key, set.value});
            }
        }
        std::optional<LessonCell> cell = rereader.reread(out.document, id, out.diagnostics, keys);
        const auto at = std::find_if(out.cells.begin(), out.cells.end(),
                                     [&](const LessonCell& c) { return c.id == id; });
        if (!cell || at == out.cells.end()) {
            return std::nullopt;
        }
        *at = std::move(*cell);
    }
    return out;
}

// Switches a reader's view (reader_view_words.h) in the cell `set` names, as `lesson` read it:
// the view was checked against the lesson's cell, and a set of the same cell's keys may have
// changed its layers since, so it is checked again (a refused view changes nothing: the
// cell's own error, if any, says why).
void applyViewTo(Lesson& lesson, const SetOption& set) {
    for (LessonCell& cell : lesson.cells) {
        auto* spec = cell.id == set.cellId && cell.transformer()
                         ? std::get_if<TransformerCellSpec>(&cell.readToChange().spec)
                         : nullptr;
        if (spec) {
            switchReaderView(*spec, set.key, set.value);
        }
    }
}

bool changesAModel(const std::vector<SetOption>& sets) {
    const std::vector<std::string>& modelKeys = sharedModelKeys();
    return std::any_of(sets.begin(), sets.end(), [&](const SetOption& s) {
        return std::find(modelKeys.begin(), modelKeys.end(), s.key) != modelKeys.end();
    });
}

} // namespace

WhatIf applyWhatIf(const Lesson& lesson, const std::vector<SetOption>& sets,
                   AttentionEngine& engine, const LessonResults* lessonResults,
                   ComputePolicy policy, const CellRereader* rereader) {
    WhatIf out;
    out.original = lesson.document;
    out.byReader = !sets.empty() && std::all_of(sets.begin(), sets.end(), [&](const SetOption& s) {
        const LessonCell* cell = lesson.cell(s.cellId);
        return cell && readerMayChange(*cell, s.key);
    });
    Document document = lesson.document;
    std::vector<SetOption> views; // reader views: applied to the cells once read
    for (const SetOption& set : sets) {
        const LessonCell* cell = lesson.cell(set.cellId);
        if (!cell) {
            out.errors.push_back(set.label() + ": error: there is no cell '" + set.cellId + "'");
            continue;
        }
        if (isReaderViewKey(set.key)) {
            std::string why = "only a transformer cell has reader views";
            if (!cell->transformer() ||
                !parseReaderView(*cell->transformer(), set.key, set.value, why)) {
                out.errors.push_back(set.label() + ": error: " + why);
            }
            views.push_back(set);
            continue;
        }
        if (auto error = setCellKey(document, set.cellId, set.key, set.value)) {
            out.errors.push_back(set.label() + ": error: " + *error);
        }
    }
    if (!out.errors.empty()) {
        out.lesson = lesson;
        return out;
    }
    const LessonResults computedBefore =
        lessonResults ? LessonResults{} : computeLesson(lesson, engine);
    const LessonResults& before = lessonResults ? *lessonResults : computedBefore;
    std::vector<Diagnostic> old = lesson.diagnostics;
    old.insert(old.end(), before.diagnostics.begin(), before.diagnostics.end());

    std::optional<Lesson> reread = rereader && !changesAModel(sets)
                                       ? withSetCellsReread(lesson, document, sets, *rereader)
                                       : std::nullopt;
    // The same data files as the lesson (its folder, or the bundle it was opened from).
    out.lesson = reread ? std::move(*reread)
                        : parseLesson(document.serialize(), lesson.document.path, lesson.files);
    for (const SetOption& set : views) {
        applyViewTo(out.lesson, set);
    }
    if (lessonResults) {
        policy.reuse = [&](const LessonCell& cell) -> const ComputedCell* {
            const CellBlock* block = out.lesson.document.findCell(cell.id);
            return block && unchangedBy(*block, lesson.document, sets) ? before.cell(cell.id)
                                                                       : nullptr;
        };
        // A cell whose sets are all of its prompt trains as the lesson's did, while no set
        // changed a model another cell may take.
        policy.training = [&](const LessonCell& cell) -> std::shared_ptr<const TrainingResult> {
            const bool promptOnly =
                !changesAModel(sets) &&
                std::all_of(sets.begin(), sets.end(), [&](const SetOption& s) {
                    return s.cellId != cell.id || isPromptKey(s.key) || isReaderViewKey(s.key);
                });
            const ComputedCell* computed = before.cell(cell.id);
            return promptOnly && computed && computed->transformer ? computed->transformer->training
                                                                   : nullptr;
        };
    }
    out.results = computeLesson(out.lesson, engine, policy);
    std::vector<Diagnostic> now = out.lesson.diagnostics;
    now.insert(now.end(), out.results.diagnostics.begin(), out.results.diagnostics.end());

    // A new error inside a set cell belongs to the set that touched it.
    // Lines before the set cells moved by the edits, so compare messages only.
    std::multiset<std::string> oldMessages;
    for (const Diagnostic& d : old) {
        if (d.severity == Severity::Error) {
            oldMessages.insert(d.cellId + "\n" + d.message);
        }
    }
    for (const Diagnostic& d : now) {
        if (d.severity != Severity::Error) {
            continue;
        }
        const auto found = oldMessages.find(d.cellId + "\n" + d.message);
        if (found != oldMessages.end()) {
            oldMessages.erase(found);
            continue;
        }
        const SetOption* owner = nullptr;
        for (const SetOption& set : sets) {
            if (set.cellId == d.cellId) {
                owner = &set;
                const LessonCell* cell = out.lesson.cell(set.cellId);
                const FilePosition at = cell ? cell->read().positions.of(set.key) : FilePosition{};
                if (at.line == d.line) {
                    break; // the error stands on this set's own line
                }
            }
        }
        if (owner) {
            out.errors.push_back(owner->label() + ": error: " + d.message);
        }
    }
    return out;
}

namespace {

int linesOf(const Segment& segment) {
    const auto count = [](const std::string& text) {
        return int(std::count(text.begin(), text.end(), '\n')) +
               (!text.empty() && text.back() != '\n' ? 1 : 0);
    };
    if (!segment.isCell()) {
        return count(segment.prose().text);
    }
    const CellBlock& cell = segment.cell();
    return count(cell.openFence) + count(cell.body) + count(cell.closeFence);
}

int firstLineOf(const Segment& segment) {
    return segment.isCell() ? segment.cell().openLine : segment.prose().firstLine;
}

} // namespace

int WhatIf::originalLine(int line) const {
    const std::vector<Segment>& now = lesson.document.segments;
    const std::vector<Segment>& before = original.segments;
    if (now.size() != before.size()) {
        return line;
    }
    for (size_t i = 0; i < now.size(); ++i) {
        const int first = firstLineOf(now[i]);
        if (line >= first && line < first + linesOf(now[i])) {
            const bool edited = now[i].isCell() && now[i].cell().body != before[i].cell().body;
            return edited ? firstLineOf(before[i]) : firstLineOf(before[i]) + (line - first);
        }
    }
    return line;
}

} // namespace attnbook

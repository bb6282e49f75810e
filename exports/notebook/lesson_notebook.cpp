#include "exports/notebook/lesson_notebook.h"

#include "exports/notebook/notebook_cells.h"
#include "exports/notebook/notebook_python.h"
#include "exports/notebook/notebook_transformer.h"
#include "exports/notebook/notebook_writer.h"

#include "core/present/presented_lesson.h"

#include <algorithm>
#include <set>

namespace attnbook {
namespace {

NotebookCell titleCell(const PresentedTitle& shown) {
    std::string text;
    // Without a front matter title the lesson's first heading is its title, and it is in the
    // prose already.
    if (!shown.title.empty()) {
        text.append("# ").append(markdownLiteral(shown.title)).append("\n\n");
    }
    if (!shown.subtitle.empty()) {
        text.append("*").append(markdownLiteral(shown.subtitle)).append("*\n\n");
    }
    std::string byline;
    for (const std::string& part : shown.byline) {
        byline += (byline.empty() ? "" : " · ") + markdownLiteral(part);
    }
    if (!byline.empty()) {
        text += byline + "\n\n";
    }
    text += "<sub>The Jupyter twin of an attnbook lesson. The numbers in the text were computed "
            "by attnbook " ATTNBOOK_VERSION "; each attention, transformer and chart cell below "
            "recomputes its own with NumPy. Run the cells from the top.</sub>\n";
    return {NotebookCell::Kind::Markdown, "title", text, false, {}};
}

// nbformat wants unique ids: a second "prose" becomes "prose-2".
void giveUniqueIds(std::vector<NotebookCell>& cells) {
    std::set<std::string> taken;
    for (NotebookCell& cell : cells) {
        const std::string base = notebookCellId(cell.id).substr(0, 56);
        std::string id = base;
        for (int k = 2; taken.count(id); ++k) {
            id = base + "-" + std::to_string(k);
        }
        taken.insert(id);
        cell.id = id;
    }
}

} // namespace

ExportResult renderLessonNotebook(const Lesson& lesson, const LessonResults& results,
                                  QByteArray* notebook, const ExportControl& control) {
    const Document& doc = lesson.document;
    const PresentedLesson shown = presentLesson(lesson, results);
    std::vector<NotebookCell> cells{titleCell(shown.title)};
    // The transformer's functions only when a transformer cell will call them.
    const bool transformers =
        std::any_of(results.cells.begin(), results.cells.end(),
                    [](const ComputedCell& c) { return bool(c.transformer); });
    cells.push_back({NotebookCell::Kind::Code,
                     "functions",
                     notebookFunctions() + (transformers ? transformerFunctions() : ""),
                     false,
                     {}});
    const std::map<std::string, NotebookModelSharing> sharing = notebookModelSharing(lesson);
    const int total = int(shown.parts.size());
    int done = 0;
    for (const PresentedPart& shownPart : shown.parts) {
        control.report(done++, total, QStringLiteral("the notebook"));
        if (control.cancelled()) {
            return ExportResult::cancelled();
        }
        std::vector<NotebookCell> part;
        if (!shownPart.isCell()) {
            // By lines, not as one block: code blocks become code cells (notebook_cells.h).
            part = proseNotebookCells(*shownPart.prose().source, doc, results);
        } else {
            const LessonCell& cell = *shownPart.cell().cell;
            const ComputedCell* computed = shownPart.cell().computed;
            if (const AttentionCellSpec* spec = cell.attention();
                spec && computed && computed->attention) {
                part = attentionNotebookCells(cell.id, *spec, *computed->attention);
            } else if (const TransformerCellSpec* transformer = cell.transformer();
                       transformer && computed && computed->transformer) {
                const auto shared = sharing.find(cell.id);
                part = transformerNotebookCells(cell.id, *transformer, *computed->transformer,
                                                shared == sharing.end() ? NotebookModelSharing{}
                                                                        : shared->second);
            } else if (const ChartCellSpec* chart = cell.chart(); chart && computed) {
                part = chartNotebookCells(cell.id, *chart);
            } else if (const QuizCellSpec* quiz = cell.quiz()) {
                part =
                    quizNotebookCells(cell.id, *quiz, shownPart.cell().question,
                                      computed ? computed->json.find("answer") : nullptr, results);
            }
        }
        cells.insert(cells.end(), part.begin(), part.end());
    }
    giveUniqueIds(cells);
    NotebookMetadata metadata;
    metadata.title = lesson.title();
    if (const std::string author = doc.frontMatterValue("author"); !author.empty()) {
        metadata.authors.push_back(author);
    }
    metadata.appVersion = ATTNBOOK_VERSION;
    *notebook = notebookBytes(metadata, cells);
    control.report(total, total, QStringLiteral("done"));
    return ExportResult::done();
}

} // namespace attnbook

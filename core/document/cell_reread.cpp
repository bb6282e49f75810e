#include "core/document/cell_reread.h"

namespace attnbook {

CellRereader::CellRereader(const Lesson& lesson) : lesson_(lesson) {
    ModelBodies models;
    std::vector<Diagnostic> ignored; // parseLesson reported them already
    for (const CellBlock* block : lesson.document.cells()) {
        if (block->kind != CellKind::Transformer) {
            continue;
        }
        readCell(*block, ignored, lesson.files.get(), &models);
        if (auto found = models.find(block->id); found != models.end()) {
            modelBodies_.emplace_back(block->id, found->second);
        }
    }
}

std::optional<LessonCell> CellRereader::reread(const Document& edited, const std::string& cellId,
                                               std::vector<Diagnostic>& diagnostics,
                                               const std::vector<KeySet>& sets) const {
    ModelBodies earlier; // the transformer cells above the edited one
    size_t nextModel = 0;
    for (const CellBlock* block : edited.cells()) {
        if (block->id != cellId) {
            if (nextModel < modelBodies_.size() && modelBodies_[nextModel].first == block->id) {
                earlier[block->id] = modelBodies_[nextModel++].second;
            }
            continue;
        }
        const LessonCell* before = lesson_.cell(cellId);
        if (!before) {
            return std::nullopt;
        }
        LessonCell cell;
        cell.id = before->id;
        cell.kind = before->kind;
        cell.openLine = before->openLine;
        const CellBlock* written = lesson_.document.findCell(cellId);
        std::optional<YamlNode> body =
            written && !sets.empty() ? parsedBodyAfterSets(*written, *block, sets) : std::nullopt;
        cell.setRead(body
                         ? readParsedCell(*block, *body, diagnostics, lesson_.files.get(), &earlier)
                         : readCell(*block, diagnostics, lesson_.files.get(), &earlier));
        // The lesson's text is unchanged outside this cell's body: it quotes the same
        // knock-outs (parseLesson's askForQuotedKnockouts).
        const TransformerCellSpec* read = before->transformer();
        if (auto* spec = std::get_if<TransformerCellSpec>(&cell.readToChange().spec);
            spec && read) {
            spec->knockoutsQuoted = read->knockoutsQuoted;
            spec->config.knockouts = spec->config.knockouts || read->knockoutsQuoted;
        }
        return cell;
    }
    return std::nullopt;
}

} // namespace attnbook

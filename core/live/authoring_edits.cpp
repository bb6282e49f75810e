#include "core/live/authoring_edits.h"

#include "core/document/cell_editor.h"
#include "core/document/cell_reader.h"
#include "core/document/cell_rename.h"
#include "core/document/document_edits.h"
#include "core/document/json.h"

#include <cctype>

namespace attnbook {
namespace {

bool endsWith(const std::string& text, const std::string& end) {
    return text.size() >= end.size() &&
           text.compare(text.size() - end.size(), end.size(), end) == 0;
}

AuthoringEdit refusal(std::string why) {
    AuthoringEdit edit;
    edit.refused = std::move(why);
    return edit;
}

size_t offsetOfLine(const std::string& text, int line) {
    size_t at = 0;
    for (int i = 0; i < line && at < text.size(); ++i) {
        const size_t end = text.find('\n', at);
        at = end == std::string::npos ? text.size() : end + 1;
    }
    return at;
}

// The id of the attention cell a new quiz binds to: the last one at or above segment `after`,
// else the first in the lesson; "" when there is none.
std::string nearestAttention(const Document& document, int after) {
    std::string nearest;
    for (int i = 0; i < int(document.segments.size()); ++i) {
        const Segment& s = document.segments[size_t(i)];
        if (s.isCell() && s.cell().kind == CellKind::Attention && (i <= after || nearest.empty())) {
            nearest = s.cell().id;
        }
    }
    return nearest;
}

// A new transformer cell below a transformer cell above `after` (the nearest) uses that cell's
// model with its prompt (docs/transformer.md, "A shared model"); "" without one, or when its
// YAML gives no prompt to copy.
std::string sharedModelBody(const Document& document, int after) {
    const CellBlock* nearest = nullptr;
    for (int i = 0; i <= after && i < int(document.segments.size()); ++i) {
        const Segment& s = document.segments[size_t(i)];
        if (s.isCell() && s.cell().kind == CellKind::Transformer) {
            nearest = &s.cell();
        }
    }
    if (!nearest) {
        return {};
    }
    YamlNode body;
    try {
        body = parseYaml(cellYamlText(*nearest), nearest->bodyFirstLine, nearest->indent);
    } catch (const YamlError&) {
        return {};
    }
    const YamlNode* tokens = body.isMap() ? body.find("tokens") : nullptr;
    if (!tokens || !tokens->isSequence() || tokens->items.empty()) {
        return {};
    }
    std::vector<std::string> words;
    for (const YamlNode& item : tokens->items) {
        if (!item.isScalar()) {
            return {};
        }
        words.push_back(item.scalar);
    }
    std::string out = "model: " + nearest->id + "\ntokens: " + yamlFlowStrings(words) + "\n";
    if (const YamlNode* positional = body.find("positional");
        positional && positional->isScalar()) {
        out += "positional: " + positional->scalar + "\n";
    }
    return out + "views: [stream, next]\n";
}

void collectPaths(const Json& json, const std::string& path,
                  const std::function<bool(const std::string&)>& wanted, int limit,
                  std::vector<std::string>& out) {
    if (int(out.size()) >= limit) {
        return;
    }
    if (json.isObject()) {
        for (const auto& [key, value] : json.object_()) {
            collectPaths(value, path + "." + key, wanted, limit, out);
        }
    } else if (json.isArray()) {
        const auto& items = json.array();
        for (size_t i = 0; i < items.size(); ++i) {
            collectPaths(items[i], path + "[" + std::to_string(i) + "]", wanted, limit, out);
        }
    } else if ((json.isNumber() || json.isString()) && wanted(path)) {
        out.push_back(path);
    }
}

} // namespace

AuthoringEdit AuthoringEdits::made(std::string name, const Document& edited,
                                   std::string showCellId) const {
    return {{}, std::move(name), working_.serialize(), edited.serialize(), std::move(showCellId)};
}

AuthoringEdit AuthoringEdits::setProse(int row, const RowPlace& place,
                                       const std::string& markdown) const {
    Document edited = working_;
    if (place.segment < 0 || place.segment >= int(edited.segments.size()) ||
        edited.segments[size_t(place.segment)].isCell()) {
        return refusal("There is no prose at row " + std::to_string(row) + ".");
    }
    const std::string& le = edited.lineEnding;
    const std::string text = edited.segments[size_t(place.segment)].prose().text;
    const size_t start = offsetOfLine(text, place.lineOffset);
    if (text.compare(start, place.text.size(), place.text) != 0) {
        return refusal("The prose changed under the editor; open it again.");
    }
    std::string replacement = withLineEnds(markdown, le);
    // textForEditing() took off the row's final line end: put it back.
    if (!replacement.empty() && endsWith(place.text, le)) {
        replacement += le;
    }
    const std::string whole =
        text.substr(0, start) + replacement + text.substr(start + place.text.size());
    if (const auto error = setProseText(edited, place.segment, whole)) {
        return refusal(*error);
    }
    return made("Edit prose", edited, {});
}

AuthoringEdit AuthoringEdits::setCellSource(const std::string& id, const std::string& body) const {
    Document edited = working_;
    if (!edited.findCell(id)) {
        return refusal("There is no cell " + id + ".");
    }
    edited.setCellBody(id, typedCellBody(body, edited.lineEnding));
    return made("Edit " + id, edited, id);
}

AuthoringEdit AuthoringEdits::insertBelow(int row, const RowPlace& place, const std::string& kind,
                                          const std::string& templateLesson) const {
    Document edited = working_;
    int after = -1;
    if (row >= 0) {
        if (place.segment < 0 || place.segment >= int(edited.segments.size())) {
            return refusal("There is no row " + std::to_string(row) + ".");
        }
        after = place.segment;
        if (!place.lastInSegment) {
            // Below a piece in the middle of a prose block: split the block there.
            ProseBlock& prose = std::get<ProseBlock>(edited.segments[size_t(after)].block);
            const size_t cut = offsetOfLine(prose.text, place.lineOffset) + place.text.size();
            ProseBlock rest{0, prose.text.substr(cut)};
            prose.text.resize(cut);
            edited.segments.insert(edited.segments.begin() + after + 1, Segment{rest});
        }
    }
    if (kind == "prose") {
        if (const auto error = insertProse(edited, after, "New paragraph.\n")) {
            return refusal(*error);
        }
        return made("Insert prose", edited, {});
    }
    if (kind != "quiz" && kind != "attention" && kind != "chart" && kind != "transformer") {
        return refusal("Cannot insert a " + kind + " cell.");
    }
    const CellKind cellKind = kind == "quiz"          ? CellKind::Quiz
                              : kind == "chart"       ? CellKind::Chart
                              : kind == "transformer" ? CellKind::Transformer
                                                      : CellKind::Attention;
    const std::string id = unusedCellId(edited, kind);
    const std::string shared = kind == "transformer" ? sharedModelBody(edited, after) : "";
    const std::string body =
        !shared.empty() ? shared
                        : newCellBody(templateLesson, kind, nearestAttention(edited, after));
    if (const auto error = insertCell(edited, after, cellKind, id, body)) {
        return refusal(*error);
    }
    return made("Insert " + id, edited, id);
}

AuthoringEdit AuthoringEdits::duplicate(const std::string& id) const {
    Document edited = working_;
    if (!edited.findCell(id)) {
        return refusal("There is no cell " + id + ".");
    }
    // "attention2" is duplicated as the first free "attentionN".
    std::string stem = id;
    while (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem.back()))) {
        stem.pop_back();
    }
    const std::string newId = unusedCellId(edited, stem.empty() ? "cell" : stem);
    if (const auto error = duplicateCell(edited, id, newId)) {
        return refusal(*error);
    }
    return made("Duplicate " + id, edited, newId);
}

AuthoringEdit AuthoringEdits::remove(const std::string& id) const {
    Document edited = working_;
    if (const auto error = deleteCell(edited, id)) {
        return refusal(*error);
    }
    return made("Delete " + id, edited, {});
}

AuthoringEdit AuthoringEdits::move(const std::string& id, int direction) const {
    Document edited = working_;
    if (const auto error = moveCell(edited, id, direction < 0 ? -1 : 1)) {
        return refusal(*error);
    }
    return made(direction < 0 ? "Move " + id + " up" : "Move " + id + " down", edited, id);
}

AuthoringEdit AuthoringEdits::rename(const std::string& id, const std::string& newId) const {
    Document edited = working_;
    if (const auto error = renameCell(edited, id, newId)) {
        return refusal(*error);
    }
    return made("Rename " + id + " to " + newId, edited, newId);
}

std::string newCellBody(const std::string& templateLesson, const std::string& kind,
                        const std::string& attentionId) {
    const Lesson lesson = parseLesson(templateLesson, "template.md", noDataFiles());
    for (const CellBlock* cell : lesson.document.cells()) {
        if (cellKindName(cell->kind) != kind) {
            continue;
        }
        std::string body = cell->body;
        if (kind != "quiz") {
            return body;
        }
        if (attentionId.empty()) {
            // Nothing to bind to: a number for the author to replace.
            const size_t at = body.find("answer:");
            const size_t end = body.find('\n', at);
            if (at != std::string::npos && end != std::string::npos) {
                body.replace(at, end - at, "answer: 0.5");
            }
            return body;
        }
        for (size_t at = 0; (at = body.find("{{example.", at)) != std::string::npos;) {
            body.replace(at + 2, 7, attentionId);
            at += 2 + attentionId.size();
        }
        return body;
    }
    if (kind == "transformer") { // nor a transformer: a one-layer model to read by hand
        return "tokens: [red, blue, red]\n"
               "vocab:\n"
               "  red: [1, 0, 0, 0]\n"
               "  blue: [0, 1, 0, 0]\n"
               "  green: [0, 0, 1, 0]\n"
               "  gold: [0, 0, 0, 1]\n"
               "positional: sinusoidal\n"
               "layers:\n"
               "  - attention: {heads: 2, mask: causal}\n"
               "    ffn: {W_1: [[1, 0, 0, 0], [0, 1, 0, 0]], W_2: [[1, 0], [0, 1], [0, 0], [0, "
               "0]]}\n"
               "targets: [blue, red, ~]\n"
               "generate: {steps: 3, pick: greedy}\n"
               "views: [stream, next, generation]\n";
    }
    if (kind == "chart") { // the template shows no chart: a first one to change
        return "title: Comparisons in one attention step\n"
               "x: {label: tokens n, var: n, from: 1, to: 1024, points: 50, scale: log}\n"
               "y: {label: comparisons, scale: log}\n"
               "series:\n"
               "  - {label: every token with every token, y: \"n^2\"}\n"
               "  - {label: one new token, y: \"n\"}\n";
    }
    return {};
}

std::vector<std::string> bindingPaths(const LessonResults& results,
                                      const std::function<bool(const std::string&)>& wanted,
                                      int limit) {
    std::vector<std::string> out;
    for (const ComputedCell& cell : results.cells) {
        collectPaths(cell.json, cell.id, wanted, limit, out);
    }
    return out;
}

} // namespace attnbook

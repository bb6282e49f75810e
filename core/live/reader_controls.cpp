#include "core/live/reader_controls.h"

#include "core/document/cell_editor.h"
#include "core/document/cell_reread.h"
#include "core/document/editable_attention.h"
#include "core/document/setting_words.h"
#include "core/live/reader_view_words.h"
#include "core/live/transformer_live_cell.h"
#include "core/live/what_if.h"

#include <algorithm>
#include <cmath>

namespace attnbook {
namespace {

bool has(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

// The matrices each control lets a reader edit, in this cell's mode (matrix_names.h).
std::vector<std::string> matricesOf(const std::string& control, bool direct) {
    if (control == "vectors") {
        return direct ? std::vector<std::string>{"queries", "keys", "values"}
                      : std::vector<std::string>{"X0"};
    }
    if (control == "projections" && !direct) {
        return {"W_Q", "W_K", "W_V", "W_O"};
    }
    return {};
}

// The attention controls the page offers, in the order the window lays them out.
std::vector<std::string> attentionControls(const AttentionCellSpec& spec, bool direct) {
    std::vector<std::string> out;
    for (const char* control :
         {"tokens", "vectors", "heads", "mask", "positional", "scale", "projections"}) {
        const std::string name = control;
        if (has(spec.controls, name) && !(direct && (name == "tokens" || name == "projections"))) {
            out.push_back(name);
        }
    }
    return out;
}

ReaderControls attentionReaderControls(const std::string& cellId, const AttentionCellSpec& spec,
                                       const EditableAttention& state) {
    const AttentionConfig& c = state.config;
    ReaderControls out;
    out.cellId = cellId;
    out.kind = "attention";
    out.controls = attentionControls(spec, c.direct);
    out.tokens = c.direct ? c.queryTokens : c.tokens;
    out.words = state.vocabOrder;
    out.heads = c.heads;
    out.allowedHeads = allowedHeads(state);
    out.mask = maskName(c.mask);
    out.positional = positionalName(c.positional);
    for (const PositionalKind kind :
         {PositionalKind::None, PositionalKind::Sinusoidal, PositionalKind::Learned}) {
        EditableAttention trial = state;
        if (kind == c.positional || !setPositional(trial, kind)) {
            out.positionals.push_back(positionalName(kind));
        }
    }
    out.scale = scaleName(c.scaleKind);
    if (c.scaleKind == ScaleKind::Divisor) {
        out.divisor = c.scaleDivisor;
    }
    for (const std::string& control : out.controls) {
        for (const std::string& name : matricesOf(control, c.direct)) {
            if (isEditableMatrix(state, name)) {
                out.matrices.push_back({name, control, editableMatrix(state, name)});
            }
        }
    }
    return out;
}

ReaderControls transformerReaderControls(const std::string& cellId,
                                         const TransformerLiveCell& live) {
    const TransformerCellSpec& spec = live.authored();
    const TransformerSettings& s = live.settings();
    ReaderControls out;
    out.cellId = cellId;
    out.kind = "transformer";
    // In the order the window lays them out: the prompt, then the views.
    for (const char* control :
         {"tokens", "temperature", "generate", "positional", "layers", "norm", "ffn", "mask"}) {
        const std::string name = control;
        const bool offered =
            (name != "layers" || spec.config.layers.size() > 1) && (name != "mask" || !s.maskMixed);
        if (live.allows(control) && offered) {
            out.controls.push_back(name);
        }
    }
    out.tokens = s.tokens;
    out.words = spec.vocabOrder;
    out.mask = maskName(s.mask);
    out.positional = positionalName(s.positional);
    for (const PositionalKind kind :
         {PositionalKind::None, PositionalKind::Sinusoidal, PositionalKind::Learned}) {
        TransformerLiveCell trial = live;
        if (kind == s.positional || trial.setPositional(kind).empty()) {
            out.positionals.push_back(positionalName(kind));
        }
    }
    out.temperature = s.temperature;
    out.generate = s.generateSteps;
    out.pick = pickName(s.pick);
    out.layerCount = int(spec.config.layers.size());
    out.layersRun = s.run.layers < 0 ? out.layerCount : s.run.layers;
    out.norm = s.run.norm;
    out.ffn = s.run.ffn;
    return out;
}

// An attention edit by the window's own functions: nullopt when applied, else why not.
EditRefusal editAttention(EditableAttention& s, const ReaderEdit& e) {
    if (e.control == "tokens") {
        const int n = int(s.config.tokens.size());
        if (e.op == "add") {
            return addToken(s, e.word);
        }
        if ((e.op == "remove" || e.op == "move") && (e.index < 0 || e.index >= n)) {
            return "there is no token " + std::to_string(e.index + 1);
        }
        if (e.op == "remove") {
            return removeToken(s, e.index);
        }
        if (e.op == "move") {
            return e.to < 0 || e.to >= n ? EditRefusal("a token moves within the sentence")
                                         : moveToken(s, e.index, e.to);
        }
    } else if (e.control == "heads") {
        return setHeads(s, int(e.number));
    } else if (e.control == "mask") {
        const std::optional<MaskKind> mask = maskNamed(e.word);
        return mask ? setMask(s, *mask) : EditRefusal("no mask is called '" + e.word + "'");
    } else if (e.control == "positional") {
        const std::optional<PositionalKind> kind = positionalNamed(e.word);
        return kind ? setPositional(s, *kind)
                    : EditRefusal("no positional encoding is called '" + e.word + "'");
    } else if (e.control == "scale") {
        const std::optional<ScaleKind> kind = scaleNamed(e.word);
        return kind ? setScale(s, *kind, e.number)
                    : EditRefusal("no scale is called '" + e.word + "'");
    } else if (e.control == "vectors" || e.control == "projections") {
        const std::vector<std::string> names = matricesOf(e.control, s.config.direct);
        if (e.op != "entry" || !has(names, e.word)) {
            return "the " + e.control + " control has no matrix '" + e.word + "'";
        }
        return setMatrixEntry(s, e.word, e.index, e.to, e.number);
    }
    return "the " + e.control + " control has no '" + e.op + "'";
}

// A transformer edit by the window's own functions: "" when applied, else why not.
std::string editTransformer(TransformerLiveCell& cell, const ReaderEdit& e) {
    const std::vector<std::string> tokens = cell.settings().tokens;
    const int n = int(tokens.size());
    if (e.control == "tokens") {
        if (e.op == "add") {
            return cell.addToken(e.word);
        }
        if ((e.op == "remove" || e.op == "move") && (e.index < 0 || e.index >= n)) {
            return "there is no token " + std::to_string(e.index + 1);
        }
        if (e.op == "remove") {
            return cell.removeToken(e.index);
        }
        if (e.op == "move") {
            if (e.to < 0 || e.to >= n) {
                return "a token moves within the sentence";
            }
            // The cell has no move: the tokens from `index` to `to` take their new words.
            std::vector<std::string> moved = tokens;
            const std::string word = moved[size_t(e.index)];
            moved.erase(moved.begin() + e.index);
            moved.insert(moved.begin() + e.to, word);
            for (int i = std::min(e.index, e.to); i <= std::max(e.index, e.to); ++i) {
                if (std::string why = cell.replaceToken(i, moved[size_t(i)]); !why.empty()) {
                    return why;
                }
            }
            return "";
        }
    } else if (e.control == "layers") {
        return e.number != std::floor(e.number) ? "run a whole number of layers"
                                                : cell.setLayersRun(int(e.number));
    } else if (e.control == "norm") {
        return cell.setNorm(e.number != 0);
    } else if (e.control == "ffn") {
        return cell.setFeedForward(e.number != 0);
    } else if (e.control == "mask") {
        const std::optional<MaskKind> mask = maskNamed(e.word);
        return mask ? cell.setMask(*mask) : "no mask is called '" + e.word + "'";
    } else if (e.control == "temperature") {
        return cell.setTemperature(e.number);
    } else if (e.control == "generate" && e.op == "pick") {
        const std::optional<PickKind> pick = pickNamed(e.word);
        if (!pick) {
            return "words are picked greedy or sample, not '" + e.word + "'";
        }
        if (cell.settings().generateSteps == 0) {
            return "choose how many words to generate first";
        }
        return cell.setGenerate(cell.settings().generateSteps, *pick, cell.settings().seed);
    } else if (e.control == "generate") {
        if (e.number != std::floor(e.number)) {
            return "generate a whole number of words";
        }
        return cell.setGenerate(int(e.number), cell.settings().pick, cell.settings().seed);
    } else if (e.control == "positional") {
        const std::optional<PositionalKind> kind = positionalNamed(e.word);
        return kind ? cell.setPositional(*kind)
                    : "no positional encoding is called '" + e.word + "'";
    }
    return "the " + e.control + " control has no '" + e.op + "'";
}

} // namespace

ReaderControls readerControls(const LessonCell& cell) {
    if (const AttentionCellSpec* spec = cell.attention()) {
        return attentionReaderControls(cell.id, *spec, EditableAttention::fromSpec(*spec));
    }
    if (const TransformerCellSpec* spec = cell.transformer()) {
        return transformerReaderControls(cell.id, TransformerLiveCell(*spec));
    }
    return {};
}

Json readerControlsJson(const ReaderControls& c) {
    Json::Array allowed;
    for (const int h : c.allowedHeads) {
        allowed.push_back(Json(h));
    }
    Json::Array matrices;
    for (const ReaderMatrix& m : c.matrices) {
        Json entry = Json::object();
        entry.set("name", m.name);
        entry.set("control", m.control);
        Json::Array shape;
        shape.push_back(Json(double(m.values.n_rows)));
        shape.push_back(Json(double(m.values.n_cols)));
        entry.set("shape", Json(std::move(shape)));
        if (m.values.n_elem <= kMostGridEntries) {
            entry.set("rows", jsonMatrix(m.values)); // what the grid's fields show
        }
        matrices.push_back(std::move(entry));
    }
    Json out = Json::object();
    out.set("cell", c.cellId);
    out.set("kind", c.kind);
    out.set("controls", jsonStrings(c.controls));
    out.set("tokens", jsonStrings(c.tokens));
    out.set("words", jsonStrings(c.words));
    out.set("heads", c.heads);
    out.set("allowedHeads", Json(std::move(allowed)));
    out.set("mask", c.mask);
    out.set("positional", c.positional);
    out.set("positionals", jsonStrings(c.positionals));
    out.set("scale", c.scale);
    out.set("divisor", c.divisor);
    out.set("temperature", c.temperature);
    out.set("generate", c.generate);
    out.set("pick", c.pick);
    out.set("matrices", Json(std::move(matrices)));
    out.set("layersRun", c.layersRun);
    out.set("layerCount", c.layerCount);
    out.set("norm", c.norm);
    out.set("ffn", c.ffn);
    return out;
}

std::optional<std::vector<std::pair<std::string, std::string>>>
readerEditKeys(const LessonCell& cell, const ReaderEdit& edit, std::string& why,
               ReaderControls* after) {
    const ReaderControls offered = readerControls(cell);
    if (!has(offered.controls, edit.control)) {
        why = "cell " + cell.id + " does not let a reader change " + edit.control;
        return std::nullopt;
    }
    if (const AttentionCellSpec* spec = cell.attention()) {
        const EditableAttention before = EditableAttention::fromSpec(*spec);
        EditableAttention edited = before;
        if (EditRefusal refusal = editAttention(edited, edit)) {
            why = *refusal;
            return std::nullopt;
        }
        if (after) {
            *after = attentionReaderControls(cell.id, *spec, edited);
        }
        return changedKeys(before, edited);
    }
    TransformerLiveCell live(*cell.transformer());
    if (std::string refusal = editTransformer(live, edit); !refusal.empty()) {
        why = refusal;
        return std::nullopt;
    }
    if (after) {
        *after = transformerReaderControls(cell.id, live);
    }
    std::vector<std::pair<std::string, std::string>> keys = live.keepPlan().keys;
    for (auto& view : readerViewKeys(live.authoredSettings(), live.settings(),
                                     int(live.authored().config.layers.size()))) {
        keys.push_back(std::move(view));
    }
    return keys;
}

std::optional<LessonCell> cellUnderWhatIfs(const Lesson& lesson, const CellRereader& rereader,
                                           const std::vector<std::string>& words,
                                           const std::string& cellId) {
    const LessonCell* authored = lesson.cell(cellId);
    if (!authored) {
        return std::nullopt;
    }
    Document document = lesson.document;
    std::vector<KeySet> keys;     // what setCellKey wrote, for the re-reader
    std::vector<SetOption> views; // switched once the cell is read (reader_view_words.h)
    for (const std::string& w : words) {
        std::string error;
        const std::optional<SetOption> option = parseSetOption(w, error);
        if (!option || option->cellId != cellId) {
            continue;
        }
        if (isReaderViewKey(option->key)) {
            views.push_back(*option);
            continue;
        }
        if (setCellKey(document, cellId, option->key, option->value)) {
            return std::nullopt;
        }
        keys.push_back({option->key, option->value});
    }
    std::optional<LessonCell> cell;
    if (!keys.empty()) {
        std::vector<Diagnostic> diagnostics;
        cell = rereader.reread(document, cellId, diagnostics, keys);
        const bool failed =
            std::any_of(diagnostics.begin(), diagnostics.end(),
                        [](const Diagnostic& d) { return d.severity == Severity::Error; });
        if (failed || !cell || (!cell->attention() && !cell->transformer())) {
            return std::nullopt;
        }
    } else if (views.empty()) {
        return *authored;
    } else {
        cell = *authored;
    }
    for (const SetOption& option : views) {
        auto* spec = std::get_if<TransformerCellSpec>(&cell->readToChange().spec);
        if (!spec || !switchReaderView(*spec, option.key, option.value).empty()) {
            return std::nullopt;
        }
    }
    return cell;
}

} // namespace attnbook

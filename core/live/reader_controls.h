#pragma once
// The reader's controls of a cell on the live web page (docs/web-page.md, "What a reader
// does"): what each control shows under the what-ifs in force, and the `compute --set` words a
// reader's change of one control gives. The words are written by the window's own edits
// (editable_attention.h, transformer_live_cell.h) and their Keep (changedKeys, keepPlan), so
// the page never writes YAML, and a control offers only what its edit accepts.

#include "core/document/json.h"
#include "core/document/lesson.h"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnbook {

class CellRereader;

// An input matrix a reader may edit entry by entry (attention.md: `vectors`, `projections`).
// The most entries of a matrix the page shows as a grid of number fields; a larger one (a real
// model's projections) is changed one entry at a time by its row and column, and its numbers are
// not sent to the page (readerControlsJson).
inline constexpr std::size_t kMostGridEntries = 48;

struct ReaderMatrix {
    std::string name;    // as the window names it: "X0", "queries", "W_Q", …
    std::string control; // the control that edits it: "vectors" or "projections"
    arma::mat values;
};

// What a cell's controls show. Only the members of the controls in `controls` mean anything.
struct ReaderControls {
    std::string cellId;
    std::string kind;                  // "attention" or "transformer"
    std::vector<std::string> controls; // of the cell's `controls:`, those the page offers
    std::vector<std::string> tokens;   // the sentence
    std::vector<std::string> words;    // the words a token may be: the vocab; empty: any word
    int heads = 1;
    std::vector<int> allowedHeads;
    std::string mask;                     // "none", "causal" (setting_words.h)
    std::string positional;               // "none", "sinusoidal", "learned"
    std::vector<std::string> positionals; // the kinds the cell accepts, in that order
    std::string scale;                    // "sqrt", "off", "divisor"
    double divisor = 2.0;                 // the divisor, when `scale` is "divisor"
    double temperature = 1.0;
    int generate = 0;
    std::string pick = "greedy"; // how the generated words are picked: "greedy", "sample"
    std::vector<ReaderMatrix> matrices;
    // A transformer's views (reader_view_words.h): the layers run of `layerCount`, LayerNorm
    // and the FFN on or off.
    int layersRun = 1;
    int layerCount = 1;
    bool norm = true;
    bool ffn = true;
};

// The controls of `cell` as read (with the what-ifs in force applied: cellUnderWhatIfs); none
// (`controls` empty) for a cell a reader cannot change.
ReaderControls readerControls(const LessonCell& cell);

// {"cell", "kind", "controls", "tokens", "words", "heads", "allowedHeads", "mask", "positional",
// "positionals", "scale", "divisor", "temperature", "generate", "pick", "matrices": [{"name",
// "control", "shape": [ROWS, COLUMNS], "rows" (only for at most kMostGridEntries)}], "layersRun",
// "layerCount", "norm", "ffn"}
Json readerControlsJson(const ReaderControls& controls);

// One change a reader makes with a control.
struct ReaderEdit {
    std::string control; // "tokens", "heads", "mask", "positional", "scale", "temperature",
                         // "generate", "vectors", "projections"; a transformer's "layers",
                         // "norm", "ffn"
    std::string op;      // tokens: "add", "remove", "move"; a matrix: "entry"; generate: "set"
                         // (the words) or "pick" (greedy, sample: `word`); else "set"
    int index = 0;       // the token removed or moved; a matrix entry's row
    int to = 0;          // where the token moves; a matrix entry's column
    std::string word;    // the token added; the mask, positional or scale chosen; the matrix
    double number = 0;   // the heads, divisor, temperature, words generated, entry, or layers
                         // run; norm and ffn: 1 on, 0 off
};

// The keys (KEY → YAML) the edit writes, relative to `cell` as read: each replaces the same key
// of an earlier what-if of the cell. nullopt with `why` when the cell's controls do not offer
// the edit or its edit refuses it (a token past the most the cell takes, a word not in the
// vocab). `after`, when given, gets what the controls show once the edit is made: the same as
// readerControls of the cell read again with the keys, without reading it (a cell of a real
// model's files takes a quarter of a second to read on the page).
std::optional<std::vector<std::pair<std::string, std::string>>>
readerEditKeys(const LessonCell& cell, const ReaderEdit& edit, std::string& why,
               ReaderControls* after = nullptr);

// Cell `cellId` of `lesson` with those of `words` (`compute --set` words, ID.KEY=YAML) that set
// it applied in order, read again alone; nullopt when the lesson has no such cell or the words
// do not apply (the page sends only the words the core applied).
std::optional<LessonCell> cellUnderWhatIfs(const Lesson& lesson, const CellRereader& rereader,
                                           const std::vector<std::string>& words,
                                           const std::string& cellId);

} // namespace attnbook

#pragma once
// What an attention cell's controls change: the numbers (AttentionConfig)
// and where the token vectors come from. With a vocab, equal tokens share one
// vector, so editing "red" changes every red; with an X matrix each row is
// its own. Every edit returns the reason when it refuses, so the window can
// show it next to the control, and leaves the state untouched then.

#include "core/document/file_value_source.h"
#include "core/math/attention_config.h"
#include "core/math/attention_engine.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnbook {

struct AttentionCellSpec;

using EditRefusal = std::optional<std::string>; // nullopt: the edit was applied

struct EditableAttention {
    AttentionConfig config;
    std::map<std::string, arma::rowvec> vocab; // empty: X rows are per token
    std::vector<std::string> vocabOrder;
    // Keys read from {file: PATH} values → their reference, which Keep writes back with the
    // edited entries in `set:` rather than typing the file's numbers out.
    std::map<std::string, FileValueSource> fileValues;

    static EditableAttention fromSpec(const AttentionCellSpec& spec);
    bool usesVocab() const { return !vocab.empty(); }
    // Why the configuration cannot be computed, or nullopt when it can.
    EditRefusal problem() const;
};

// The input matrices, by the name the window uses (the table of core/document/matrix_names.h):
// whether the cell has `name` in its mode (whether a reader may edit it is readerMayEdit's
// rule there), its numbers and its shape. Identity projections and missing biases read as the
// matrices they stand for.
bool isEditableMatrix(const EditableAttention& state, const std::string& name);
arma::mat editableMatrix(const EditableAttention& state, const std::string& name);
// Its (rows × columns), without writing it out.
std::pair<arma::uword, arma::uword> editableShape(const EditableAttention& state,
                                                  const std::string& name);

// The four weight matrices (W_Q, W_K, W_V, W_O), moved out of a state and into one. They are
// most of a cell read from a model's files (19 MB in GPT-2 small's shape), so the edits that
// leave them alone and the window's Undo set them aside rather than copy them.
using WeightMatrices = std::array<arma::mat, 4>;
WeightMatrices takeWeights(EditableAttention& state);
void putWeights(EditableAttention& state, WeightMatrices&& weights);
// The projection a name stands for ("W_Q" … "W_O"), or nullptr.
Projection* projectionNamed(AttentionConfig& config, const std::string& name);
// The product an entry of `name` feeds: W_Q and b_Q feed Q, … W_O and b_O the output Y;
// nullopt for any other name. An edit of one entry changes one column of that product.
std::optional<AttentionEngine::Projected> projectedBy(const std::string& name);

EditRefusal setHeads(EditableAttention& state, int heads);
EditRefusal setMask(EditableAttention& state, MaskKind mask);
EditRefusal setPadding(EditableAttention& state, int key, bool padded);
EditRefusal setPositional(EditableAttention& state, PositionalKind kind);
EditRefusal setScale(EditableAttention& state, ScaleKind kind, double divisor);
EditRefusal setFocus(EditableAttention& state, int row);

// Adds a token at the end. With a vocab, a word it lacks joins the vocab as a zero vector.
EditRefusal addToken(EditableAttention& state, const std::string& label);
EditRefusal removeToken(EditableAttention& state, int index);
EditRefusal renameToken(EditableAttention& state, int index, const std::string& label);
EditRefusal moveToken(EditableAttention& state, int from, int to);

EditRefusal setMatrixEntry(EditableAttention& state, const std::string& name, int row, int col,
                           double value);
EditRefusal setIdentity(EditableAttention& state, const std::string& name);
EditRefusal setZero(EditableAttention& state, const std::string& name);

// The heads counts the widths allow (divisors of d, or of the direct widths).
std::vector<int> allowedHeads(const EditableAttention& state);

// The cell keys that differ between `authored` and `edited`, each with its
// new value as YAML flow text, in the order a cell usually lists them: what
// "Keep" writes into the document through the cell editor.
std::vector<std::pair<std::string, std::string>> changedKeys(const EditableAttention& authored,
                                                             const EditableAttention& edited);
// `edited` as the lesson holds it once changedKeys(authored, edited) is kept: the same numbers,
// with the file references (and their `set:` entries) the kept text wrote. What the window's
// Keep makes its new authored state, so that a second Keep adds to the first one's entries.
EditableAttention keptState(const EditableAttention& authored, const EditableAttention& edited);
// Whether any key differs (the focus too, unless `countFocus` is false), without writing the
// YAML, stopping at the first difference.
bool hasChanges(const EditableAttention& authored, const EditableAttention& edited,
                bool countFocus = true);

} // namespace attnbook

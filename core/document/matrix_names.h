#pragma once
// The one table of an attention cell's input matrices by name: "X0" (the token
// vectors), "W_Q" … "W_O", "b_Q" … "b_O", and in direct mode "queries", "keys", "values". For
// each: the cell key that writes it, the member of AttentionConfig that holds it, its shape in
// the resolved widths, the control that lets a reader edit it, the product an entry of it feeds,
// its gradient in a result, and the keys that decide its shape when the author left it out.
// Every switch from a name to one of these (the window's tables and edits, the cell reader, the
// JSON, Keep, the error positions) reads this table instead of spelling the names again.
//
// The core/math layer cannot read it (math knows nothing of documents): the gradient check and
// the shape checks name their matrices themselves, as the engine's own words for them.

#include "core/math/attention_config.h"
#include "core/math/attention_engine.h"
#include "core/math/attention_result.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnbook {

struct AttentionShapes;

// A dimension of an input matrix, in the widths resolveShapes gives.
enum class MatrixWidth { N, M, D, HdK, HdV, DO, One };
// What a table of the matrix labels its rows with.
enum class MatrixRowLabels { Queries, Keys, Index, Bias };

struct InputMatrixName {
    enum class Role { Tokens, Projection, Bias, Direct };

    const char* name; // as the window, the JSON and Keep name it ("X0", "W_Q")
    const char* key;  // the cell key that writes it ("X" for X0)
    Role role;
    const char* control; // the cell control that lets a reader edit it
    MatrixWidth rows, cols;
    MatrixRowLabels rowLabels;
    std::optional<AttentionEngine::Projected> feeds; // W and b: the product an entry changes
    // Where it lives: the member its role uses (the others are null).
    arma::mat AttentionConfig::*matrix = nullptr;      // Tokens, Direct
    Projection AttentionConfig::*projection = nullptr; // Projection
    arma::rowvec AttentionConfig::*bias = nullptr;     // Bias
    arma::mat AttentionGradients::*gradient = nullptr; // ∂L/∂ it (Tokens: ∂L/∂X)
    arma::rowvec AttentionGradients::*gradientBias = nullptr;
    const char* gradientName; // "X" for X0: the result's grad.NAME
    // Keys whose values decide its shape when it is left at its default (identity, zeros).
    std::vector<const char*> decidedBy;

    bool isDirect() const { return role == Role::Direct; }
    // Whether a cell in this mode (direct or with X) has the matrix at all.
    bool existsIn(const AttentionConfig& config) const { return isDirect() == config.direct; }
    // (rows × columns) in the resolved widths.
    std::pair<arma::uword, arma::uword> shapeIn(const AttentionShapes& shapes) const;
};

// Every input matrix, in the order a cell usually lists them.
const std::vector<InputMatrixName>& inputMatrixNames();
// The entry of `name` (as the window names it), or nullptr.
const InputMatrixName* inputMatrixNamed(std::string_view name);
// The entry the cell key `key` writes ("X" → X0), or nullptr.
const InputMatrixName* inputMatrixOfKey(std::string_view key);
// The entry whose gradient the result calls grad.`name` ("X" → X0), or nullptr.
const InputMatrixName* inputMatrixOfGradient(std::string_view name);

// The one rule of which matrix a reader may edit: the cell has it in its mode, and its
// controls include the one that edits it ("vectors" for the inputs, "projections" for W and b).
bool readerMayEdit(const AttentionConfig& config, const std::vector<std::string>& controls,
                   std::string_view name);

} // namespace attnbook

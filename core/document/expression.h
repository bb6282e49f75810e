#pragma once
// The inside of one `{{…}}` in prose (docs/lesson-format.md, "Expressions and
// claims"): a bare path, an expression over paths, or a claim `? EXPR`, with
// optional `:DIGITS`. Expressions are evaluated with muParser, the library
// chart formulas use; this file only finds the paths and hands muParser the rest.

#include "core/document/json.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace attnbook {

// A path into a cell's computed JSON: `colour.head[0].weights[0][1]`.
struct BindingPath {
    std::string cellId;
    std::vector<std::variant<std::string, size_t>> steps; // keys and indices after the id
    int digits = 4;           // the enclosing binding's digits, kept for callers that show one path
    size_t offset = 0;        // where the cell id starts inside the `{{…}}`'s inner text
    std::string text() const; // "colour.head[0].weights[0][1]" (without digits)
};

// Parses a bare path, optionally followed by `:DIGITS`. Returns nullopt with
// `error` set when malformed.
std::optional<BindingPath> parseBindingPath(std::string_view inner, std::string& error);

struct Binding {
    std::string expression;         // as written, trimmed, without `?` and `:DIGITS`
    int digits = 4;                 // decimals shown
    bool claim = false;             // `{{? EXPR}}`: shows nothing, holds when EXPR ≠ 0
    std::vector<BindingPath> paths; // every path the expression reads, in order
    std::vector<std::string> words; // every quoted word ("cat"), in order, without quotes
    std::string parserText;         // the expression with path i renamed to `_pi`, word i `_wi`

    // A lone path, which may name a vector or matrix (shown as [a, b, c]).
    bool barePath() const { return paths.size() == 1 && expression == paths[0].text(); }
};

// Parses the inside of `{{ … }}`; nullopt with `error` set when it is not a
// valid path, expression or claim.
std::optional<Binding> parseBinding(std::string_view inner, std::string& error);

// Finds the value a path names (in the lesson's computed cells), or nullptr
// with `error` saying why.
using PathLookup = std::function<const Json*(const BindingPath&, std::string& error)>;

struct BindingValue {
    std::optional<Json> value; // a number, or (for a bare path) whatever the path names
    std::string error;         // set when there is no value
};

// Evaluates the binding. A path that names a vector or matrix is an error
// inside arithmetic; a blocked score (null) reads as −∞, true and false as 1 and 0; a result
// that is not finite is an error. A word (a token label such as colour.tokens[1], or "cat" in
// quotes) may only be compared with == or != to another word; anywhere else it is an error
// that says so.
BindingValue evaluateBinding(const Binding& binding, const PathLookup& lookup);

struct ClaimVerdict {
    bool holds = false;
    std::string sides; // "0.7673 vs 0.5481" for near(a, b) or a comparison, else each path's value
    std::string error; // set when the claim cannot be evaluated
};

ClaimVerdict evaluateClaim(const Binding& claim, const PathLookup& lookup);

} // namespace attnbook

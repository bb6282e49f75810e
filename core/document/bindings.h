#pragma once
// Bindings in prose: `{{ID.PATH}}` or `{{ID.PATH:DIGITS}}` stand for the
// value at PATH in cell ID's computed JSON, rounded to DIGITS decimals
// (default 4); `{{EXPR:DIGITS}}` for an expression over such paths, and
// `{{? EXPR}}` for a claim that shows nothing (expression.h). `{{{{` writes a
// literal `{{`. Code spans and code blocks are left alone (docs/lesson-format.md).

#include "core/document/document.h"
#include "core/document/expression.h"
#include "core/document/json.h"

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace attnbook {

// " — did you mean 'example'?" when one of `known` is close to `name` (closestName), else "":
// the end of a message about a misspelt cell id or key.
std::string didYouMean(const std::string& name, const std::vector<std::string>& known);

// The value at the path inside a cell's JSON, or nullptr (with `error` saying
// which step failed, and the key meant when a close one exists).
const Json* resolveBindingPath(const Json& cell, const BindingPath& path, std::string& error);

// Whether `path` fails in `cell` at an index past the end of a list ([2] of a list of 2): the
// cell has fewer tokens (heads, rows) than the binding was written for. Every binding that
// reads past the end of one cell has that one cause (lesson.cpp reports it once).
bool readsPastTheEnd(const Json& cell, const BindingPath& path);

// How a bound value reads in prose: a number with `digits` decimals, a vector
// as [a, b, c], a blocked score (null) as −∞.
std::string formatBoundValue(const Json& value, int digits);

struct ProsePiece {
    enum class Kind { Text, Code, Binding, LiteralBraces, Unclosed, Malformed };
    Kind kind = Kind::Text;
    size_t offset = 0; // in the scanned text
    size_t length = 0;
    int line = 0;
    int column = 0;
    Binding binding;   // Kind::Binding
    std::string error; // Kind::Malformed
};

// Cuts `text` (whose first character sits at file line `firstLine`, column
// `firstColumn`) into text and binding pieces. Lines inside `codeLines` and
// code spans stay text.
std::vector<ProsePiece> scanProse(std::string_view text, int firstLine, int firstColumn = 1,
                                  const std::vector<LineRange>& codeLines = {});

// `text` with every binding replaced by `valueOf(binding)`; a binding that
// cannot be resolved shows as written. A claim shows `claimText(claim)`, by
// default nothing (the window marks a claim that an edit made false).
using BindingLookup = std::function<std::optional<std::string>(const Binding&)>;
using ClaimText = std::function<std::string(const Binding&)>;
std::string substituteBindings(std::string_view text, const std::vector<ProsePiece>& pieces,
                               const BindingLookup& valueOf, const ClaimText& claimText = {});

} // namespace attnbook

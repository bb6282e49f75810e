#pragma once
// The muParser that bindings and claims are evaluated with (expression_language.cpp). Internal
// to core/document.

namespace mu {
class Parser;
} // namespace mu

namespace attnbook {

// This thread's parser of the expression language, with no variables. Each use defines its
// variables, sets its expression and is done before the next begins.
mu::Parser& languageParser();

} // namespace attnbook

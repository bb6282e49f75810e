#pragma once
// The muParser that bindings and claims are evaluated with (expression_language.cpp). Internal
// to core/document.

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace mu {
class Parser;
} // namespace mu

namespace attnbook {

// This thread's parser of the expression language, with no variables. Each use defines its
// variables, sets its expression and is done before the next begins.
mu::Parser& languageParser();

// How an expression's parser text names the value of its path k and its quoted word k.
inline std::string variableName(size_t index) {
    return "_p" + std::to_string(index);
}
inline std::string wordName(size_t index) {
    return "_w" + std::to_string(index);
}

// The expressions evaluated on this thread, each parsed once and kept with the numbers its
// variables read: muParser turns an expression into bytecode on its first evaluation, and the
// live page evaluates the same few hundred bindings and claims after every what-if
// (docs/web-page.md), where parsing them again was most of its time.
class CompiledExpressions {
  public:
    CompiledExpressions();
    ~CompiledExpressions();
    // `parserText` with `_pK` = values[K] and `_wK` = words[K]; throws muParser's exception
    // as the parser does. The sizes must be those the text was made with.
    double evaluate(const std::string& parserText, const std::vector<double>& values,
                    const std::vector<double>& words);

  private:
    struct Compiled;
    Compiled& compiled(const std::string& parserText, size_t values, size_t words);
    std::unordered_map<std::string, std::unique_ptr<Compiled>> kept_;
};

// This thread's kept expressions.
CompiledExpressions& compiledExpressions();

} // namespace attnbook

// The expression language of docs/lesson-format.md as a muParser: its operators and functions,
// each checked so that a step without a number ends the evaluation.
#include "core/document/expression_language.h"

#include <muParser.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace attnbook {
namespace {

double near(double a, double b) {
    if (!std::isfinite(a) || !std::isfinite(b)) {
        return a == b ? 1.0 : 0.0; // −∞ (a blocked score) is near only −∞
    }
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}) ? 1.0 : 0.0;
}
double logicalNot(double a) {
    return a == 0.0 ? 1.0 : 0.0;
}

// A step whose result is not a number (0/0, ∞ − ∞, the root of a negative number) ends the
// evaluation: muParser's own operators would carry the NaN on into a comparison, where
// NaN != 1 holds, and a claim would hold with no number behind it.
double checked(double value) {
    if (std::isnan(value)) {
        throw mu::ParserError("a step gives no number (like 0/0, ∞ − ∞ or the root of a negative "
                              "number)");
    }
    return value;
}
double plus(double a, double b) {
    return checked(a + b);
}
double minus(double a, double b) {
    return checked(a - b);
}
double times(double a, double b) {
    return checked(a * b);
}
double divide(double a, double b) {
    return checked(a / b);
}
double power(double a, double b) {
    return checked(std::pow(a, b));
}
double less(double a, double b) {
    return a < b ? 1.0 : 0.0;
}
double greater(double a, double b) {
    return a > b ? 1.0 : 0.0;
}
double lessOrEqual(double a, double b) {
    return a <= b ? 1.0 : 0.0;
}
double greaterOrEqual(double a, double b) {
    return a >= b ? 1.0 : 0.0;
}
double equal(double a, double b) {
    return a == b ? 1.0 : 0.0;
}
double notEqual(double a, double b) {
    return a != b ? 1.0 : 0.0;
}
double both(double a, double b) {
    return a != 0.0 && b != 0.0 ? 1.0 : 0.0;
}
double either(double a, double b) {
    return a != 0.0 || b != 0.0 ? 1.0 : 0.0;
}
double squareRoot(double a) {
    return checked(std::sqrt(a));
}
double naturalLog(double a) {
    return checked(std::log(a));
}
double log2Of(double a) {
    return checked(std::log2(a));
}
double log10Of(double a) {
    return checked(std::log10(a));
}
double arcSine(double a) {
    return checked(std::asin(a));
}
double arcCosine(double a) {
    return checked(std::acos(a));
}
double areaCosine(double a) {
    return checked(std::acosh(a));
}
double areaTangent(double a) {
    return checked(std::atanh(a));
}

// A parser with the expression language of docs/lesson-format.md: muParser's functions and
// the arithmetic, comparison and logical operators, but never its assignment ('=', '+='…),
// which would change a value the lesson shows ({{a.d = 5}} showed 5), and never a NaN.
void defineLanguage(mu::Parser& parser) {
    parser.EnableBuiltInOprt(false); // every binary operator is defined here instead
    parser.DefineOprt("+", plus, mu::prADD_SUB);
    parser.DefineOprt("-", minus, mu::prADD_SUB);
    parser.DefineOprt("*", times, mu::prMUL_DIV);
    parser.DefineOprt("/", divide, mu::prMUL_DIV);
    parser.DefineOprt("^", power, mu::prPOW, mu::oaRIGHT);
    parser.DefineOprt("<", less, mu::prCMP);
    parser.DefineOprt(">", greater, mu::prCMP);
    parser.DefineOprt("<=", lessOrEqual, mu::prCMP);
    parser.DefineOprt(">=", greaterOrEqual, mu::prCMP);
    parser.DefineOprt("==", equal, mu::prCMP);
    parser.DefineOprt("!=", notEqual, mu::prCMP);
    parser.DefineOprt("&&", both, mu::prLAND);
    parser.DefineOprt("||", either, mu::prLOR);
    for (const auto& [name, function] :
         {std::pair<const char*, double (*)(double)>{"sqrt", squareRoot},
          {"ln", naturalLog},
          {"log", naturalLog},
          {"log2", log2Of},
          {"log10", log10Of},
          {"asin", arcSine},
          {"acos", arcCosine},
          {"acosh", areaCosine},
          {"atanh", areaTangent}}) {
        parser.DefineFun(name, function);
    }
    parser.DefineConst("pi", M_PI);
    parser.DefineConst("e", M_E);
    parser.DefineFun("near", near);
    parser.DefineInfixOprt("!", logicalNot);
}

} // namespace

// Made once per thread, since making one (muParser's tables of functions and operators) cost
// about 100 µs, and a lesson of 100,000 claims took 15 s to check.
mu::Parser& languageParser() {
    thread_local const std::unique_ptr<mu::Parser> parser = [] {
        auto made = std::make_unique<mu::Parser>();
        defineLanguage(*made);
        return made;
    }();
    parser->ClearVar();
    return *parser;
}

// Its own parser, with the language and the variables pointing at its own numbers: defining
// them once is what lets muParser keep the bytecode between evaluations.
struct CompiledExpressions::Compiled {
    mu::Parser parser;
    std::vector<double> values;
    std::vector<double> words;
};

CompiledExpressions::CompiledExpressions() = default;
CompiledExpressions::~CompiledExpressions() = default;

CompiledExpressions::Compiled& CompiledExpressions::compiled(const std::string& parserText,
                                                             size_t values, size_t words) {
    const auto found = kept_.find(parserText);
    if (found != kept_.end() && found->second->values.size() == values &&
        found->second->words.size() == words) {
        return *found->second;
    }
    // transformer.md has under a thousand expressions; past the bound, all are compiled afresh.
    constexpr size_t kMostKept = 2048; // about 10 KB each
    if (kept_.size() >= kMostKept) {
        kept_.clear();
    }
    auto made = std::make_unique<Compiled>();
    defineLanguage(made->parser);
    made->values.assign(values, 0.0);
    made->words.assign(words, 0.0);
    for (size_t k = 0; k < values; ++k) {
        made->parser.DefineVar(variableName(k), &made->values[k]);
    }
    for (size_t k = 0; k < words; ++k) {
        made->parser.DefineVar(wordName(k), &made->words[k]);
    }
    made->parser.SetExpr(parserText);
    Compiled& kept = *made;
    kept_[parserText] = std::move(made);
    return kept;
}

double CompiledExpressions::evaluate(const std::string& parserText,
                                     const std::vector<double>& values,
                                     const std::vector<double>& words) {
    Compiled& expression = compiled(parserText, values.size(), words.size());
    std::copy(values.begin(), values.end(), expression.values.begin());
    std::copy(words.begin(), words.end(), expression.words.begin());
    try {
        return expression.parser.Eval();
    } catch (...) {
        kept_.erase(parserText); // parsed afresh next time, as it was before any was kept
        throw;
    }
}

CompiledExpressions& compiledExpressions() {
    thread_local CompiledExpressions kept;
    return kept;
}

} // namespace attnbook

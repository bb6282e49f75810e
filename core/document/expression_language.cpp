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

} // namespace attnbook

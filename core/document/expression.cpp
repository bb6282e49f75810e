#include "core/document/expression.h"

#include "core/document/bindings.h"

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>

namespace attnbook {

std::string BindingPath::text() const {
    std::string out = cellId;
    for (const auto& step : steps) {
        if (const auto* key = std::get_if<std::string>(&step)) {
            out += "." + *key;
        } else {
            out += "[" + std::to_string(std::get<size_t>(step)) + "]";
        }
    }
    return out;
}

namespace {

bool isNameStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isKeyChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdChar(char c) {
    return isKeyChar(c) || c == '-';
}
bool isDigit(char c) {
    return std::isdigit(static_cast<unsigned char>(c));
}

std::string_view trimmed(std::string_view text) {
    const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)); };
    while (!text.empty() && space(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && space(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

// Reads the steps of a path (`.key`, `[index]`) from text[i]; returns false
// with `error` set on a malformed step. Keys hold no '-', so `a.d_k-1` is a
// path minus one.
bool readSteps(std::string_view text, size_t& i, BindingPath& path, std::string& error) {
    while (i < text.size() && (text[i] == '.' || text[i] == '[')) {
        if (text[i] == '.') {
            const size_t start = ++i;
            if (i < text.size() && isNameStart(text[i])) {
                while (i < text.size() && isKeyChar(text[i])) {
                    ++i;
                }
            }
            if (i == start) {
                error = "expected a name after '.'";
                return false;
            }
            path.steps.emplace_back(std::string(text.substr(start, i - start)));
        } else {
            const size_t start = ++i;
            while (i < text.size() && isDigit(text[i])) {
                ++i;
            }
            if (i == start || i >= text.size() || text[i] != ']' || i - start > 9) {
                error = "expected an index like [0]";
                return false;
            }
            path.steps.emplace_back(size_t(std::stoul(std::string(text.substr(start, i - start)))));
            ++i;
        }
    }
    return true;
}

// Splits a trailing `:DIGITS` off; returns false with `error` set when the
// digits are out of range. A `:` whose tail is not digits belongs to the
// expression (a ? b : c).
bool splitDigits(std::string_view& text, int& digits, std::string& error) {
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) {
        return true;
    }
    const std::string_view tail = trimmed(text.substr(colon + 1));
    if (tail.empty() || !std::all_of(tail.begin(), tail.end(), isDigit)) {
        if (tail.empty()) {
            error = "expected digits after ':'";
            return false;
        }
        return true;
    }
    if (tail.size() > 2 || std::stoi(std::string(tail)) > 15) {
        error = "the digits after ':' must be a number from 0 to 15";
        return false;
    }
    digits = std::stoi(std::string(tail));
    text = trimmed(text.substr(0, colon));
    return true;
}

double near(double a, double b) {
    if (!std::isfinite(a) || !std::isfinite(b)) {
        return a == b ? 1.0 : 0.0; // −∞ (a blocked score) is near only −∞
    }
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}) ? 1.0 : 0.0;
}
double logicalNot(double a) {
    return a == 0.0 ? 1.0 : 0.0;
}

std::string variableName(size_t index) {
    return "_p" + std::to_string(index);
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

// A parser with the expression language of document-format.md: muParser's functions and
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

// This thread's parser of the expression language, with no variables: made once, since making
// one (muParser's tables of functions and operators) cost about 100 µs, and a lesson of 100,000
// claims took 15 s to check. Each use defines its variables, sets its expression and is done
// before the next begins.
mu::Parser& languageParser() {
    thread_local const std::unique_ptr<mu::Parser> parser = [] {
        auto made = std::make_unique<mu::Parser>();
        defineLanguage(*made);
        return made;
    }();
    parser->ClearVar();
    return *parser;
}

// Where a ',' stands outside every parenthesis in `text` (muParser would take it as two
// expressions and show the last), or npos.
size_t topLevelComma(std::string_view text) {
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        if (depth == 0 && text[i] == ',') {
            return i;
        }
    }
    return std::string_view::npos;
}

} // namespace

std::optional<BindingPath> parseBindingPath(std::string_view inner, std::string& error) {
    BindingPath path;
    std::string_view text = trimmed(inner);
    if (!splitDigits(text, path.digits, error)) {
        return std::nullopt;
    }
    size_t i = 0;
    if (i < text.size() && isNameStart(text[i])) {
        while (i < text.size() && isIdChar(text[i])) {
            ++i;
        }
    }
    path.cellId = std::string(text.substr(0, i));
    if (path.cellId.empty()) {
        error = "a binding starts with a cell id, like {{colour.output[0]}}";
        return std::nullopt;
    }
    if (!readSteps(text, i, path, error)) {
        return std::nullopt;
    }
    if (i < text.size()) {
        error = "unexpected '" + std::string(1, text[i]) + "' in the binding";
        return std::nullopt;
    }
    if (path.steps.empty()) {
        error = "a binding names a value inside the cell, like {{" + path.cellId + ".output[0]}}";
        return std::nullopt;
    }
    return path;
}

std::optional<Binding> parseBinding(std::string_view inner, std::string& error) {
    Binding binding;
    std::string_view text = trimmed(inner);
    if (!text.empty() && text.front() == '?') {
        binding.claim = true;
        text = trimmed(text.substr(1));
    }
    if (!splitDigits(text, binding.digits, error)) {
        return std::nullopt;
    }
    if (text.empty()) {
        error = binding.claim ? "a claim needs a condition, like {{? colour.n > 1}}"
                              : "an empty binding: write a path like {{colour.output[0]}}";
        return std::nullopt;
    }
    binding.expression = std::string(text);

    // Paths become variables _p0, _p1, … for muParser; everything else is its.
    for (size_t i = 0; i < text.size();) {
        const bool startsName =
            isNameStart(text[i]) && (i == 0 || !(isKeyChar(text[i - 1]) || text[i - 1] == '.'));
        if (!startsName) {
            binding.parserText += text[i++];
            continue;
        }
        size_t end = i;
        while (end < text.size() && isIdChar(text[end])) {
            ++end;
        }
        if (end == text.size() || (text[end] != '.' && text[end] != '[')) {
            // A function or constant name: muParser reads it (never with a '-').
            size_t name = i;
            while (name < text.size() && isKeyChar(text[name])) {
                ++name;
            }
            binding.parserText += text.substr(i, name - i);
            i = name;
            continue;
        }
        BindingPath path;
        path.cellId = std::string(text.substr(i, end - i));
        path.digits = binding.digits;
        path.offset = size_t(text.data() - inner.data()) + i;
        i = end;
        if (!readSteps(text, i, path, error)) {
            return std::nullopt;
        }
        binding.parserText += variableName(binding.paths.size());
        binding.paths.push_back(std::move(path));
    }
    if (binding.paths.empty()) {
        error = "'" + binding.expression +
                "' reads no cell: a binding names a value, like {{colour.output[0][0]}}";
        return std::nullopt;
    }
    if (binding.barePath()) {
        return binding;
    }
    if (topLevelComma(binding.parserText) != std::string_view::npos) {
        error = "in the expression " + binding.expression +
                ": one expression per binding; ',' may only separate a function's arguments";
        return std::nullopt;
    }
    try { // muParser checks the syntax now, so a typo is an error at its line
        mu::Parser& parser = languageParser();
        std::vector<double> values(binding.paths.size(), 1.0);
        for (size_t k = 0; k < values.size(); ++k) {
            parser.DefineVar(variableName(k), &values[k]);
        }
        parser.SetExpr(binding.parserText);
        parser.GetUsedVar(); // parses without evaluating: sqrt(x - 2) is fine before x is known
    } catch (const mu::Parser::exception_type& e) {
        error = "in the expression " + binding.expression + ": " + e.GetMsg();
        if (binding.expression.find('?') != std::string::npos) {
            error += " (wrap a conditional in parentheses: (a ? b : c))";
        }
        return std::nullopt;
    }
    return binding;
}

BindingValue evaluateBinding(const Binding& binding, const PathLookup& lookup) {
    std::vector<double> values;
    for (const BindingPath& path : binding.paths) {
        std::string error;
        const Json* value = lookup(path, error);
        if (!value) {
            return {std::nullopt, error};
        }
        if (binding.barePath()) {
            return {*value, {}};
        }
        if (value->isNumber()) {
            values.push_back(value->number());
        } else if (value->isNull()) {
            values.push_back(-HUGE_VAL); // a blocked score
        } else {
            return {std::nullopt, path.text() +
                                      " is a vector or matrix, which arithmetic cannot use: "
                                      "pick one entry, like " +
                                      path.text() + "[0]"};
        }
    }
    try {
        mu::Parser& parser = languageParser();
        for (size_t k = 0; k < values.size(); ++k) {
            parser.DefineVar(variableName(k), &values[k]);
        }
        parser.SetExpr(binding.parserText);
        const double result = parser.Eval();
        if (!std::isfinite(result)) {
            return {std::nullopt, binding.expression + " is not a finite number"};
        }
        return {Json(result), {}};
    } catch (const mu::Parser::exception_type& e) {
        return {std::nullopt, "in the expression " + binding.expression + ": " + e.GetMsg()};
    }
}

namespace {

// Where `separator` first occurs outside parentheses in `text`, or npos.
size_t topLevel(std::string_view text, std::string_view separator) {
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        if (depth == 0 && text.substr(i, separator.size()) == separator) {
            return i;
        }
    }
    return std::string_view::npos;
}

using Sides = std::pair<std::string, std::string>;

// The two sides of `near(a, b)` or of one comparison at the top level, when the
// claim is one of those; else nothing (claims joined by && or ||, say).
std::optional<Sides> claimSides(std::string_view text) {
    const auto cut = [](std::string_view t, size_t at, size_t width) {
        return Sides{std::string(trimmed(t.substr(0, at))),
                     std::string(trimmed(t.substr(at + width)))};
    };
    if (text.substr(0, 5) == "near(" && topLevel(text, ")") == text.size() - 1) {
        const std::string_view inside = text.substr(5, text.size() - 6);
        const size_t comma = topLevel(inside, ",");
        return comma == std::string_view::npos ? std::nullopt
                                               : std::optional(cut(inside, comma, 1));
    }
    for (const std::string_view logic : {"&&", "||", "?"}) {
        if (topLevel(text, logic) != std::string_view::npos) {
            return std::nullopt;
        }
    }
    for (const std::string_view op : {"<=", ">=", "==", "!=", "<", ">"}) {
        if (const size_t at = topLevel(text, op); at != std::string_view::npos) {
            return cut(text, at, op.size());
        }
    }
    return std::nullopt;
}

std::string shown(const BindingValue& value) {
    return value.value ? formatBoundValue(*value.value, 4) : "?";
}

} // namespace

ClaimVerdict evaluateClaim(const Binding& claim, const PathLookup& lookup) {
    ClaimVerdict verdict;
    const BindingValue value = evaluateBinding(claim, lookup);
    if (!value.value || !value.value->isNumber()) {
        verdict.error = value.value ? claim.expression + " is not a number" : value.error;
        return verdict;
    }
    verdict.holds = value.value->number() != 0.0;
    std::string ignored;
    if (const auto sides = claimSides(claim.expression)) {
        const auto side = [&](const std::string& text) {
            const std::optional<Binding> part = parseBinding(text, ignored);
            if (part) {
                return shown(evaluateBinding(*part, lookup));
            }
            // A side without a path (a constant): muParser alone evaluates it.
            try {
                mu::Parser& parser = languageParser();
                parser.SetExpr(text);
                return formatBoundValue(Json(parser.Eval()), 4);
            } catch (const mu::Parser::exception_type&) {
                return std::string("?");
            }
        };
        verdict.sides = side(sides->first) + " vs " + side(sides->second);
    } else {
        for (const BindingPath& path : claim.paths) {
            Binding one;
            one.expression = path.text();
            one.paths = {path};
            verdict.sides += (verdict.sides.empty() ? "" : ", ") + path.text() + " = " +
                             shown(evaluateBinding(one, lookup));
        }
    }
    return verdict;
}

} // namespace attnbook

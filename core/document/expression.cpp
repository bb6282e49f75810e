// The binding language: paths, parsing a binding into parser text and evaluating it, and
// claims; parsing and evaluating share the naming of paths and words (_p0, _w0). The muParser
// language itself, with its checked operators and functions, is expression_language.cpp.
#include "core/document/expression.h"

#include "core/document/bindings.h"
#include "core/document/expression_language.h"

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

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

// What an operand of an expression is, as far as is known: a path's value is known only when
// the binding is evaluated.
enum class OperandKind { Number, Word, Unknown };

// The expression's tokens, for the check of its words: names and numbers, the two-character
// operators, and single characters; spaces dropped.
std::vector<std::string> tokensOf(std::string_view text) {
    std::vector<std::string> out;
    for (size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        size_t end = i + 1;
        if (isKeyChar(c) || c == '.') {
            while (end < text.size() && (isKeyChar(text[end]) || text[end] == '.')) {
                ++end;
            }
        } else if (end < text.size()) {
            const std::string_view pair = text.substr(i, 2);
            if (pair == "==" || pair == "!=" || pair == "<=" || pair == ">=" || pair == "&&" ||
                pair == "||") {
                ++end;
            }
        }
        out.emplace_back(text.substr(i, end - i));
        i = end;
    }
    return out;
}

// Whether a token ends the operand before it, or begins the one after it, at a precedence
// lower than a comparison's: then `a == b` between them is a comparison of a and b alone.
bool bordersComparison(const std::string& token) {
    return token == "(" || token == ")" || token == "," || token == "&&" || token == "||" ||
           token == "?" || token == ":";
}

// Why the words of `binding` are misused, or "" when each word is one side of an == or !=
// whose other side is a word too: a word has no number, so colour.tokens[1] + 1 or
// colour.tokens[1] < 3 means nothing. `kind` says what a variable (_p0, _w0) holds; any other
// token is a number or an operator.
std::string wordProblem(const Binding& binding,
                        const std::function<OperandKind(const std::string&)>& kind,
                        const std::function<std::string(const std::string&)>& describe) {
    const std::vector<std::string> t = tokensOf(binding.parserText);
    // t[left] OP t[left + 2], with nothing of higher precedence on either side.
    const auto comparisonAt = [&](size_t left) {
        return left + 2 < t.size() && (t[left + 1] == "==" || t[left + 1] == "!=") &&
               (left == 0 || bordersComparison(t[left - 1])) &&
               (left + 3 == t.size() || bordersComparison(t[left + 3]));
    };
    for (size_t i = 0; i < t.size(); ++i) {
        if (kind(t[i]) != OperandKind::Word) {
            continue;
        }
        std::optional<size_t> partner;
        if (comparisonAt(i)) {
            partner = i + 2;
        } else if (i >= 2 && comparisonAt(i - 2)) {
            partner = i - 2;
        }
        if (partner && kind(t[*partner]) != OperandKind::Number) {
            continue;
        }
        const std::string how = partner ? " is compared with a number" : " is not a number";
        return "in the expression " + binding.expression + ": the word " + describe(t[i]) + how +
               "; a word can only be compared (== or !=) with another word, like "
               "colour.tokens[1] == \"cat\"";
    }
    return {};
}

// The variable a token names: ('p', 3) for _p3, ('w', 0) for _w0, else ('\0', 0).
std::pair<char, size_t> variableOf(const std::string& token) {
    if (token.size() < 3 || token[0] != '_' || (token[1] != 'p' && token[1] != 'w') ||
        !std::all_of(token.begin() + 2, token.end(), isDigit)) {
        return {'\0', 0};
    }
    return {token[1], size_t(std::stoul(token.substr(2)))};
}

// Where a ',' stands outside every parenthesis in `text` (muParser would take it as two
// expressions and show the last), or npos.
size_t topLevelComma(std::string_view text) {
    int depth = 0;
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        quoted = quoted != (text[i] == '"');
        if (quoted || text[i] == '"') {
            continue;
        }
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

namespace {

// Writes binding.parserText from `text` (the binding without '?' and digits; `inner` is the
// whole binding, for the paths' offsets): paths become variables _p0, _p1, … for muParser,
// quoted words _w0, _w1, …; everything else is its. False with `error` on a bad path or quote.
bool translateForParser(std::string_view text, std::string_view inner, Binding& binding,
                        std::string& error) {
    for (size_t i = 0; i < text.size();) {
        if (text[i] == '"') {
            const size_t close = text.find('"', i + 1);
            if (close == std::string_view::npos) {
                error = "in the expression " + binding.expression +
                        ": a word in quotes needs its closing quote, like \"cat\"";
                return false;
            }
            binding.parserText += wordName(binding.words.size());
            binding.words.emplace_back(text.substr(i + 1, close - i - 1));
            i = close + 1;
            continue;
        }
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
            return false;
        }
        binding.parserText += variableName(binding.paths.size());
        binding.paths.push_back(std::move(path));
    }
    return true;
}

// Why the expression of `binding` (more than a bare path) is not one the language reads, or
// "": one expression, words only where words may stand, and muParser's syntax, checked now
// so that a typo is an error at its line.
std::string expressionProblem(const Binding& binding) {
    if (topLevelComma(binding.parserText) != std::string_view::npos) {
        return "in the expression " + binding.expression +
               ": one expression per binding; ',' may only separate a function's arguments";
    }
    // A quoted word stands where a word may (its other side may be a path to a word).
    std::string problem = wordProblem(
        binding,
        [](const std::string& token) {
            const auto [kind, index] = variableOf(token);
            return kind == 'w'   ? OperandKind::Word
                   : kind == 'p' ? OperandKind::Unknown
                                 : OperandKind::Number;
        },
        [&](const std::string& token) {
            return "\"" + binding.words[variableOf(token).second] + "\"";
        });
    if (!problem.empty()) {
        return problem;
    }
    try {
        mu::Parser& parser = languageParser();
        std::vector<double> values(binding.paths.size(), 1.0);
        for (size_t k = 0; k < values.size(); ++k) {
            parser.DefineVar(variableName(k), &values[k]);
        }
        std::vector<double> words(binding.words.size(), 1.0);
        for (size_t k = 0; k < words.size(); ++k) {
            parser.DefineVar(wordName(k), &words[k]);
        }
        parser.SetExpr(binding.parserText);
        parser.GetUsedVar(); // parses without evaluating: sqrt(x - 2) is fine before x is known
    } catch (const mu::Parser::exception_type& e) {
        problem = "in the expression " + binding.expression + ": " + e.GetMsg();
        if (binding.expression.find('?') != std::string::npos) {
            problem += " (wrap a conditional in parentheses: (a ? b : c))";
        }
    }
    return problem;
}

} // namespace

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
    if (!translateForParser(text, inner, binding, error)) {
        return std::nullopt;
    }
    if (binding.paths.empty()) {
        error = "'" + binding.expression +
                "' reads no cell: a binding names a value, like {{colour.output[0][0]}}";
        return std::nullopt;
    }
    if (binding.barePath()) {
        return binding;
    }
    error = expressionProblem(binding);
    if (!error.empty()) {
        return std::nullopt;
    }
    return binding;
}

BindingValue evaluateBinding(const Binding& binding, const PathLookup& lookup) {
    std::vector<double> values;
    std::vector<std::optional<std::string>> pathWords(binding.paths.size());
    for (size_t k = 0; k < binding.paths.size(); ++k) {
        const BindingPath& path = binding.paths[k];
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
        } else if (value->isBool()) {
            values.push_back(value->boolean() ? 1.0 : 0.0);
        } else if (value->isString()) {
            pathWords[k] = value->string();
            values.push_back(0.0); // its code, once every word is known
        } else {
            return {std::nullopt, path.text() +
                                      " is a vector or matrix, which arithmetic cannot use: "
                                      "pick one entry, like " +
                                      path.text() + "[0]"};
        }
    }
    // Words compare by equality alone: each distinct word gets a number of its own.
    std::vector<double> words(binding.words.size());
    if (!binding.words.empty() || std::any_of(pathWords.begin(), pathWords.end(),
                                              [](const auto& w) { return w.has_value(); })) {
        const std::string problem = wordProblem(
            binding,
            [&](const std::string& token) {
                const auto [kind, index] = variableOf(token);
                return kind == 'w' || (kind == 'p' && pathWords[index]) ? OperandKind::Word
                                                                        : OperandKind::Number;
            },
            [&](const std::string& token) {
                const auto [kind, index] = variableOf(token);
                return kind == 'w'
                           ? "\"" + binding.words[index] + "\""
                           : binding.paths[index].text() + " (\"" + *pathWords[index] + "\")";
            });
        if (!problem.empty()) {
            return {std::nullopt, problem};
        }
        std::map<std::string, double> codes;
        const auto code = [&](const std::string& word) {
            return codes.emplace(word, double(codes.size() + 1)).first->second;
        };
        for (size_t k = 0; k < pathWords.size(); ++k) {
            if (pathWords[k]) {
                values[k] = code(*pathWords[k]);
            }
        }
        for (size_t k = 0; k < words.size(); ++k) {
            words[k] = code(binding.words[k]);
        }
    }
    try {
        const double result = compiledExpressions().evaluate(binding.parserText, values, words);
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
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        quoted = quoted != (text[i] == '"');
        if (quoted || text[i] == '"') {
            continue;
        }
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
    if (value.value && value.value->isString()) {
        return "\"" + value.value->string() + "\""; // a word, as a claim quotes one
    }
    return value.value ? formatBoundValue(*value.value, 4) : "?";
}

} // namespace

ClaimVerdict evaluateClaim(const Binding& claim, const PathLookup& lookup) {
    ClaimVerdict verdict;
    const BindingValue value = evaluateBinding(claim, lookup);
    const bool truth = value.value && value.value->isBool(); // {{? colour.identity.W_Q}}
    if (!value.value || (!value.value->isNumber() && !truth)) {
        verdict.error = value.value ? claim.expression + " is not a number" : value.error;
        return verdict;
    }
    verdict.holds = truth ? value.value->boolean() : value.value->number() != 0.0;
    if (verdict.holds) {
        return verdict; // the sides explain a false claim only, and cost a parse each
    }
    std::string ignored;
    if (const auto sides = claimSides(claim.expression)) {
        const auto side = [&](const std::string& text) {
            if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
                return text; // a quoted word
            }
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

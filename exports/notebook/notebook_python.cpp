#include "exports/notebook/notebook_python.h"

#include "core/document/json.h"
#include "exports/notebook/python/notebook_functions_py.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

namespace attnbook {
namespace {

bool isIdentifierStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool isIdentifierChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Names a lesson's variable never takes: Python's keywords and soft keywords, every builtin
// (a chart variable named `print` or `range` would break every later cell), the names IPython
// defines in a notebook, and the functions and globals of the notebook's own first cell
// (notebookFunctions). Names starting with '_' are refused separately (dunders, IPython's _i).
const std::set<std::string>& reservedNames() {
    static const std::set<std::string> names = [] {
        // Python 3.11: sorted(set(dir(builtins)) | set(keyword.kwlist) | set(keyword.softkwlist))
        static const char* const python =
            "ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup "
            "BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError "
            "ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError "
            "DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception "
            "ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError "
            "FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError "
            "IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt "
            "LookupError MemoryError ModuleNotFoundError NameError None NotADirectoryError "
            "NotImplemented NotImplementedError OSError OverflowError PendingDeprecationWarning "
            "PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning "
            "RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError "
            "SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError "
            "UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError "
            "UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning "
            "ZeroDivisionError abs aiter all and anext any as ascii assert async await bin "
            "bool break breakpoint bytearray bytes callable case chr class classmethod compile "
            "complex continue copyright credits def del delattr dict dir divmod elif else "
            "enumerate eval except exec exit filter finally float for format from frozenset "
            "getattr global globals hasattr hash help hex id if import in input int is "
            "isinstance issubclass iter lambda len license list locals map match max "
            "memoryview min next nonlocal not object oct open or ord pass pow print property "
            "quit raise range repr return reversed round set setattr slice sorted staticmethod "
            "str sum super try tuple type vars while with yield zip "
            // IPython's names in a notebook's namespace
            "In Out get_ipython display "
            // the notebook's first cell
            "np attnbook_results matrix vector sinusoidal_positions blocked_entries "
            "masked_softmax project columns attention_heads attention_backward show "
            "show_attention show_chart formula_min formula_max formula_sum formula_avg "
            "formula_rint on_axis "
            // the transformer's functions (notebook_transformer_functions.cpp)
            "math erf layer_norm activation transformer_layer chances transformer_forward "
            "cross_entropy next_chances splitmix64 pick_word transformer_generate "
            "show_transformer check_against_attnbook transformer_knockouts layer_norm_backward "
            "activation_slope transformer_gradients trainable_parameters gradient_at "
            "random_initial_weights transformer_train "
            // the names a chart cell's code assigns around its variable
            "t series points label xs ys";
        std::set<std::string> all;
        std::string word;
        for (const char* c = python;; ++c) {
            if (*c == ' ' || *c == '\0') {
                if (!word.empty()) {
                    all.insert(word);
                }
                word.clear();
                if (*c == '\0') {
                    break;
                }
            } else {
                word += *c;
            }
        }
        return all;
    }();
    return names;
}

// muParser's functions and constants as NumPy (or the notebook's helpers where muParser
// differs from NumPy: min and max take any number of arguments, rint rounds halves up).
const std::map<std::string, std::string>& formulaNames() {
    static const std::map<std::string, std::string> names = {
        {"sin", "np.sin"},       {"cos", "np.cos"},       {"tan", "np.tan"},
        {"asin", "np.arcsin"},   {"acos", "np.arccos"},   {"atan", "np.arctan"},
        {"sinh", "np.sinh"},     {"cosh", "np.cosh"},     {"tanh", "np.tanh"},
        {"asinh", "np.arcsinh"}, {"acosh", "np.arccosh"}, {"atanh", "np.arctanh"},
        {"log2", "np.log2"},     {"log10", "np.log10"},   {"log", "np.log"},
        {"ln", "np.log"},        {"exp", "np.exp"},       {"sqrt", "np.sqrt"},
        {"abs", "np.abs"},       {"sign", "np.sign"},     {"rint", "formula_rint"},
        {"min", "formula_min"},  {"max", "formula_max"},  {"sum", "formula_sum"},
        {"avg", "formula_avg"},  {"_pi", "np.pi"},        {"_e", "np.e"}};
    return names;
}

} // namespace

std::string pythonString(const std::string& text) {
    std::string out = "\"";
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (ch == '\\' || ch == '"') {
            out += '\\';
            out += ch;
        } else if (ch == '\n') {
            out += "\\n";
        } else if (ch == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
            out += escaped;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

std::string pythonStrings(const std::vector<std::string>& texts) {
    std::string out = "[";
    for (size_t i = 0; i < texts.size(); ++i) {
        out += (i ? ", " : "") + pythonString(texts[i]);
    }
    return out + "]";
}

std::string pythonNumber(double value) {
    // to_chars writes "1e+20", "-0", "0.1": all valid Python, and read back to the same double.
    return shortestDouble(value);
}

std::string pythonVector(const arma::rowvec& values) {
    std::string out = "[";
    for (arma::uword i = 0; i < values.n_elem; ++i) {
        out += (i ? ", " : "") + pythonNumber(values(i));
    }
    return out + "]";
}

std::string pythonMatrix(const arma::mat& values, int indent) {
    const std::string inner(size_t(indent + 4), ' ');
    std::string out = "[\n";
    for (arma::uword r = 0; r < values.n_rows; ++r) {
        out += inner + pythonVector(values.row(r)) + ",\n";
    }
    return out + std::string(size_t(indent), ' ') + "]";
}

std::string pythonFlags(const std::vector<bool>& flags) {
    std::string out = "[";
    for (size_t i = 0; i < flags.size(); ++i) {
        out += std::string(i ? ", " : "") + (flags[i] ? "True" : "False");
    }
    return out + "]";
}

std::string pythonVariable(const std::string& name) {
    std::string out;
    for (const char c : name) {
        out += isIdentifierChar(c) ? c : '_';
    }
    // Not empty, starting with a letter: no digit first, no _ (dunders, IPython's _, _i, _oh).
    if (out.empty() || !std::isalpha(static_cast<unsigned char>(out.front()))) {
        out = "v_" + out;
    }
    while (reservedNames().count(out) || formulaNames().count(out)) {
        out += '_';
    }
    return out;
}

std::string numpyFormula(const std::string& formula, const std::string& formulaVariable,
                         const std::string& variable) {
    std::string out;
    for (size_t i = 0; i < formula.size();) {
        const char c = formula[i];
        if (isIdentifierStart(c)) {
            size_t end = i;
            while (end < formula.size() && isIdentifierChar(formula[end])) {
                ++end;
            }
            const std::string name = formula.substr(i, end - i);
            const auto known = formulaNames().find(name);
            out += name == formulaVariable         ? variable
                   : known != formulaNames().end() ? known->second
                                                   : name;
            i = end;
        } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            // A number as the double muParser reads ("007" is no Python literal; 7 is).
            char* end = nullptr;
            const double value = std::strtod(formula.c_str() + i, &end);
            const size_t length = size_t(end - (formula.c_str() + i));
            if (length == 0) {
                out += c;
                ++i;
                continue;
            }
            out += pythonNumber(value);
            i += length;
        } else if (c == '^') {
            out += "**"; // right-associative in both, and binding tighter than unary minus
            ++i;
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

// exports/notebook/python/notebook_functions.py, embedded at build time (exports/CMakeLists.txt).
std::string notebookFunctions() {
    return embedded::notebookFunctionsPy;
}

} // namespace attnbook

#include "tests/exports/hostile_lessons.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <algorithm>
#include <cstdio>
#include <random>

namespace attnbook::hostile {

// Pieces hostile strings are made of: line breaks Python and Markdown know (\n, \r, \v, \f,
// U+0085, U+2028), quotes of every kind, comment and escape starters, HTML that would close
// or open a fold, Python code and names, and ordinary text.
const std::vector<std::string>& hostilePieces() {
    static const std::vector<std::string> pieces = {"\n",
                                                    "\r",
                                                    "\r\n",
                                                    "\v",
                                                    "\f",
                                                    "\x1c",
                                                    "\xc2\x85",
                                                    "\xe2\x80\xa8",
                                                    "\xe2\x80\xa9",
                                                    "\"",
                                                    "'",
                                                    "\"\"\"",
                                                    "'''",
                                                    "\\",
                                                    "\\n",
                                                    "\\x41",
                                                    "#",
                                                    "# ",
                                                    "\t",
                                                    " ",
                                                    "\x01",
                                                    "\x7f",
                                                    "import os; os.system('touch pwned')",
                                                    "__import__('os').system('id')",
                                                    "print",
                                                    "range",
                                                    "exec(",
                                                    ")",
                                                    "(",
                                                    "]",
                                                    "[",
                                                    "}",
                                                    "{",
                                                    ",",
                                                    ":",
                                                    ";",
                                                    "=",
                                                    "+",
                                                    "</details>",
                                                    "<details>",
                                                    "</DETAILS >",
                                                    "<summary>",
                                                    "<script>alert(1)</script>",
                                                    "<!--",
                                                    "-->",
                                                    "`",
                                                    "```",
                                                    "$",
                                                    "%",
                                                    "*",
                                                    "&",
                                                    "|",
                                                    "~",
                                                    "\xef\xbb\xbf",
                                                    "\xe2\x80\xae",
                                                    "\xc3\xa9",
                                                    "\xe6\x97\xa5\xe6\x9c\xac",
                                                    "x",
                                                    "red",
                                                    "0",
                                                    "1e9",
                                                    "-",
                                                    "_"};
    return pieces;
}

std::vector<std::string> hostileStrings(uint32_t seed, const std::vector<std::string>& first) {
    std::vector<std::string> out = first;
    std::mt19937 random(seed);
    const auto& pieces = hostilePieces();
    while (out.size() < size_t(kStringsPerField)) {
        const int count = 1 + int(random() % 8);
        std::string text;
        for (int i = 0; i < count; ++i) {
            text += pieces[random() % pieces.size()];
        }
        out.push_back(text);
    }
    return out;
}

// Names for the chart's variable: Python's keywords and builtins, IPython's names, the
// notebook's own functions, dunders, and random identifiers.
std::vector<std::string> hostileNames(uint32_t seed) {
    std::vector<std::string> out = {"print",       "range",
                                    "len",         "list",
                                    "type",        "match",
                                    "case",        "lambda",
                                    "None",        "True",
                                    "class",       "import",
                                    "exec",        "eval",
                                    "open",        "np",
                                    "matrix",      "show_chart",
                                    "on_axis",     "series",
                                    "points",      "t",
                                    "x",           "In",
                                    "Out",         "get_ipython",
                                    "display",     "_",
                                    "__",          "__class__",
                                    "__import__",  "_i",
                                    "_oh",         "attnbook_results",
                                    "formula_sum", "sum"};
    std::mt19937 random(seed);
    const std::string first = "abcxyzABCXYZ_";
    const std::string rest = "abcxyzABCXYZ_0123456789";
    while (out.size() < size_t(kStringsPerField)) {
        std::string name(1, first[random() % first.size()]);
        for (int i = int(random() % 10); i > 0; --i) {
            name += rest[random() % rest.size()];
        }
        out.push_back(name);
    }
    return out;
}

// Cell ids (a letter or _, then letters, digits, _ and -): the notebook's own names, Python's
// keywords and builtins, dunders, and random ids.
std::vector<std::string> hostileCellIds(uint32_t seed) {
    std::vector<std::string> out = hostileNames(seed);
    out.resize(size_t(kStringsPerField / 2));
    for (const char* id : {"attnbook-results", "np-", "_-_", "tf--x", "x-print", "layer_norm",
                           "transformer_generate", "check_against_attnbook", "erf", "math"}) {
        out.push_back(id);
    }
    std::mt19937 random(seed);
    const std::string rest = "abcxyzABCXYZ_-0123456789";
    while (out.size() < size_t(kStringsPerField)) {
        std::string id(1, "abXY_"[random() % 5]);
        for (int i = int(random() % 12); i > 0; --i) {
            id += rest[random() % rest.size()];
        }
        out.push_back(id);
    }
    return out;
}

// Formulas of n: what muParser reads, and what it should not be let through with.
std::vector<std::string> hostileFormulas(uint32_t seed) {
    std::vector<std::string> out = {
        "n\n+1", "n\r+1",        "n #\nimport os", "n, 2", "n = 5",       "n > 1 ? 1 : 2", "n && 1",
        "n\t*2", "sum(n, n, n)", "max(n, 2) ^ 2",  "-n^2", "sqrt(n)/_pi", "n // 2"};
    std::vector<std::string> pieces = {
        "n",     "2",    "0.5",  "+",    "-",   "*", "/",  "^", "(", ")", ",", " ", "\n", "\r",
        "sqrt(", "min(", "sum(", "exp(", "_pi", "#", "\"", "'", "?", ":", "=", "<", "!"};
    std::mt19937 random(seed);
    while (out.size() < size_t(kStringsPerField)) {
        std::string text = "n";
        for (int i = int(random() % 6); i > 0; --i) {
            text += pieces[random() % pieces.size()];
        }
        out.push_back(text);
    }
    return out;
}

// `text` as prose that leaves the cells after it cells: every run of three or more backticks
// cut to two (no code fence) and no '<' (an HTML block such as an unclosed <!-- or <script>
// runs on, by CommonMark's rules, over the cells that follow).
std::string asPlainProse(std::string text) {
    for (size_t at = text.find("```"); at != std::string::npos; at = text.find("```")) {
        text.erase(at, 1);
    }
    std::replace(text.begin(), text.end(), '<', '[');
    return text;
}

// A YAML double-quoted scalar holding exactly `text` (valid UTF-8 passes as is).
std::string yamlQuoted(const std::string& text) {
    std::string out = "\"";
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
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

std::string lessonText(const Fields& f) {
    const std::string formula = f.formula.empty() ? f.variable + "^2/2" : f.formula;
    return "---\ntitle: " + yamlQuoted(f.title) + "\n---\n\n# A lesson\n\n" + f.prose +
           "\n\n```attention a\n"
           "tokens: [" +
           yamlQuoted(f.token) +
           ", blue]\n"
           "vocab:\n"
           "  " +
           yamlQuoted(f.token) +
           ": [1, 0, 0, 0]\n"
           "  blue: [0, 1, 0, 0]\n"
           "W_Q: {file: weights.safetensors, tensor: " +
           yamlQuoted(f.tensorName) +
           "}\n"
           "W_K: {file: " +
           yamlQuoted(f.fileName + ".csv") +
           "}\n"
           "heads: 1\nmask: none\npositional: none\n```\n\n"
           "```chart c\n"
           "title: " +
           yamlQuoted(f.chartTitle) +
           "\n"
           "x: {label: tokens, var: " +
           yamlQuoted(f.variable) +
           ", from: 1, to: 8, points: 8}\n"
           "series:\n"
           "  - {label: " +
           yamlQuoted(f.chartLabel) + ", y: " + yamlQuoted(formula) +
           "}\n"
           "```\n\n"
           "```transformer " +
           f.transformerId +
           "\n"
           "tokens: [" +
           yamlQuoted(f.transformerToken) +
           ", blue]\n"
           "vocab:\n"
           "  " +
           yamlQuoted(f.transformerToken) +
           ": [1, 0, 0, 0]\n"
           "  blue: [0, 1, 0, 0]\n"
           "  " +
           yamlQuoted(f.vocabWord) +
           ": [0, 0, 1, 0]\n"
           "layers:\n"
           "  - attention: {heads: 1, mask: causal}\n"
           "    ffn: {W_1: [[1, 0, 0, 0], [0, 1, 0, 0]], W_2: [[1, 0], [0, 1], [0, 0], [0, 0]]}\n"
           "targets: [blue, " +
           yamlQuoted(f.vocabWord) +
           "]\n"
           "generate: {steps: 2, pick: sample, seed: 5}\n"
           "```\n\n"
           "```quiz q\n"
           "question: " +
           yamlQuoted(f.question) +
           "\n"
           "choices: [" +
           yamlQuoted(f.choice) +
           ", other]\n"
           "answer: 0\n"
           "explain: " +
           yamlQuoted(f.explain) +
           "\n```\n\n"
           "```quiz free\n"
           "question: Why?\n"
           "answer: " +
           yamlQuoted(f.sample) + "\n```\n";
}

// weights.safetensors with one 4 × 4 float64 tensor named `name` (the header is JSON, so any
// name can be written), and NAME.csv with a 4 × 4 matrix.
bool writeDataFiles(const QString& folder, const Fields& f) {
    QJsonObject tensor{
        {"dtype", "F64"}, {"shape", QJsonArray{4, 4}}, {"data_offsets", QJsonArray{0, 128}}};
    QByteArray header = QJsonDocument(QJsonObject{{QString::fromStdString(f.tensorName), tensor}})
                            .toJson(QJsonDocument::Compact);
    while (header.size() % 8) {
        header += ' ';
    }
    QByteArray bytes(8, '\0');
    for (int i = 0; i < 8; ++i) {
        bytes[i] = char((uint64_t(header.size()) >> (8 * i)) & 0xff);
    }
    bytes += header;
    for (int i = 0; i < 16; ++i) {
        const double value = i % 5 == 0 ? 1.0 : 0.25 * (i % 3);
        bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
    }
    QFile safetensors(folder + "/weights.safetensors");
    QFile csv(folder + "/" + QString::fromStdString(f.fileName) + ".csv");
    return safetensors.open(QIODevice::WriteOnly) && safetensors.write(bytes) == bytes.size() &&
           csv.open(QIODevice::WriteOnly) &&
           csv.write("1,0,0,0\n0,2,0,0\n0,0,1,0.5\n0,0,0,1\n") > 0;
}

std::vector<Field> hostileFields(const std::string& breakOut) {
    return {
        {"title", hostileStrings(1, {breakOut}), [](Fields& f, auto& v) { f.title = v; }, 250},
        // A fence in prose starts a code block, and the lesson's own ```python blocks are
        // code cells by design (visible in the lesson, its challenges); an HTML block hides
        // the cells after it: prose is kept from opening either (asPlainProse).
        {"prose", hostileStrings(2, {breakOut}),
         [](Fields& f, auto& v) { f.prose = asPlainProse(v); }, 250},
        {"token", hostileStrings(3, {breakOut}), [](Fields& f, auto& v) { f.token = v; }, 100},
        {"tensor", hostileStrings(4, {breakOut, "q\r__import__('os').system('id')"}),
         [](Fields& f, auto& v) { f.tensorName = v; }, 250},
        {"file", hostileStrings(5, {"w\nimport os"}),
         [](Fields& f, auto& v) {
             std::string name = v; // a file name: no '/' and no NUL
             for (char& c : name) {
                 c = c == '/' || c == '\0' ? '_' : c;
             }
             f.fileName = name;
         },
         100},
        {"chart title", hostileStrings(6, {breakOut}), [](Fields& f, auto& v) { f.chartTitle = v; },
         250},
        {"series label", hostileStrings(7, {breakOut}),
         [](Fields& f, auto& v) { f.chartLabel = v; }, 250},
        {"variable", hostileNames(8), [](Fields& f, auto& v) { f.variable = v; }, 250},
        {"formula", hostileFormulas(9), [](Fields& f, auto& v) { f.formula = v; }, 20},
        {"question", hostileStrings(10, {"</details> Answer: A"}),
         [](Fields& f, auto& v) { f.question = v; }, 250},
        {"choice", hostileStrings(11, {"</details>"}), [](Fields& f, auto& v) { f.choice = v; },
         250},
        {"explain", hostileStrings(12, {"</details>**Unfolded**<details>"}),
         [](Fields& f, auto& v) { f.explain = v; }, 250},
        {"sample answer", hostileStrings(13, {"</details>"}),
         [](Fields& f, auto& v) { f.sample = v; }, 250},
        {"transformer id", hostileCellIds(14), [](Fields& f, auto& v) { f.transformerId = v; },
         250},
        {"transformer token", hostileStrings(15, {breakOut}),
         [](Fields& f, auto& v) { f.transformerToken = v; }, 100},
        {"vocab word", hostileStrings(16, {breakOut, "</details>"}),
         [](Fields& f, auto& v) { f.vocabWord = v; }, 100},
    };
}

} // namespace attnbook::hostile

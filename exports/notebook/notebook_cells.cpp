// Longer than 500 lines on purpose: each kind of lesson part (prose, attention, chart, quiz)
// becomes its notebook cells here, and the attention part alone writes every input, weight,
// bias, mask and scale as Python; the pieces share the Markdown and code-cell helpers above.
#include "exports/notebook/notebook_cells.h"

#include "core/present/bound_markdown.h"
#include "core/present/presented_lesson.h"

#include "exports/notebook/notebook_python.h"

#include "core/document/html_comments.h"

#include "core/math/worked_steps.h"

#include <algorithm>
#include <cctype>

namespace attnbook {
namespace {

const char* const kComputedNote = "<sub>Numbers in this text: computed by attnbook.</sub>";

NotebookCell markdown(std::string id, std::string source) {
    return {NotebookCell::Kind::Markdown, std::move(id), std::move(source), false, {}};
}

NotebookCell code(std::string id, std::string source) {
    return {NotebookCell::Kind::Code, std::move(id), std::move(source), false, {}};
}

std::string number(double value) {
    return readableNumber(value, 4);
}

std::string plural(int count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

// Blank lines at either end dropped, CRLF read as LF, one line end at the end.
std::string tidyLines(std::string text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            continue;
        }
        out += text[i];
    }
    const size_t start = out.find_first_not_of(" \t\n");
    if (start == std::string::npos) {
        return {};
    }
    const size_t lineStart = out.rfind('\n', start);
    out.erase(0, lineStart == std::string::npos ? 0 : lineStart + 1);
    out.erase(out.find_last_not_of(" \t\n") + 1);
    return out + "\n";
}

// ---- Prose ----

// The lines of `text`, each with its line end.
std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\n', start);
        const size_t next = end == std::string::npos ? text.size() : end + 1;
        lines.push_back(text.substr(start, next - start));
        start = next;
    }
    return lines;
}

struct Fence {
    size_t indent = 0;
    char marker = '`';
    size_t length = 0;
    std::string language; // the info string's first word, lower case
};

// The opening fence of a fenced code block, or nullopt (an indented code block).
std::optional<Fence> openingFence(const std::string& line) {
    Fence f;
    while (f.indent < line.size() && line[f.indent] == ' ') {
        ++f.indent;
    }
    if (f.indent > 3 || f.indent >= line.size() ||
        (line[f.indent] != '`' && line[f.indent] != '~')) {
        return std::nullopt;
    }
    f.marker = line[f.indent];
    size_t i = f.indent;
    while (i < line.size() && line[i] == f.marker) {
        ++i;
    }
    f.length = i - f.indent;
    if (f.length < 3) {
        return std::nullopt;
    }
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) {
        ++i;
    }
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) {
        f.language += char(std::tolower(static_cast<unsigned char>(line[i++])));
    }
    return f;
}

bool isClosingFence(const std::string& line, const Fence& open) {
    size_t i = 0;
    while (i < line.size() && i < 4 && line[i] == ' ') {
        ++i;
    }
    size_t run = 0;
    while (i < line.size() && line[i] == open.marker) {
        ++i, ++run;
    }
    return run >= open.length && line.find_first_not_of(" \t\r\n", i) == std::string::npos;
}

bool isPython(const std::string& language) {
    return language == "python" || language == "py" || language == "python3" ||
           language == "ipython" || language == "ipython3";
}

// "**Sample answer**" or "Sample answer:" just above a code block marks it as one.
bool endsWithSampleAnswer(const std::string& markdownText) {
    std::string lower;
    for (const char c : markdownText) {
        lower += char(std::tolower(static_cast<unsigned char>(c)));
    }
    const size_t end = lower.find_last_not_of(" \t\r\n");
    if (end == std::string::npos) {
        return false;
    }
    const size_t lineStart = lower.rfind('\n', end);
    const std::string lastLine = lower.substr(lineStart == std::string::npos ? 0 : lineStart + 1);
    return lastLine.find("sample answer") != std::string::npos;
}

// Markdown whose raw HTML stays text: every '<' that could open a tag, a comment or a closing
// tag is written &lt;. A quiz's words inside the answer's <details> fold go through this, so a
// `</details>` in an explanation cannot unfold the answer.
std::string markdownWithoutHtml(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (text[i] == '<' && (std::isalpha(static_cast<unsigned char>(next)) || next == '/' ||
                               next == '!' || next == '?')) {
            out += "&lt;";
        } else {
            out += text[i];
        }
    }
    return out;
}

} // namespace

std::string markdownLiteral(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (std::string_view("\\`*_{}[]<>()#+-.!|~$&").find(c) != std::string_view::npos) {
            out += '\\';
        }
        out += c == '\n' || c == '\r' ? ' ' : c;
    }
    return out;
}

std::string markdownCode(const std::string& text) {
    size_t longest = 0;
    for (size_t i = 0, run = 0; i < text.size(); ++i) {
        run = text[i] == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
    // A code span is one line: a line break (a blank line would end it and let the rest be
    // Markdown) or another control character becomes a space.
    std::string oneLine = text;
    for (char& c : oneLine) {
        const auto byte = static_cast<unsigned char>(c);
        c = byte < 0x20 || byte == 0x7f ? ' ' : c;
    }
    return fence + (pad ? " " : "") + oneLine + (pad ? " " : "") + fence;
}

std::vector<NotebookCell> proseNotebookCells(const ProseBlock& prose, const Document& document,
                                             const LessonResults& results) {
    std::vector<NotebookCell> cells;
    const std::vector<std::string> lines = linesOf(prose.text);
    const int lastLine = prose.firstLine + int(lines.size()) - 1;
    const auto lineText = [&](int fileLine) { return lines[size_t(fileLine - prose.firstLine)]; };
    // Prose lines [first, last] as one Markdown cell, as every reader sees them
    // (presented_lesson.h): bindings replaced, notes out.
    std::string previousMarkdown;
    const auto addMarkdown = [&](int first, int last) {
        if (first > last) {
            return;
        }
        std::string text;
        for (int line = first; line <= last; ++line) {
            text += lineText(line);
        }
        const std::vector<ProsePiece> pieces = scanProse(text, first, 1, document.codeBlocks);
        const bool bound = std::any_of(pieces.begin(), pieces.end(), [](const ProsePiece& p) {
            return p.kind == ProsePiece::Kind::Binding;
        });
        std::string source = tidyLines(presentedProse(text, first, document, results));
        previousMarkdown = source;
        if (source.empty()) {
            return;
        }
        if (bound) {
            // At the end, but above a closing "**Sample answer**", which belongs to the code.
            const size_t lastLine = source.rfind('\n', source.size() - 2);
            const size_t at = endsWithSampleAnswer(source) && lastLine != std::string::npos
                                  ? lastLine + 1
                                  : source.size();
            source.insert(at, std::string(at == source.size() ? "\n" : "") + kComputedNote +
                                  (at == source.size() ? "\n" : "\n\n"));
        }
        cells.push_back(markdown("prose", source));
    };

    int next = prose.firstLine;
    for (const LineRange& block : document.codeBlocks) {
        if (block.first < next || block.last > lastLine) {
            continue;
        }
        const std::optional<Fence> fence = openingFence(lineText(block.first));
        if (!fence || !isPython(fence->language)) {
            continue;
        }
        addMarkdown(next, block.first - 1);
        const int bodyLast =
            block.last > block.first && isClosingFence(lineText(block.last), *fence)
                ? block.last - 1
                : block.last;
        std::string body;
        for (int line = block.first + 1; line <= bodyLast; ++line) {
            std::string text = lineText(line);
            size_t strip = 0; // the fence's indent comes off every line (CommonMark)
            while (strip < fence->indent && strip < text.size() && text[strip] == ' ') {
                ++strip;
            }
            body += text.substr(strip);
        }
        NotebookCell cell = code("code", tidyLines(body));
        if (endsWithSampleAnswer(previousMarkdown)) {
            cells.push_back(code("try", "# Your answer here. The sample answer below is folded "
                                        "away: click it to unfold.\n"));
            cells.back().tags = {"answer-space"};
            cell.id = "sample-answer";
            cell.sourceHidden = true;
            cell.tags = {"sample-answer"};
        }
        cells.push_back(std::move(cell));
        previousMarkdown.clear();
        next = block.last + 1;
    }
    addMarkdown(next, lastLine);
    return cells;
}

// ---- Attention ----

namespace {

// "# W_Q was read from "weights.npy"": where the lesson read a value. The origin holds lesson
// text (a path, a tensor name), so it is written as a Python string literal: a line break in it
// is an escape, never a new line of code.
std::string loadedNote(const AttentionCellSpec& spec, const std::string& key) {
    const auto from = spec.loadedFrom.find(key);
    return from == spec.loadedFrom.end()
               ? std::string()
               : "# " + key + " was read from " + pythonString(from->second) + "\n";
}

// "W_Q = np.eye(d)  # identity" or the matrix as typed, with where it was read from.
void writeWeights(std::string& out, const char* key, const Projection& p, const char* identity,
                  const char* shape, const AttentionCellSpec& spec) {
    const std::string name = key;
    if (p.identity) {
        out += name + " = " + identity + "  # identity\n";
        return;
    }
    out += loadedNote(spec, key);
    out += name + " = matrix(" + pythonMatrix(p.weights) + ")  # " + shape +
           ", one output unit per row\n";
}

void writeBias(std::string& out, const char* key, const arma::rowvec& b, const char* width,
               const AttentionCellSpec& spec) {
    if (b.is_empty()) {
        out += std::string(key) + " = np.zeros(" + width + ")\n";
        return;
    }
    out += loadedNote(spec, key);
    out += std::string(key) + " = vector(" + pythonVector(b) + ")\n";
}

std::string scaleLine(const AttentionConfig& c) {
    switch (c.scaleKind) {
    case ScaleKind::InverseSqrtDk:
        return "scale = 1 / np.sqrt(d_k)  # scores ÷ √d_k\n";
    case ScaleKind::Off:
        return "scale = 1.0  # scores not scaled\n";
    case ScaleKind::Divisor:
        return "scale = 1 / " + pythonNumber(c.scaleDivisor) + "  # scores ÷ " +
               pythonNumber(c.scaleDivisor) + "\n";
    }
    return {};
}

std::string maskArguments(const AttentionConfig& c) {
    std::string out = c.mask == MaskKind::Causal ? "causal=True" : "causal=False";
    if (!c.padding.empty()) {
        out += ", padding=" + pythonFlags(c.padding);
    }
    return out;
}

// Every token has a vector in the vocab (so X0 can be written as lookups).
bool tokensInVocab(const AttentionCellSpec& spec) {
    if (spec.vocab.empty()) {
        return false;
    }
    return std::all_of(spec.config.tokens.begin(), spec.config.tokens.end(),
                       [&](const std::string& t) { return spec.vocab.count(t) > 0; });
}

void writeInputsFromTokens(std::string& out, const AttentionCellSpec& spec) {
    const AttentionConfig& c = spec.config;
    out += "tokens = " + pythonStrings(c.tokens) + "\n";
    if (tokensInVocab(spec)) {
        out += loadedNote(spec, "vocab");
        out += "vocab = {\n";
        for (const std::string& label : spec.vocabOrder) {
            if (std::find(c.tokens.begin(), c.tokens.end(), label) != c.tokens.end()) {
                out += "    " + pythonString(label) + ": " + pythonVector(spec.vocab.at(label)) +
                       ",\n";
            }
        }
        out += "}\n";
        out += "X0 = matrix([vocab[token] for token in tokens])  # (n × d) the token vectors\n";
    } else {
        out += loadedNote(spec, "X");
        out += "X0 = matrix(" + pythonMatrix(c.X0) + ")  # (n × d) one row per token\n";
    }
    out += "n, d = X0.shape\n";
    switch (c.positional) {
    case PositionalKind::None:
        out += "P = np.zeros((n, d))  # no positional encoding\n";
        break;
    case PositionalKind::Sinusoidal:
        out += "P = sinusoidal_positions(n, d)  # (n × d)\n";
        break;
    case PositionalKind::Learned:
        out += loadedNote(spec, "positional");
        out += "P = matrix(" + pythonMatrix(c.learnedP) + ")  # (n × d) positions as given\n";
        break;
    }
    out += "X = X0 + P  # (n × d) what attention reads\n";
}

} // namespace

std::string attentionCode(const std::string& id, const AttentionCellSpec& spec,
                          const AttentionResult& r) {
    const AttentionConfig& c = spec.config;
    std::string out = "# The cell " + pythonString(id) + ", recomputed in NumPy.\n";
    if (r.direct) {
        if (!c.queryTokens.empty()) {
            out += "query_tokens = " + pythonStrings(c.queryTokens) + "\n";
        }
        if (!c.tokens.empty()) {
            out += "tokens = " + pythonStrings(c.tokens) + "\n";
        }
        out += loadedNote(spec, "queries");
        out += "Q = matrix(" + pythonMatrix(c.queries) + ")  # (n × h·d_k) the queries\n";
        out += loadedNote(spec, "keys");
        out += "K = matrix(" + pythonMatrix(c.keys) + ")  # (m × h·d_k) the keys\n";
        out += loadedNote(spec, "values");
        out += "V = matrix(" + pythonMatrix(c.values) + ")  # (m × h·d_v) the values\n";
        out += "n, m = Q.shape[0], K.shape[0]\n";
    } else {
        writeInputsFromTokens(out, spec);
    }
    out += "heads, d_k, d_v = " + std::to_string(r.h) + ", " + std::to_string(r.dK) + ", " +
           std::to_string(r.dV) + "  # d_k, d_v: the widths of one head\n";
    if (!r.direct) {
        writeWeights(out, "W_Q", c.wQ, "np.eye(d)", "(h·d_k × d)", spec);
        writeWeights(out, "W_K", c.wK, "np.eye(d)", "(h·d_k × d)", spec);
        writeWeights(out, "W_V", c.wV, "np.eye(d)", "(h·d_v × d)", spec);
        writeWeights(out, "W_O", c.wO, "np.eye(heads * d_v)", "(d_o × h·d_v)", spec);
        out += "d_o = W_O.shape[0]\n";
        writeBias(out, "b_Q", c.bQ, "heads * d_k", spec);
        writeBias(out, "b_K", c.bK, "heads * d_k", spec);
        writeBias(out, "b_V", c.bV, "heads * d_v", spec);
        writeBias(out, "b_O", c.bO, "d_o", spec);
    }
    out += scaleLine(c);
    out += std::string("blocked = blocked_entries(n, ") + (r.direct ? "m" : "n") + ", " +
           maskArguments(c) + ")\n";

    out += "\n# Forward\n";
    if (!r.direct) {
        out += "Q = project(X, W_Q, b_Q)  # (n × h·d_k)\n"
               "K = project(X, W_K, b_K)  # (n × h·d_k)\n"
               "V = project(X, W_V, b_V)  # (n × h·d_v)\n";
    }
    out += "head, C = attention_heads(Q, K, V, heads, d_k, d_v, scale, blocked)\n";
    out += r.direct ? "Y = C  # (n × h·d_v) with Q, K, V given, C is the output\n"
                    : "Y = project(C, W_O, b_O)  # (n × d_o)\n";

    out += "\n# Backward\n";
    if (c.upstream) {
        out += loadedNote(spec, "upstream");
        out += "G_Y = matrix(" + pythonMatrix(*c.upstream) + ")  # ∂L/∂Y as the cell gives it\n";
    } else {
        out += "G_Y = np.ones_like(Y)  # ∂L/∂Y: the loss L is the sum of Y\n";
    }
    if (r.direct) {
        out += "G_Q, G_K, G_V = attention_backward(G_Y, Q, K, V, head, heads, d_k, d_v, scale)\n"
               "grad = {\"upstream\": G_Y, \"queries\": G_Q, \"keys\": G_K, \"values\": G_V}\n";
    } else {
        out += "G_C = G_Y @ W_O  # (n × h·d_v)\n"
               "G_Q, G_K, G_V = attention_backward(G_C, Q, K, V, head, heads, d_k, d_v, scale)\n"
               "grad = {\n"
               "    \"upstream\": G_Y,\n"
               "    \"X\": G_Q @ W_Q + G_K @ W_K + G_V @ W_V,  # (n × d), = ∂L/∂X0\n"
               "    \"W_Q\": G_Q.T @ X, \"b_Q\": G_Q.sum(axis=0),\n"
               "    \"W_K\": G_K.T @ X, \"b_K\": G_K.sum(axis=0),\n"
               "    \"W_V\": G_V.T @ X, \"b_V\": G_V.sum(axis=0),\n"
               "    \"W_O\": G_Y.T @ C, \"b_O\": G_Y.sum(axis=0),\n"
               "}\n";
    }

    const std::string key = "attnbook_results[" + pythonString(id) + "]";
    out += "\n" + key + " = {\n";
    out += r.direct ? "    \"n\": n, \"heads\": heads, \"d_k\": d_k, \"d_v\": d_v, "
                      "\"d_o\": heads * d_v, \"scale\": scale,\n"
                      "    \"X0\": None, \"P\": None, \"X\": None,\n"
                    : "    \"n\": n, \"d\": d, \"heads\": heads, \"d_k\": d_k, \"d_v\": d_v, "
                      "\"d_o\": d_o, \"scale\": scale,\n"
                      "    \"X0\": X0, \"P\": P, \"X\": X,\n";
    out += "    \"Q\": Q, \"K\": K, \"V\": V, \"head\": head, \"concat\": C, \"output\": Y, "
           "\"grad\": grad,\n}\n";
    const bool gradients =
        std::find(spec.views.begin(), spec.views.end(), "gradients") != spec.views.end();
    const std::string queryLabels =
        r.direct ? (c.queryTokens.empty() ? "None" : "query_tokens") : "tokens";
    const std::string keyLabels = r.direct && c.tokens.empty() ? "None" : "tokens";
    out += "show_attention(" + key + ", " + queryLabels + ", " + keyLabels +
           (gradients ? ", gradients=True" : "") + ")\n";
    return out;
}

std::vector<NotebookCell> attentionNotebookCells(const std::string& id,
                                                 const AttentionCellSpec& spec,
                                                 const AttentionResult& r) {
    const AttentionConfig& c = spec.config;
    std::string text = "**Attention cell `" + id + "`**\n\n";
    if (r.direct) {
        text +=
            "- Queries, keys and values are given directly: " + plural(r.n, "query", "queries") +
            " reading " + plural(r.m, "key", "keys") +
            "; no projections, so the output is the heads' context side by side.\n";
    } else {
        std::string tokens;
        for (size_t i = 0; i < c.tokens.size(); ++i) {
            tokens += (i ? ", " : "") + markdownLiteral(c.tokens[i]);
        }
        text += "- Tokens (n = " + std::to_string(r.n) + "): " + tokens + "; vectors " +
                (tokensInVocab(spec) ? "from the vocab" : "given as X") +
                ", width d = " + std::to_string(r.d) + ".\n";
    }
    text += "- " + plural(r.h, "head", "heads") + ", each reading d_k = " + std::to_string(r.dK) +
            " columns of Q and K and d_v = " + std::to_string(r.dV) +
            " of V; output width d_o = " + std::to_string(r.dO) + ".\n";
    switch (c.scaleKind) {
    case ScaleKind::InverseSqrtDk:
        text += "- Scores divided by √d_k (s = " + number(r.scale) + ").\n";
        break;
    case ScaleKind::Off:
        text += "- Scores not scaled (s = 1).\n";
        break;
    case ScaleKind::Divisor:
        text +=
            "- Scores divided by " + number(c.scaleDivisor) + " (s = " + number(r.scale) + ").\n";
        break;
    }
    text += c.mask == MaskKind::Causal
                ? "- Causal mask: a token reads itself and the tokens before it.\n"
                : "- No mask.\n";
    if (!c.padding.empty()) {
        const std::vector<std::string>& labels = r.tokens;
        std::string padded;
        for (size_t i = 0; i < c.padding.size(); ++i) {
            if (c.padding[i]) {
                padded += std::string(padded.empty() ? "" : ", ") +
                          (i < labels.size() ? markdownLiteral(labels[i])
                                             : "key " + std::to_string(i + 1));
            }
        }
        text += "- Padding: " + (padded.empty() ? std::string("none") : padded) + " never read.\n";
    }
    if (!r.direct) {
        text += c.positional == PositionalKind::Sinusoidal ? "- Sinusoidal positional encoding.\n"
                : c.positional == PositionalKind::Learned  ? "- Positional encoding given as a "
                                                             "matrix.\n"
                                                           : "- No positional encoding.\n";
        std::string identities, matrices;
        for (const auto& [name, p] : {std::pair<const char*, const Projection*>{"W_Q", &c.wQ},
                                      {"W_K", &c.wK},
                                      {"W_V", &c.wV},
                                      {"W_O", &c.wO}}) {
            std::string& list = p->identity ? identities : matrices;
            list += (list.empty() ? "" : ", ") + std::string(name);
        }
        text +=
            "- Projections: " +
            (matrices.empty() ? std::string("all identity")
                              : matrices + " as given" +
                                    (identities.empty() ? "" : "; " + identities + " identity")) +
            ".\n";
        std::string biases;
        for (const auto& [name, b] : {std::pair<const char*, const arma::rowvec*>{"b_Q", &c.bQ},
                                      {"b_K", &c.bK},
                                      {"b_V", &c.bV},
                                      {"b_O", &c.bO}}) {
            if (!b->is_empty()) {
                biases += (biases.empty() ? "" : ", ") + std::string(name);
            }
        }
        text +=
            "- Biases: " + (biases.empty() ? std::string("zero") : biases + " as given") + ".\n";
    }
    text += c.upstream ? "- Backward pass from the given ∂L/∂Y.\n"
                       : "- Backward pass for L = the sum of Y (∂L/∂Y all ones).\n";
    if (!spec.loadedFrom.empty()) {
        text += "- Read from files: ";
        size_t i = 0;
        for (const auto& [key, from] : spec.loadedFrom) {
            text += (i++ ? "; " : "") + key + " from " + markdownCode(from);
        }
        text += ". The numbers are written out in the code below, so the notebook runs "
                "anywhere.\n";
    }
    text += "\nThe code recomputes every matrix with the functions of the first code cell; "
            "`attnbook_results[" +
            pythonString(id) + "]` holds them at full precision.\n";
    return {markdown(id + "-settings", text), code(id, attentionCode(id, spec, r))};
}

// ---- Charts ----

std::vector<NotebookCell> chartNotebookCells(const std::string& id, const ChartCellSpec& chart) {
    const std::string x = pythonVariable(chart.variable);
    std::string out = "# The chart " + pythonString(id) + ", its formulas in NumPy.\n";
    out += "points = " + std::to_string(std::max(chart.points, 2)) + "\n";
    out += "t = np.arange(points) / (points - 1)  # 0 … 1\n";
    if (chart.xLog) {
        out += x + " = np.exp(np.log(" + pythonNumber(chart.from) + ") * (1 - t) + np.log(" +
               pythonNumber(chart.to) + ") * t)  # evenly spaced on a log axis\n";
    } else {
        out += x + " = " + pythonNumber(chart.from) + " + (" + pythonNumber(chart.to) + " - " +
               pythonNumber(chart.from) + ") * t  # evenly spaced\n";
    }
    out += x + "[0], " + x + "[-1] = " + pythonNumber(chart.from) + ", " + pythonNumber(chart.to) +
           "  # the ends exactly as written\n";
    out += "series = [\n";
    for (const ChartSeriesSpec& s : chart.series) {
        out += "    (" + pythonString(s.label) + ", " + x + ", on_axis(" +
               numpyFormula(s.formula, chart.variable, x) + ", " + x + ")),  # " +
               pythonString(s.formula) + "\n";
    }
    out += "]\n";
    out += "attnbook_results[" + pythonString(id) +
           "] = {\"series\": [{\"label\": label, \"x\": xs, \"y\": ys} for label, xs, ys in "
           "series]}\n";
    out += "show_chart(" + pythonString(chart.title.empty() ? id : chart.title) + ", " +
           pythonString(chart.variable) + ", series" + (chart.xLog ? ", x_log=True" : "") +
           (chart.yLog ? ", y_log=True" : "") + ")\n";
    std::string title = "**Chart `" + id + "`**";
    if (!chart.title.empty()) {
        title += ": " + markdownLiteral(chart.title);
    }
    title += "\n\n" + plural(int(chart.series.size()), "formula", "formulas") + " of " +
             markdownLiteral(chart.variable) + " from " + number(chart.from) + " to " +
             number(chart.to) + ", at " + std::to_string(std::max(chart.points, 2)) + " points" +
             (chart.xLog ? " spaced evenly on a log axis" : "") + ".\n";
    return {markdown(id + "-settings", title), code(id, out)};
}

// ---- Quizzes ----

// A quiz's text as boundMarkdown gives it, without raw HTML (a notebook would render it).
namespace {

std::string quizMarkdown(const std::string& text, const LessonResults& results) {
    return markdownWithoutHtml(boundMarkdown(text, results));
}

} // namespace

std::vector<NotebookCell> quizNotebookCells(const std::string& id, const QuizCellSpec& quiz,
                                            int number, const Json* answer,
                                            const LessonResults& results) {
    std::string text = "**Question " + std::to_string(number) + ".** " +
                       quizMarkdown(quiz.question, results) + "\n";
    for (size_t i = 0; i < quiz.choices.size(); ++i) {
        text += std::string(i ? "" : "\n") + "- **" + char('A' + int(i)) + ".** " +
                quizMarkdown(quiz.choices[i], results) + "\n";
    }
    text += "\n<details><summary>Answer</summary>\n\n";
    switch (quiz.answerKind) {
    case QuizCellSpec::AnswerKind::Choice: {
        const int i = answer && answer->isNumber() ? int(answer->number()) : quiz.choice;
        text += std::string("**Answer: ") + char('A' + i) + ".**";
        if (i >= 0 && size_t(i) < quiz.choices.size()) {
            text += " " + quizMarkdown(quiz.choices[size_t(i)], results);
        }
        break;
    }
    case QuizCellSpec::AnswerKind::Number:
    case QuizCellSpec::AnswerKind::Binding: {
        const double v = answer && answer->isNumber() ? answer->number() : quiz.number;
        text += "**Answer: " + readableNumber(v, 4) + "**";
        break;
    }
    case QuizCellSpec::AnswerKind::Text:
        text += "**Sample answer:** " + quizMarkdown(quiz.text, results);
        break;
    }
    text += "\n";
    if (!quiz.explain.empty()) {
        text += "\n" + quizMarkdown(quiz.explain, results) + "\n";
    }
    text += "\n</details>\n";
    return {markdown(id, text)};
}

} // namespace attnbook

// Reading a cell: its YAML parsed and handed to the reader of its kind (the attention reader
// here; quiz_reader.cpp, chart_reader.cpp, transformer_reader.cpp), each reporting every
// problem with its file position instead of stopping at the first.
#include "core/document/cell_reader.h"

#include "core/document/body_reader.h"

#include "core/document/file_value.h"
#include "core/document/matrix_names.h"
#include "core/document/setting_words.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string_view>

namespace attnbook {

FilePosition ValuePositions::of(const std::string& key, int row, int col) const {
    if (row >= 0) {
        const auto it = elements.find(key);
        if (it != elements.end() && size_t(row) < it->second.size()) {
            const auto& cells = it->second[size_t(row)];
            if (col >= 0 && size_t(col) < cells.size()) {
                return cells[size_t(col)];
            }
            if (!cells.empty()) {
                return cells.front();
            }
        }
    }
    if (const auto it = values.find(key); it != values.end()) {
        return it->second;
    }
    if (const auto it = keys.find(key); it != keys.end()) {
        return it->second;
    }
    return {};
}

const std::vector<std::string>& attentionViewNames() {
    static const std::vector<std::string> names = {"matrices",   "heatmap", "shares",
                                                   "arithmetic", "trace",   "gradients"};
    return names;
}

const std::vector<std::string>& attentionControlNames() {
    static const std::vector<std::string> names = {"tokens",     "vectors", "heads",      "mask",
                                                   "positional", "scale",   "projections"};
    return names;
}

std::string closestName(const std::string& name, const std::vector<std::string>& candidates) {
    // Levenshtein distance, case-insensitive; suggest within two edits.
    const auto distance = [](std::string a, std::string b) {
        std::transform(a.begin(), a.end(), a.begin(), ::tolower);
        std::transform(b.begin(), b.end(), b.begin(), ::tolower);
        std::vector<size_t> row(b.size() + 1);
        for (size_t j = 0; j <= b.size(); ++j) {
            row[j] = j;
        }
        for (size_t i = 1; i <= a.size(); ++i) {
            size_t diagonal = row[0];
            row[0] = i;
            for (size_t j = 1; j <= b.size(); ++j) {
                const size_t above = row[j];
                row[j] = std::min(
                    {row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
                diagonal = above;
            }
        }
        return row[b.size()];
    };
    std::string best;
    size_t bestDistance = 3;
    for (const std::string& candidate : candidates) {
        const size_t d = distance(name, candidate);
        if (d < bestDistance) {
            best = candidate;
            bestDistance = d;
        }
    }
    return best;
}

namespace {

const std::vector<std::string>& attentionKeys() {
    static const std::vector<std::string> keys = {
        "tokens",       "vocab",    "X",          "heads", "d_k",      "d_v",      "scale",
        "mask",         "padding",  "positional", "W_Q",   "W_K",      "W_V",      "W_O",
        "b_Q",          "b_K",      "b_V",        "b_O",   "queries",  "keys",     "values",
        "query_tokens", "upstream", "focus",      "views", "controls", "worksheet"};
    return keys;
}

bool isProjectionKey(const std::string& key) {
    static const std::set<std::string> keys = {"W_Q", "W_K", "W_V",   "W_O", "b_Q",       "b_K",
                                               "b_V", "b_O", "vocab", "X",   "positional"};
    return keys.count(key) != 0;
}

bool isLayerKey(const std::string& key) {
    static const std::set<std::string> keys = {"heads",   "d_k", "d_v", "scale", "mask",
                                               "padding", "W_Q", "W_K", "W_V",   "W_O",
                                               "b_Q",     "b_K", "b_V", "b_O"};
    return keys.count(key) != 0;
}

} // namespace

void readNameList(BodyReader& in, const YamlNode& node, const std::string& key,
                  const std::vector<std::string>& allowed, std::vector<std::string>& out) {
    if (!node.isSequence()) {
        in.error(node.at, key + " must be a list, like [" + allowed[0] + ", " + allowed[1] + "]");
        return;
    }
    out.clear();
    for (const YamlNode& item : node.items) {
        if (!item.isScalar() ||
            std::find(allowed.begin(), allowed.end(), item.scalar) == allowed.end()) {
            std::string list;
            for (const std::string& name : allowed) {
                list += (list.empty() ? "" : ", ") + name;
            }
            in.error(item.at, "unknown " + key + " entry " + item.describe() + "; use " + list);
            continue;
        }
        out.push_back(item.scalar);
    }
}

std::optional<WorksheetSpec> readWorksheet(BodyReader& in, const YamlNode& node) {
    if (!node.isMap()) {
        in.error(node.at, "worksheet must be a map with blank:, vary: and max_score:");
        return std::nullopt;
    }
    WorksheetSpec sheet;
    static const std::vector<std::string> blankable = {
        "X", "Q", "K", "V", "scores", "weights", "context", "concat", "output"};
    for (const auto& [key, value] : node.entries) {
        if (key.scalar == "blank") {
            readNameList(in, value, "worksheet.blank", blankable, sheet.blank);
        } else if (key.scalar == "vary") {
            if (!value.isMap()) {
                in.error(value.at, "worksheet.vary must be a map, like {vocab: {min: -2, max: 2}}");
                continue;
            }
            static const std::vector<std::string> varyable = {
                "vocab", "X", "W_Q", "W_K", "W_V", "W_O", "queries", "keys", "values"};
            for (const auto& [what, range] : value.entries) {
                if (std::find(varyable.begin(), varyable.end(), what.scalar) == varyable.end()) {
                    in.error(what.at, "worksheet.vary cannot vary '" + what.scalar + "'");
                    continue;
                }
                WorksheetSpec::Range r;
                if (range.isMap()) {
                    if (const YamlNode* lo = range.find("min")) {
                        r.min = in.integer(*lo, "min", -1000000).value_or(r.min);
                    }
                    if (const YamlNode* hi = range.find("max")) {
                        r.max = in.integer(*hi, "max", -1000000).value_or(r.max);
                    }
                    if (const YamlNode* step = range.find("step")) {
                        const std::optional<double> s = in.number(*step, "step");
                        // max − min must be a whole number of steps, at most 400 of them.
                        const double steps = s && *s > 0 ? (r.max - r.min) / *s : -1;
                        if (s && (!(*s > 0) || steps > 400 ||
                                  std::abs(steps - std::round(steps)) > 1e-9)) {
                            in.error(step->at, "step must divide max − min into at most 400 "
                                               "equal steps (1, 0.5 or 0.25, say)");
                        } else if (s) {
                            r.step = *s;
                        }
                    }
                } else if (!range.isNull()) {
                    in.error(range.at, "a range is {min: -2, max: 2}, with step: 0.5 for halves");
                }
                if (r.min > r.max) {
                    in.error(range.at, "min is larger than max");
                }
                sheet.vary[what.scalar] = r;
            }
        } else if (key.scalar == "max_score") {
            const std::optional<double> limit = in.number(value, "worksheet.max_score");
            if (limit && !(*limit > 0)) {
                in.error(value.at, "worksheet.max_score must be a number above 0");
            } else if (limit) {
                sheet.maxScore = *limit;
            }
        } else {
            in.warning(key.at, "unknown worksheet key '" + key.scalar + "'");
        }
    }
    return sheet;
}

namespace {

// What reading the vocab leaves for matching the tokens to it afterwards.
struct VocabReading {
    std::set<std::string> broken; // labels whose vector has its own error already
    bool fromFileFailed = false;  // its error is reported; tokens are not checked
};

// False, with the reason reported, for a key the attention reader does not read here: unknown,
// not one layer's, or a projection key in direct mode.
bool acceptedAttentionKey(BodyReader& in, const YamlNode& key, AttentionRole role, bool direct) {
    const std::string& k = key.scalar;
    if (std::find(attentionKeys().begin(), attentionKeys().end(), k) == attentionKeys().end()) {
        const std::string guess = closestName(k, attentionKeys());
        in.warning(key.at, "unknown key '" + k + "'" +
                               (guess.empty() ? "" : " — did you mean '" + guess + "'?"));
        return false;
    }
    if (role == AttentionRole::Layer && !isLayerKey(k)) {
        in.error(key.at, "'" + k +
                             "' is not a key of one layer's attention (heads, d_k, d_v, "
                             "scale, mask, padding, W_Q, W_K, W_V, W_O, b_Q, b_K, b_V, b_O)");
        return false;
    }
    if (direct && isProjectionKey(k)) {
        in.error(key.at, "'" + k +
                             "' has no meaning in direct mode (queries, keys, values "
                             "are given as they are)");
        return false;
    }
    return true;
}

void readVocabFile(BodyReader& in, const YamlNode& value, AttentionCellSpec& spec,
                   VocabReading& vocab) {
    if (const std::optional<LoadedVocab> loaded = in.fileVocab(value)) {
        for (size_t r = 0; r < loaded->labels.size(); ++r) {
            spec.vocab[loaded->labels[r]] = loaded->vectors.row(arma::uword(r));
        }
        spec.vocabOrder = loaded->labels;
    } else {
        vocab.fromFileFailed = true;
    }
}

void readVocabMap(BodyReader& in, const YamlNode& value, AttentionCellSpec& spec,
                  VocabReading& vocab) {
    if (!value.isMap()) {
        in.error(value.at, "vocab must map each token to its vector, like red: [1, 0]");
        return;
    }
    for (const auto& [label, vec] : value.entries) {
        vocab.broken.insert(label.scalar); // until its vector reads well
        // A word's vector may be read from a file (a row of a kept .safetensors).
        const std::string key = isFileValue(vec) ? "vocab." + label.scalar : "";
        if (const auto v = in.vector(vec, key, "the vector of '" + label.scalar + "'")) {
            if (!spec.vocab.empty() && v->n_elem != spec.vocab.begin()->second.n_elem) {
                in.error(vec.at, "the vector of '" + label.scalar + "' has " +
                                     std::to_string(v->n_elem) + " numbers, but '" +
                                     spec.vocabOrder.front() + "' has " +
                                     std::to_string(spec.vocab.at(spec.vocabOrder.front()).n_elem) +
                                     " (every vector needs the model width)");
                continue;
            }
            if (v->n_elem == 0) {
                in.error(vec.at, "the vector of '" + label.scalar + "' is empty");
                continue;
            }
            spec.vocab[label.scalar] = *v;
            spec.vocabOrder.push_back(label.scalar);
            vocab.broken.erase(label.scalar);
        }
    }
}

void readScale(BodyReader& in, const YamlNode& value, AttentionConfig& c) {
    if (const auto b = yamlBool(value)) {
        c.scaleKind = *b ? ScaleKind::InverseSqrtDk : ScaleKind::Off;
    } else if (const auto divisor = in.number(value, "scale (true, false or a divisor)")) {
        if (*divisor <= 0) {
            in.error(value.at, "a scale divisor must be > 0, not " + value.scalar);
        } else {
            c.scaleKind = ScaleKind::Divisor;
            c.scaleDivisor = *divisor;
        }
    }
}

void readPadding(BodyReader& in, const YamlNode& value, AttentionConfig& c) {
    if (value.isScalar() && value.scalar == "none") {
        c.padding.clear();
    } else if (value.isSequence()) {
        for (const YamlNode& flag : value.items) {
            const auto b = yamlBool(flag);
            if (!b) {
                in.error(flag.at,
                         "each padding flag must be true or false, not " + flag.describe());
            }
            c.padding.push_back(b.value_or(false));
        }
    } else {
        in.error(value.at, "padding must be none or a list of true/false flags");
    }
}

void readPositional(BodyReader& in, const YamlNode& value, AttentionConfig& c) {
    const auto named = value.isScalar() ? positionalNamed(value.scalar) : std::nullopt;
    if (named && *named != PositionalKind::Learned) { // "learned" is the matrix itself
        c.positional = *named;
    } else if (value.isSequence() || isFileValue(value)) {
        if (const auto m = in.matrix(value, "positional")) {
            c.positional = PositionalKind::Learned;
            c.learnedP = *m;
        }
    } else {
        in.error(value.at, "positional must be none, sinusoidal or an n × d matrix");
    }
}

// W_Q … W_O, b_Q … b_O, queries, keys, values (X, read apart, is the only other).
void readInputMatrix(BodyReader& in, const std::string& k, const YamlNode& value,
                     const InputMatrixName& named, AttentionConfig& c) {
    if (named.projection) {
        Projection& p = c.*(named.projection);
        if (value.isScalar() && value.scalar == "identity") {
            p.identity = true;
        } else if (const auto m = in.matrix(value, k)) {
            p.identity = false;
            p.weights = *m;
        }
    } else if (named.bias) {
        if (const auto v = in.vector(value, k, k)) {
            c.*(named.bias) = *v;
        }
    } else if (const auto m = in.matrix(value, k)) {
        c.*(named.matrix) = *m;
    }
}

// One accepted key of an attention cell into `spec`.
void readAttentionKey(BodyReader& in, const std::string& k, const YamlNode& value, bool direct,
                      AttentionCellSpec& spec, VocabReading& vocab) {
    AttentionConfig& c = spec.config;
    if (k == "tokens") {
        if (const auto list = in.textList(value, "tokens")) {
            c.tokens = *list;
            if (value.items.empty() && !direct) {
                in.error(value.at, "a cell needs at least one token: tokens is empty");
            }
        }
    } else if (k == "query_tokens") {
        if (const auto list = in.textList(value, "query_tokens")) {
            c.queryTokens = *list;
        }
    } else if (k == "vocab" && isFileValue(value)) {
        readVocabFile(in, value, spec, vocab);
    } else if (k == "vocab") {
        readVocabMap(in, value, spec, vocab);
    } else if (k == "X") {
        if (const auto m = in.matrix(value, "X")) {
            c.X0 = *m;
        }
    } else if (k == "heads") {
        c.heads = in.integer(value, "heads", 1).value_or(1);
    } else if (k == "d_k" || k == "d_v") {
        if (const auto w = in.integer(value, k, 1)) {
            (k == "d_k" ? c.dK : c.dV) = *w;
        }
    } else if (k == "scale") {
        readScale(in, value, c);
    } else if (k == "mask") {
        if (const auto mask = value.isScalar() ? maskNamed(value.scalar) : std::nullopt) {
            c.mask = *mask;
        } else {
            in.error(value.at, "mask must be none or causal, not " + value.describe());
        }
    } else if (k == "padding") {
        readPadding(in, value, c);
    } else if (k == "positional") {
        readPositional(in, value, c);
    } else if (const InputMatrixName* named = inputMatrixOfKey(k)) {
        readInputMatrix(in, k, value, *named, c);
    } else if (k == "upstream") {
        if (value.isScalar() && value.scalar == "ones") {
            c.upstream.reset();
        } else if (const auto m = in.matrix(value, "upstream")) {
            c.upstream = *m;
        }
    } else if (k == "focus") {
        c.focus = in.integer(value, "focus", 0).value_or(0);
    } else if (k == "views") {
        readNameList(in, value, "views", attentionViewNames(), spec.views);
    } else if (k == "controls") {
        readNameList(in, value, "controls", attentionControlNames(), spec.controls);
    } else if (k == "worksheet") {
        spec.worksheet = readWorksheet(in, value);
    }
}

// X built from the vocab, one row per token, with each row placed at its token.
void tokenVectorsFromVocab(BodyReader& in, const YamlNode& tokensNode, AttentionCellSpec& spec,
                           const VocabReading& vocab) {
    AttentionConfig& c = spec.config;
    const arma::uword d = spec.vocab.begin()->second.n_elem;
    c.X0.set_size(c.tokens.size(), d);
    std::vector<std::vector<FilePosition>> rowPlaces; // X's row r is token r
    for (const YamlNode& item : tokensNode.items) {
        rowPlaces.push_back({item.at});
    }
    in.setElements("X", std::move(rowPlaces));
    for (size_t r = 0; r < c.tokens.size(); ++r) {
        const auto it = spec.vocab.find(c.tokens[r]);
        if (it == spec.vocab.end()) {
            if (vocab.broken.count(c.tokens[r]) == 0 && !vocab.fromFileFailed) {
                in.error(tokensNode.items[r].at,
                         "the token '" + c.tokens[r] + "' is not in the vocab");
            }
            continue;
        }
        c.X0.row(r) = it->second;
    }
}

// A cell in projection mode: its tokens and their vectors, given once as vocab or as X.
void checkTokenVectors(BodyReader& in, const YamlNode& body, AttentionCellSpec& spec,
                       const VocabReading& vocab) {
    const AttentionConfig& c = spec.config;
    const YamlNode* tokensNode = body.find("tokens");
    const YamlNode* vocabNode = body.find("vocab");
    const YamlNode* xNode = body.find("X");
    if (!tokensNode) {
        in.error(body.at, "an attention cell needs tokens (or queries, keys and values)");
    }
    if (vocabNode && xNode) {
        in.error(xNode->at, "give the token vectors either as vocab or as X, not both");
    } else if (!vocabNode && !xNode && tokensNode) {
        in.error(tokensNode->at, "the tokens need vectors: add a vocab (or an X matrix)");
    } else if (vocabNode && tokensNode && tokensNode->isSequence() && !spec.vocab.empty()) {
        tokenVectorsFromVocab(in, *tokensNode, spec, vocab);
    } else if (xNode && !c.X0.is_empty() && c.X0.n_rows != c.tokens.size() && tokensNode) {
        in.error(xNode->at, "X has " + std::to_string(c.X0.n_rows) + " rows for " +
                                std::to_string(c.tokens.size()) + " tokens");
    }
}

} // namespace

std::optional<AttentionCellSpec> readAttention(BodyReader& in, const YamlNode& body,
                                               AttentionRole role) {
    AttentionCellSpec spec;
    spec.views = {"matrices", "heatmap"};
    spec.controls = attentionControlNames();
    const int errorsBefore = in.errorCount();

    const bool direct = body.find("queries") || body.find("keys") || body.find("values");
    spec.config.direct = direct;

    VocabReading vocab;
    for (const auto& [key, value] : body.entries) {
        in.note(key.scalar, key, value);
        if (acceptedAttentionKey(in, key, role, direct)) {
            readAttentionKey(in, key.scalar, value, direct, spec, vocab);
        }
    }

    if (role == AttentionRole::Layer) {
        // One layer of a transformer cell: its input is the residual stream, not tokens.
    } else if (direct) {
        for (const char* needed : {"queries", "keys", "values"}) {
            if (!body.find(needed)) {
                in.error(body.at, std::string("direct mode needs queries, keys and values; '") +
                                      needed + "' is missing");
            }
        }
    } else {
        checkTokenVectors(in, body, spec, vocab);
    }
    if (in.errorCount() != errorsBefore) {
        return std::nullopt;
    }
    spec.loadedFrom = in.loadedFrom();
    spec.fileValues = in.fileValues();
    return spec;
}

ReadCell readCellBody(CellKind kind, const std::string& id, const YamlNode& body,
                      std::vector<Diagnostic>& diagnostics, const DataFiles* files) {
    ReadCell read;
    BodyReader in(id, read.positions, diagnostics, files, read.dataFiles);
    if (!body.isMap()) {
        in.error(body.at, std::string("the body of ") + cellKindName(kind) + " cell '" + id +
                              "' must be YAML keys and values, like heads: 1");
        return read;
    }
    switch (kind) {
    case CellKind::Attention:
        if (auto spec = readAttention(in, body)) {
            read.spec = std::move(*spec);
        }
        break;
    case CellKind::Quiz:
        if (auto spec = readQuiz(in, body)) {
            read.spec = std::move(*spec);
        }
        break;
    case CellKind::Chart:
        if (auto spec = readChart(in, body)) {
            read.spec = std::move(*spec);
        }
        break;
    case CellKind::Transformer:
        if (auto spec = readTransformer(in, body)) {
            read.spec = std::move(*spec);
        }
        break;
    }
    return read;
}

std::string cellYamlText(const CellBlock& cell) {
    std::string yaml;
    size_t start = 0;
    while (start < cell.body.size()) {
        size_t end = cell.body.find('\n', start);
        end = end == std::string::npos ? cell.body.size() : end + 1;
        std::string_view line(cell.body.data() + start, end - start);
        for (int i = 0; i < cell.indent && !line.empty() && line.front() == ' '; ++i) {
            line.remove_prefix(1);
        }
        yaml.append(line);
        start = end;
    }
    return yaml;
}

ReadCell readCell(const CellBlock& cell, std::vector<Diagnostic>& diagnostics,
                  const DataFiles* files, ModelBodies* models) {
    if (!cell.closed || cell.id.empty() || !isValidCellId(cell.id)) {
        return {};
    }
    std::shared_ptr<const YamlNode> body; // parseYaml's, not copied
    try {
        body = parsedYaml(cellYamlText(cell), cell.bodyFirstLine, cell.indent);
    } catch (const YamlError& e) {
        diagnostics.push_back({Severity::Error, e.at.line, e.at.column, e.what(), cell.id});
        return {};
    }
    return readParsedCell(cell, *body, diagnostics, files, models);
}

ReadCell readParsedCell(const CellBlock& cell, const YamlNode& parsed,
                        std::vector<Diagnostic>& diagnostics, const DataFiles* files,
                        ModelBodies* models) {
    if (!cell.closed || cell.id.empty() || !isValidCellId(cell.id)) {
        return {};
    }
    std::optional<YamlNode> empty;
    if (parsed.isNull()) {
        empty.emplace();
        empty->at = {cell.openLine, cell.indent + 1};
        empty->kind = YamlNode::Kind::Map; // an empty body: report what is missing
    }
    const YamlNode& body = empty ? *empty : parsed;
    if (cell.kind != CellKind::Transformer) {
        return readCellBody(cell.kind, cell.id, body, diagnostics, files);
    }
    static const ModelBodies none;
    std::optional<SharedModelUse> use;
    std::optional<YamlNode> withModel =
        withSharedModel(body, cell.id, models ? *models : none, diagnostics, use);
    ReadCell read;
    if (withModel) {
        read = readCellBody(cell.kind, cell.id, *withModel, diagnostics, files);
    }
    if (auto* spec = std::get_if<TransformerCellSpec>(&read.spec)) {
        spec->sharedModel = std::move(use);
    }
    if (models) {
        (*models)[cell.id] = read.ok() ? std::move(withModel) : std::optional<YamlNode>();
    }
    return read;
}

} // namespace attnbook

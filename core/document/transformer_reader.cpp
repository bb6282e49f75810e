// Reads a transformer cell (transformer.md, "The cell"): the token keys as an attention cell
// reads them, each layer's attention as one layer of an attention cell, and the decoder's own
// keys. Positions are filed under the path the math names in its errors
// ("layers[0].ffn.W_1", "final_ln.gamma"), so that a shape error points at its value.
#include "core/document/body_reader.h"
#include "core/document/setting_words.h"
#include "core/math/layer_norm.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <set>

namespace attnbook {

const std::vector<std::string>& transformerViewNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all = attentionViewNames();
        for (const char* own :
             {"stream", "ffn", "next", "generation", "cache", "blocks", "knockout", "training"}) {
            all.emplace_back(own);
        }
        return all;
    }();
    return names;
}

const std::vector<std::string>& transformerControlNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all = attentionControlNames();
        for (const char* own : {"layers", "norm", "ffn", "temperature", "generate", "train"}) {
            all.emplace_back(own);
        }
        return all;
    }();
    return names;
}

namespace {

const std::vector<std::string>& transformerKeys() {
    static const std::vector<std::string> keys = {
        "tokens",  "vocab",    "X",           "positional", "layers",   "eps",      "final_ln",
        "unembed", "b_U",      "temperature", "targets",    "upstream", "generate", "focus",
        "views",   "controls", "worksheet",   "block_size", "train",    "model"};
    return keys;
}

// The keys an attention cell reads the same way: read by readAttention itself.
bool isTokenKey(const std::string& key) {
    return key == "tokens" || key == "vocab" || key == "X" || key == "positional" || key == "focus";
}

void warnUnknown(BodyReader& in, const YamlNode& key, const std::vector<std::string>& known,
                 const std::string& where) {
    const std::string guess = closestName(key.scalar, known);
    in.warning(key.at, "unknown key '" + key.scalar + "'" + where +
                           (guess.empty() ? "" : " — did you mean '" + guess + "'?"));
}

// `none`, or {gamma: [...], beta: [...]} (each optional: ones, zeros).
LayerNormParams readNorm(BodyReader& in, const YamlNode& node, const std::string& key) {
    LayerNormParams ln;
    if (node.isScalar() && node.scalar == "none") {
        ln.identity = true;
        return ln;
    }
    if (!node.isMap()) {
        in.error(node.at,
                 key + " must be none or {gamma: [...], beta: [...]}, not " + node.describe());
        return ln;
    }
    for (const auto& [name, value] : node.entries) {
        const std::string path = key + "." + name.scalar;
        in.note(path, name, value);
        if (name.scalar == "gamma" || name.scalar == "beta") {
            if (const auto v = in.vector(value, path, path)) {
                (name.scalar == "gamma" ? ln.gamma : ln.beta) = *v;
            }
        } else {
            warnUnknown(in, name, {"gamma", "beta"}, " in " + key);
        }
    }
    return ln;
}

// `none`, or {W_1, b_1, W_2, b_2, activation}.
FeedForwardParams readFeedForward(BodyReader& in, const YamlNode& node) {
    FeedForwardParams ffn;
    if (node.isScalar() && node.scalar == "none") {
        ffn.present = false;
        return ffn;
    }
    if (!node.isMap()) {
        in.error(node.at, "ffn must be none or {W_1: ..., b_1: ..., W_2: ..., b_2: ..., "
                          "activation: gelu}, not " +
                              node.describe());
        return ffn;
    }
    static const std::vector<std::string> keys = {"W_1", "b_1", "W_2", "b_2", "activation"};
    for (const auto& [name, value] : node.entries) {
        const std::string& k = name.scalar;
        const std::string path = "ffn." + k;
        in.note(path, name, value);
        if (k == "W_1" || k == "W_2") {
            if (const auto m = in.matrix(value, path)) {
                (k == "W_1" ? ffn.W1 : ffn.W2) = *m;
            }
        } else if (k == "b_1" || k == "b_2") {
            if (const auto v = in.vector(value, path, path)) {
                (k == "b_1" ? ffn.b1 : ffn.b2) = *v;
            }
        } else if (k == "activation") {
            if (const auto kind = value.isScalar() && !value.quoted
                                      ? activationFromKey(value.scalar)
                                      : std::nullopt) {
                ffn.activation = *kind;
            } else {
                in.error(value.at,
                         "activation must be gelu, gelu_tanh or relu, not " + value.describe());
            }
        } else {
            warnUnknown(in, name, keys, " in ffn");
        }
    }
    for (const char* needed : {"W_1", "W_2"}) {
        if (!node.find(needed)) {
            in.error(node.at, std::string("the ffn needs ") + needed +
                                  " (W_1 is d_ff × d, W_2 is d × d_ff), or write ffn: none");
        }
    }
    return ffn;
}

std::optional<TransformerLayer> readLayer(BodyReader& in, const YamlNode& node, int index) {
    const std::string prefix = "layers[" + std::to_string(index) + "].";
    if (!node.isMap()) {
        in.error(node.at, "each layer must be a map with attention:, ln1:, ffn: and ln2:, not " +
                              node.describe());
        return std::nullopt;
    }
    in.positions().values[prefix.substr(0, prefix.size() - 1)] = node.at;
    TransformerLayer layer;
    ValuePositions attentionPositions, ownPositions;
    BodyReader attention = in.part(attentionPositions);
    BodyReader own = in.part(ownPositions);
    for (const auto& [name, value] : node.entries) {
        const std::string& k = name.scalar;
        own.note(k, name, value);
        if (k == "attention") {
            if (!value.isMap()) {
                attention.error(value.at, "attention must be a map of one layer's keys, like "
                                          "{heads: 2, mask: causal}");
            } else if (auto spec = readAttention(attention, value, AttentionRole::Layer)) {
                layer.attention = std::move(spec->config);
            }
        } else if (k == "ln1" || k == "ln2") {
            (k == "ln1" ? layer.ln1 : layer.ln2) = readNorm(own, value, k);
        } else if (k == "ffn") {
            layer.ffn = readFeedForward(own, value);
        } else {
            warnUnknown(own, name, {"attention", "ln1", "ln2", "ffn"}, " in a layer");
        }
    }
    if (!node.find("attention")) {
        own.error(node.at, "layer " + std::to_string(index) +
                               " needs attention: (its heads, mask and weights)");
    }
    if (!node.find("ffn")) {
        own.error(node.at, "layer " + std::to_string(index) +
                               " needs ffn: (W_1, b_1, W_2, b_2), or ffn: none");
    }
    const int errors = attention.errorCount() + own.errorCount();
    in.mergePart(attention, prefix + "attention.");
    in.mergePart(own, prefix);
    if (errors > 0) {
        return std::nullopt;
    }
    return layer;
}

// `unembed:` a matrix of words: {file: PATH, labels: PATH}, or a map word → vector.
void readUnembed(BodyReader& in, const YamlNode& value, TransformerConfig& c) {
    if (value.isScalar() && value.scalar == "tied") {
        c.tiedUnembed = true;
        return;
    }
    c.tiedUnembed = false;
    if (isFileValue(value)) {
        if (const std::optional<LoadedVocab> loaded = in.fileVocab(value)) {
            c.unembed = loaded->vectors;
            c.unembedLabels = loaded->labels;
        }
        return;
    }
    if (!value.isMap() || value.entries.empty()) {
        in.error(value.at, "unembed must be tied, a map of words to vectors, or {file: PATH, "
                           "labels: PATH}, not " +
                               value.describe());
        return;
    }
    std::vector<arma::rowvec> rows;
    for (const auto& [label, vec] : value.entries) {
        const std::string key = isFileValue(vec) ? "unembed." + label.scalar : "";
        const auto v = in.vector(vec, key, "the unembedding of '" + label.scalar + "'");
        if (!v) {
            continue;
        }
        if (!rows.empty() && v->n_elem != rows.front().n_elem) {
            in.error(vec.at, "the unembedding of '" + label.scalar + "' has " +
                                 std::to_string(v->n_elem) + " numbers, but the first has " +
                                 std::to_string(rows.front().n_elem));
            continue;
        }
        rows.push_back(*v);
        c.unembedLabels.push_back(label.scalar);
    }
    c.unembed.set_size(rows.size(), rows.empty() ? 0 : rows.front().n_elem);
    for (size_t r = 0; r < rows.size(); ++r) {
        c.unembed.row(arma::uword(r)) = rows[r];
    }
}

void readGenerate(BodyReader& in, const YamlNode& value, TransformerConfig& c) {
    if (value.isScalar() && value.scalar == "none") {
        c.generate.reset();
        return;
    }
    if (!value.isMap()) {
        in.error(value.at, "generate must be {steps: 4, pick: greedy} or {steps: 4, pick: "
                           "sample, seed: 7}, not " +
                               value.describe());
        return;
    }
    GenerateRequest request;
    for (const auto& [name, v] : value.entries) {
        in.note("generate." + name.scalar, name, v);
        if (name.scalar == "steps") {
            request.steps = in.integer(v, "generate.steps", 0).value_or(0);
        } else if (name.scalar == "pick") {
            if (const auto pick = v.isScalar() ? pickNamed(v.scalar) : std::nullopt) {
                request.pick = *pick;
            } else {
                in.error(v.at, "pick must be greedy or sample, not " + v.describe());
            }
        } else if (name.scalar == "seed") {
            // splitmix64's state is 64 bits (transformer.md): read the digits, not a double.
            const bool digits = v.isScalar() && !v.quoted && !v.scalar.empty() &&
                                v.scalar.size() <= 20 &&
                                std::all_of(v.scalar.begin(), v.scalar.end(),
                                            [](char c) { return c >= '0' && c <= '9'; });
            errno = 0;
            const unsigned long long seed =
                digits ? std::strtoull(v.scalar.c_str(), nullptr, 10) : 0;
            if (!digits || errno == ERANGE) {
                in.error(
                    v.at,
                    "generate.seed must be a whole number from 0 to 18446744073709551615, not " +
                        v.describe());
            } else {
                request.seed = std::uint64_t(seed);
            }
        } else {
            warnUnknown(in, name, {"steps", "pick", "seed"}, " in generate");
        }
    }
    if (!value.find("steps")) {
        in.error(value.at, "generate needs steps: (how many words to append)");
    }
    if (request.pick == PickKind::Sample && !value.find("seed")) {
        in.error(value.at, "pick: sample needs a seed, so that every reader draws the same words");
    }
    c.generate = request;
}

// The token keys (tokens, vocab, X, positions, ...), read as an attention cell reads them.
void readTokenKeys(BodyReader& in, const YamlNode& body, TransformerCellSpec& spec) {
    TransformerConfig& c = spec.config;
    YamlNode tokenKeys = body;
    tokenKeys.entries.clear();
    for (const auto& entry : body.entries) {
        if (isTokenKey(entry.first.scalar)) {
            tokenKeys.entries.push_back(entry);
        }
    }
    if (!body.find("tokens")) {
        in.error(body.at, "a transformer cell needs tokens (and a vocab or an X matrix)");
        return;
    }
    auto tokens = readAttention(in, tokenKeys, AttentionRole::Cell);
    if (!tokens) {
        return;
    }
    c.tokens = tokens->config.tokens;
    c.X0 = std::move(tokens->config.X0);
    c.positional = tokens->config.positional;
    c.learnedP = std::move(tokens->config.learnedP);
    c.focus = tokens->config.focus;
    spec.vocab = std::move(tokens->vocab);
    spec.vocabOrder = std::move(tokens->vocabOrder);
    spec.loadedFrom = std::move(tokens->loadedFrom);
    c.vocabLabels = spec.vocabOrder;
    if (!spec.vocabOrder.empty()) {
        c.vocab.set_size(spec.vocabOrder.size(), spec.vocab.at(spec.vocabOrder[0]).n_elem);
        for (size_t r = 0; r < spec.vocabOrder.size(); ++r) {
            c.vocab.row(arma::uword(r)) = spec.vocab.at(spec.vocabOrder[r]);
        }
    }
}

// A number above 0 (eps, temperature) into `into`, or a problem.
void readPositive(BodyReader& in, const YamlNode& value, const std::string& key, double& into) {
    if (const auto number = in.number(value, key)) {
        if (!(*number > 0)) {
            in.error(value.at, key + " must be a number above 0, not " + value.scalar);
        }
        into = *number;
    }
}

void readLayers(BodyReader& in, const YamlNode& value, TransformerConfig& c) {
    if (!value.isSequence() || value.items.empty()) {
        in.error(value.at, "layers must be a list of blocks, each {attention: ..., ln1: "
                           "..., ffn: ..., ln2: ...}");
        return;
    }
    for (size_t l = 0; l < value.items.size(); ++l) {
        if (auto layer = readLayer(in, value.items[l], int(l))) {
            c.layers.push_back(std::move(*layer));
        }
    }
}

// One key of transformerKeys() other than the token keys and targets (read after the
// others: it names the words the cell scores).
void readTransformerKey(BodyReader& in, const std::string& k, const YamlNode& value,
                        TransformerCellSpec& spec) {
    TransformerConfig& c = spec.config;
    if (k == "layers") {
        readLayers(in, value, c);
    } else if (k == "final_ln") {
        c.finalLn = readNorm(in, value, "final_ln");
    } else if (k == "eps") {
        readPositive(in, value, "eps", c.eps);
    } else if (k == "unembed") {
        readUnembed(in, value, c);
    } else if (k == "b_U") {
        if (const auto v = in.vector(value, "b_U", "b_U")) {
            c.unembedBias = *v;
        }
    } else if (k == "temperature") {
        readPositive(in, value, "temperature", c.temperature);
    } else if (k == "upstream") {
        if (value.isScalar() && value.scalar == "ones") {
            c.upstream.reset();
        } else if (const auto m = in.matrix(value, "upstream")) {
            c.upstream = *m;
        }
    } else if (k == "generate") {
        readGenerate(in, value, c);
    } else if (k == "block_size") {
        spec.blockSize = in.integer(value, "block_size", 1).value_or(2);
    } else if (k == "views") {
        readNameList(in, value, "views", transformerViewNames(), spec.views);
    } else if (k == "controls") {
        readNameList(in, value, "controls", transformerControlNames(), spec.controls);
    } else if (k == "worksheet") {
        spec.worksheet = readWorksheet(in, value);
    }
}

// targets: one word (or ~) per token, named among the words the logits score.
void readTargets(BodyReader& in, const YamlNode& node, TransformerConfig& c) {
    const std::vector<std::string>& words = c.words();
    if (!node.isSequence()) {
        in.error(node.at, "targets must be a list with one word (or ~) per token");
        return;
    }
    if (node.items.size() != c.tokens.size() && !c.tokens.empty()) {
        in.error(node.at, "targets has " + std::to_string(node.items.size()) + " entries for " +
                              std::to_string(c.tokens.size()) +
                              " tokens (write ~ where a token has no target)");
        return;
    }
    std::vector<FilePosition> places;
    for (const YamlNode& item : node.items) {
        places.push_back(item.at);
        if (item.isNull()) {
            c.targets.push_back(-1);
            continue;
        }
        const auto found =
            item.isScalar() ? std::find(words.begin(), words.end(), item.scalar) : words.end();
        if (found == words.end()) {
            if (!words.empty()) {
                in.error(item.at, "the target " + item.describe() +
                                      " is not one of the words the cell scores");
            }
            c.targets.push_back(-1);
            continue;
        }
        c.targets.push_back(int(found - words.begin()));
    }
    in.positions().elements["targets"] = {places};
}

} // namespace

std::optional<TransformerCellSpec> readTransformer(BodyReader& in, const YamlNode& body) {
    TransformerCellSpec spec;
    spec.views = {"stream", "next"};
    spec.controls = transformerControlNames();
    const int errorsBefore = in.errorCount();
    readTokenKeys(in, body, spec);
    const YamlNode* targetsNode = nullptr;
    const YamlNode* trainNode = nullptr;
    for (const auto& [key, value] : body.entries) {
        const std::string& k = key.scalar;
        in.note(k, key, value);
        if (isTokenKey(k)) {
            continue;
        }
        if (std::find(transformerKeys().begin(), transformerKeys().end(), k) ==
            transformerKeys().end()) {
            warnUnknown(in, key, transformerKeys(), "");
        } else if (k == "targets") {
            targetsNode = &value;
        } else if (k == "train") {
            trainNode = &value; // its words are read against the vocab, which may come later
        } else {
            readTransformerKey(in, k, value, spec);
        }
    }
    if (!body.find("layers")) {
        in.error(body.at, "a transformer cell needs layers: a list of blocks");
    }
    if (targetsNode) {
        readTargets(in, *targetsNode, spec.config);
    }
    if (trainNode) {
        spec.training = readTraining(in, *trainNode, spec.config.vocabLabels);
    }
    if (in.errorCount() != errorsBefore) {
        return std::nullopt;
    }
    for (const auto& [key, origin] : in.loadedFrom()) {
        spec.loadedFrom[key] = origin;
    }
    // The knock-outs cost L·h + 3L passes: computed when the cell shows them (and when a
    // binding reads them: parseLesson).
    spec.config.knockouts =
        std::find(spec.views.begin(), spec.views.end(), "knockout") != spec.views.end();
    return spec;
}

} // namespace attnbook

// Reads a transformer cell's `train` key (docs/training.md): the sentences (a YAML list of token
// lists, or a text file of one sentence a line), the optimiser and its settings, the random
// start, what moves and the step shown. Each problem points at its value.
#include "core/document/body_reader.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace attnbook {

namespace {

const std::vector<std::string>& trainKeys() {
    static const std::vector<std::string> keys = {"data", "held_out", "steps",     "optimizer",
                                                  "lr",   "init",     "trainable", "show"};
    return keys;
}

// Each sentence's words as rows of the vocab; an unknown word is an error at the sentence.
std::optional<std::vector<std::vector<int>>> sentences(BodyReader& in, const YamlNode& value,
                                                       const std::string& key,
                                                       const std::vector<std::string>& vocab) {
    std::vector<std::pair<std::vector<std::string>, FilePosition>> words;
    if (value.isSequence()) {
        for (const YamlNode& item : value.items) {
            const auto list = in.textList(item, "each sentence of " + key);
            if (!list) {
                return std::nullopt;
            }
            words.emplace_back(*list, item.at);
        }
    } else {
        const std::optional<std::string> text = in.fileText(value, key);
        if (!text) {
            return std::nullopt;
        }
        // Where the sentences came from, so that paper says "sentences", not "weights".
        in.loadedFrom()[key] = value.find("file")->scalar;
        std::istringstream lines(*text);
        for (std::string line; std::getline(lines, line);) {
            std::istringstream split(line);
            std::vector<std::string> sentence;
            for (std::string token; split >> token;) {
                sentence.push_back(token);
            }
            if (!sentence.empty()) {
                words.emplace_back(std::move(sentence), value.at);
            }
        }
    }
    std::vector<std::vector<int>> out;
    for (const auto& [sentence, at] : words) {
        std::vector<int> rows;
        for (const std::string& word : sentence) {
            const auto found = std::find(vocab.begin(), vocab.end(), word);
            if (found == vocab.end()) {
                const std::string guess = closestName(word, vocab);
                in.error(at, key + ": '" + word + "' is not in the vocab" +
                                 (guess.empty() ? "" : " — did you mean '" + guess + "'?"));
                return std::nullopt;
            }
            rows.push_back(int(found - vocab.begin()));
        }
        out.push_back(std::move(rows));
    }
    if (out.empty()) {
        in.error(value.at, key + " holds no sentence");
        return std::nullopt;
    }
    return out;
}

std::optional<std::uint64_t> seedOf(BodyReader& in, const YamlNode& v) {
    const bool digits =
        v.isScalar() && !v.quoted && !v.scalar.empty() && v.scalar.size() <= 20 &&
        std::all_of(v.scalar.begin(), v.scalar.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) {
        in.error(v.at, "train.init.seed must be a whole number from 0, not " + v.describe());
        return std::nullopt;
    }
    return std::strtoull(v.scalar.c_str(), nullptr, 10);
}

void readInit(BodyReader& in, const YamlNode& value, TrainingSpec& spec) {
    if (!value.isMap()) {
        in.error(value.at, "train.init must be {seed: 7, scale: 0.1}, not " + value.describe());
        return;
    }
    TrainingSpec::Init init;
    for (const auto& [name, v] : value.entries) {
        if (name.scalar == "seed") {
            init.seed = seedOf(in, v).value_or(0);
        } else if (name.scalar == "scale") {
            const auto scale = in.number(v, "train.init.scale");
            if (scale && (*scale <= 0 || !std::isfinite(*scale))) {
                in.error(v.at, "train.init.scale must be a number above 0");
            }
            init.scale = scale.value_or(0.1);
        } else {
            in.warning(name.at, "unknown key '" + name.scalar + "' in train.init");
        }
    }
    spec.init = init;
}

void readTrainable(BodyReader& in, const YamlNode& value, TrainingSpec& spec) {
    std::vector<std::string> names;
    readNameList(in, value, "train.trainable", {"attention", "ffn", "norm", "vocab"}, names);
    const auto has = [&](const char* name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    spec.trainable = {has("attention"), has("ffn"), has("norm"), has("vocab")};
}

} // namespace

std::optional<TrainingSpec> readTraining(BodyReader& in, const YamlNode& node,
                                         const std::vector<std::string>& vocab) {
    if (!node.isMap()) {
        in.error(node.at, "train must be a map: {data: [...], steps: 300, optimizer: adam, ...}");
        return std::nullopt;
    }
    const int errorsBefore = in.errorCount();
    TrainingSpec spec;
    bool hasData = false, hasSteps = false;
    const YamlNode* showNode = nullptr;
    for (const auto& [name, v] : node.entries) {
        const std::string& k = name.scalar;
        in.note("train." + k, name, v);
        if (k == "data") {
            hasData = true;
            spec.data = sentences(in, v, "train.data", vocab).value_or(spec.data);
        } else if (k == "held_out") {
            spec.heldOut = sentences(in, v, "train.held_out", vocab).value_or(spec.heldOut);
        } else if (k == "steps") {
            hasSteps = true;
            spec.steps = in.integer(v, "train.steps", 0).value_or(0);
        } else if (k == "optimizer") {
            if (v.isScalar() && (v.scalar == "sgd" || v.scalar == "adam")) {
                spec.optimizer = v.scalar == "sgd" ? TrainingSpec::Optimizer::Sgd
                                                   : TrainingSpec::Optimizer::Adam;
            } else {
                in.error(v.at, "train.optimizer must be sgd or adam, not " + v.describe());
            }
        } else if (k == "lr") {
            const auto lr = in.number(v, "train.lr");
            if (lr && (*lr <= 0 || !std::isfinite(*lr))) {
                in.error(v.at, "train.lr must be a number above 0");
            }
            spec.lr = lr.value_or(spec.lr);
        } else if (k == "init") {
            readInit(in, v, spec);
        } else if (k == "trainable") {
            readTrainable(in, v, spec);
        } else if (k == "show") {
            showNode = &v;
            spec.show = in.integer(v, "train.show", 0).value_or(-1);
        } else {
            const std::string guess = closestName(k, trainKeys());
            in.warning(name.at, "unknown key '" + k + "' in train" +
                                    (guess.empty() ? "" : " — did you mean '" + guess + "'?"));
        }
    }
    if (!hasData) {
        in.error(node.at, "train needs data: a list of sentences, or {file: PATH}");
    }
    if (!hasSteps) {
        in.error(node.at, "train needs steps: how many optimiser steps to take");
    }
    if (showNode && spec.show > spec.steps) {
        in.error(showNode->at,
                 "train.show must be between 0 and steps (" + std::to_string(spec.steps) + ")");
    }
    if (in.errorCount() != errorsBefore) {
        return std::nullopt;
    }
    return spec;
}

} // namespace attnbook

#include "core/document/shared_model.h"

#include "core/document/bindings.h"

#include <algorithm>
#include <cmath>

namespace attnbook {

const std::vector<std::string>& sharedModelKeys() {
    static const std::vector<std::string> keys = {"vocab",   "layers", "eps",  "final_ln",
                                                  "unembed", "b_U",    "train"};
    return keys;
}

bool isPromptKey(const std::string& key) {
    static const std::vector<std::string> keys = {"tokens", "targets", "temperature", "generate",
                                                  "focus"};
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

namespace {

struct ModelReference {
    std::string cell;
    FilePosition cellAt;
    int layers = 0; // 0: all
    FilePosition layersAt;
};

// `tiny` or {cell: tiny, layers: 1}; "" with `why` when it is neither.
std::optional<ModelReference> readReference(const YamlNode& node, std::string& why) {
    const std::string shape = "model must name a transformer cell above this one, like model: "
                              "tiny, or {cell: tiny, layers: 1} for its first block";
    ModelReference ref;
    if (node.isScalar() && !node.scalar.empty()) {
        ref.cell = node.scalar;
        ref.cellAt = node.at;
        return ref;
    }
    if (!node.isMap()) {
        why = shape + ", not " + node.describe();
        return std::nullopt;
    }
    for (const auto& [key, value] : node.entries) {
        if (key.scalar == "cell" && value.isScalar() && !value.scalar.empty()) {
            ref.cell = value.scalar;
            ref.cellAt = value.at;
        } else if (key.scalar == "layers") {
            std::string notNumber;
            const std::optional<double> k = yamlNumber(value, notNumber);
            if (!k || *k != std::floor(*k) || *k < 1 || *k > 1e6) {
                why = "model: layers must be a whole number ≥ 1, not " + value.describe();
                return std::nullopt;
            }
            ref.layers = int(*k);
            ref.layersAt = value.at;
        } else {
            why = shape;
            return std::nullopt;
        }
    }
    if (ref.cell.empty()) {
        why = shape;
        return std::nullopt;
    }
    return ref;
}

} // namespace

std::optional<YamlNode> withSharedModel(const YamlNode& body, const std::string& cellId,
                                        const ModelBodies& earlier,
                                        std::vector<Diagnostic>& diagnostics,
                                        std::optional<SharedModelUse>& use) {
    use.reset();
    const YamlNode* modelNode = body.isMap() ? body.find("model") : nullptr;
    if (!modelNode) {
        return body;
    }
    const auto fail = [&](FilePosition at, const std::string& message) {
        diagnostics.push_back({Severity::Error, at.line, at.column, message, cellId});
        return std::nullopt;
    };
    std::string why;
    const std::optional<ModelReference> ref = readReference(*modelNode, why);
    if (!ref) {
        return fail(modelNode->at, why);
    }
    const auto named = earlier.find(ref->cell);
    if (named == earlier.end()) {
        std::vector<std::string> ids;
        for (const auto& [id, unused] : earlier) {
            ids.push_back(id);
        }
        return fail(ref->cellAt, "model: there is no transformer cell '" + ref->cell +
                                     "' above this one" + didYouMean(ref->cell, ids));
    }
    if (!named->second) {
        return fail(ref->cellAt, "model: the cell '" + ref->cell +
                                     "' has errors of its own; its model is used once they are "
                                     "fixed");
    }
    const YamlNode& source = *named->second;
    YamlNode out = body;
    SharedModelUse taken{ref->cell, ref->layers, {}};
    for (const std::string& key : sharedModelKeys()) {
        const YamlNode* value = source.find(key);
        if (!value || body.find(key)) {
            continue;
        }
        YamlNode copied = *value;
        if (key == "layers" && ref->layers > 0) {
            if (!copied.isSequence() || ref->layers > int(copied.items.size())) {
                return fail(ref->layersAt,
                            "model: layers: " + std::to_string(ref->layers) + " asks for more " +
                                "blocks than the cell '" + ref->cell + "' has (" +
                                std::to_string(copied.isSequence() ? copied.items.size() : 0) +
                                ")");
            }
            copied.items.resize(size_t(ref->layers));
        }
        const auto keyEntry = std::find_if(source.entries.begin(), source.entries.end(),
                                           [&](const auto& e) { return e.first.scalar == key; });
        out.entries.emplace_back(keyEntry->first, std::move(copied));
        taken.keys.push_back(key);
    }
    if (ref->layers > 0 && body.find("layers")) {
        return fail(ref->layersAt, "model: layers takes the first blocks of '" + ref->cell +
                                       "', but this cell writes its own layers");
    }
    use = std::move(taken);
    return out;
}

} // namespace attnbook

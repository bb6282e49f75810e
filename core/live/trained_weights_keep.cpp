#include "core/live/trained_weights_keep.h"

#include "core/document/cell_editor.h"
#include "core/document/safetensors_writer.h"

#include <yaml-cpp/yaml.h>

namespace attnbook {

namespace {

// Collects the tensors of the file and gives the YAML value that reads each one back.
class WeightsFile {
  public:
    explicit WeightsFile(std::string fileName) : fileName_(std::move(fileName)) {}

    YAML::Node matrix(const std::string& name, const arma::mat& values) {
        tensors_.push_back({name, values, false});
        return reference(name);
    }
    YAML::Node vector(const std::string& name, const arma::rowvec& values) {
        tensors_.push_back({name, arma::mat(values), true});
        return reference(name);
    }
    // A map word → its row of `name` (V × d), as the vocab and a separate unembedding are given.
    YAML::Node rowsByWord(const std::string& name, const arma::mat& values,
                          const std::vector<std::string>& words) {
        tensors_.push_back({name, values, false});
        YAML::Node map(YAML::NodeType::Map);
        for (size_t r = 0; r < words.size(); ++r) {
            YAML::Node ref = reference(name);
            YAML::Node rows(YAML::NodeType::Sequence);
            rows.push_back(r);
            rows.push_back(r + 1);
            rows.SetStyle(YAML::EmitterStyle::Flow);
            ref["rows"] = rows;
            map[words[r]] = ref;
        }
        return map;
    }

    std::string bytes() const { return safetensorsBytes(tensors_); }
    const std::string& fileName() const { return fileName_; }

  private:
    YAML::Node reference(const std::string& name) const {
        YAML::Node ref(YAML::NodeType::Map);
        ref["file"] = fileName_;
        ref["tensor"] = name;
        ref.SetStyle(YAML::EmitterStyle::Flow);
        return ref;
    }

    std::string fileName_;
    std::vector<NamedTensor> tensors_;
};

// `none`, or {gamma, beta} read from the file (an empty γ or β is the default and stays out).
YAML::Node layerNorm(WeightsFile& file, const std::string& name, const LayerNormParams& ln) {
    if (ln.identity) {
        return YAML::Node("none");
    }
    YAML::Node out(YAML::NodeType::Map);
    if (!ln.gamma.is_empty()) {
        out["gamma"] = file.vector(name + ".gamma", ln.gamma);
    }
    if (!ln.beta.is_empty()) {
        out["beta"] = file.vector(name + ".beta", ln.beta);
    }
    return out;
}

void keepAttention(WeightsFile& file, const std::string& prefix, const AttentionConfig& a,
                   YAML::Node attention) {
    const struct {
        const char* key;
        const Projection AttentionConfig::*projection;
        const char* biasKey;
        const arma::rowvec AttentionConfig::*bias;
    } parts[] = {{"W_Q", &AttentionConfig::wQ, "b_Q", &AttentionConfig::bQ},
                 {"W_K", &AttentionConfig::wK, "b_K", &AttentionConfig::bK},
                 {"W_V", &AttentionConfig::wV, "b_V", &AttentionConfig::bV},
                 {"W_O", &AttentionConfig::wO, "b_O", &AttentionConfig::bO}};
    for (const auto& part : parts) {
        const Projection& p = a.*(part.projection);
        if (!p.identity) {
            attention[part.key] = file.matrix(prefix + part.key, p.weights);
        }
        if (const arma::rowvec& b = a.*(part.bias); !b.is_empty()) {
            attention[part.biasKey] = file.vector(prefix + part.biasKey, b);
        }
    }
    attention.SetStyle(YAML::EmitterStyle::Block);
}

void keepFeedForward(WeightsFile& file, const std::string& prefix, const FeedForwardParams& f,
                     YAML::Node layer) {
    if (!f.present) {
        layer["ffn"] = "none";
        return;
    }
    YAML::Node ffn = layer["ffn"];
    if (!ffn.IsMap()) {
        ffn = YAML::Node(YAML::NodeType::Map);
    }
    ffn["W_1"] = file.matrix(prefix + "W_1", f.W1);
    if (!f.b1.is_empty()) {
        ffn["b_1"] = file.vector(prefix + "b_1", f.b1);
    }
    ffn["W_2"] = file.matrix(prefix + "W_2", f.W2);
    if (!f.b2.is_empty()) {
        ffn["b_2"] = file.vector(prefix + "b_2", f.b2);
    }
    ffn.SetStyle(YAML::EmitterStyle::Block);
    layer["ffn"] = ffn;
}

std::string emitted(const YAML::Node& node) {
    YAML::Emitter out;
    out << node;
    return out.c_str();
}

} // namespace

std::variant<TrainedWeightsKeep, std::string> keepTrainedWeights(const Document& working,
                                                                 const std::string& cellId,
                                                                 const TransformerConfig& shown) {
    const CellBlock* cell = working.findCell(cellId);
    if (!cell) {
        return "there is no cell '" + cellId + "'";
    }
    YAML::Node body;
    try {
        body = YAML::Load(cell->body);
    } catch (const YAML::Exception& e) {
        return std::string("the cell's YAML does not read: ") + e.what();
    }
    if (!body.IsMap() || !body["train"]) {
        return "'" + cellId + "' does not train (it has no train key)";
    }
    if (body["model"]) {
        return "'" + cellId + "' takes its model from '" + body["model"].as<std::string>("") +
               "': keep the weights of that cell";
    }
    if (shown.vocab.is_empty() || shown.vocab.n_rows != shown.vocabLabels.size()) {
        return "'" + cellId + "' has no vocabulary to keep";
    }

    WeightsFile file(cellId + ".safetensors");
    std::vector<std::pair<std::string, std::string>> keys;
    keys.emplace_back("vocab", emitted(file.rowsByWord("vocab", shown.vocab, shown.vocabLabels)));

    YAML::Node layers = body["layers"] && body["layers"].IsSequence()
                            ? YAML::Clone(body["layers"])
                            : YAML::Node(YAML::NodeType::Sequence);
    for (size_t l = 0; l < shown.layers.size(); ++l) {
        const TransformerLayer& layer = shown.layers[l];
        const std::string prefix = "layers." + std::to_string(l) + ".";
        YAML::Node node =
            l < layers.size() && layers[l].IsMap() ? layers[l] : YAML::Node(YAML::NodeType::Map);
        YAML::Node attention = node["attention"];
        if (!attention.IsMap()) {
            attention = YAML::Node(YAML::NodeType::Map);
        }
        keepAttention(file, prefix + "attention.", layer.attention, attention);
        node["attention"] = attention;
        node["ln1"] = layerNorm(file, prefix + "ln1", layer.ln1);
        keepFeedForward(file, prefix + "ffn.", layer.ffn, node);
        node["ln2"] = layerNorm(file, prefix + "ln2", layer.ln2);
        node.SetStyle(YAML::EmitterStyle::Block);
        if (l < layers.size()) {
            layers[l] = node;
        } else {
            layers.push_back(node);
        }
    }
    layers.SetStyle(YAML::EmitterStyle::Block);
    keys.emplace_back("layers", emitted(layers));
    keys.emplace_back("final_ln", emitted(layerNorm(file, "final_ln", shown.finalLn)));
    if (!shown.tiedUnembed) {
        keys.emplace_back("unembed",
                          emitted(file.rowsByWord("unembed", shown.unembed, shown.unembedLabels)));
    }
    if (!shown.unembedBias.is_empty()) {
        keys.emplace_back("b_U", emitted(file.vector("b_U", shown.unembedBias)));
    }

    TrainedWeightsKeep out{file.fileName(), file.bytes(), working};
    for (const auto& [key, value] : keys) {
        if (const auto error = setCellKey(out.document, cellId, key, value)) {
            return "cannot keep " + key + ": " + *error;
        }
    }
    if (const auto error = removeCellKey(out.document, cellId, "train")) {
        return "cannot remove train: " + *error;
    }
    return out;
}

} // namespace attnbook

#include "exports/notebook/notebook_transformer.h"

#include "core/math/layer_norm.h"
#include "exports/notebook/notebook_cells.h"
#include "exports/notebook/notebook_python.h"

#include <algorithm>

namespace attnbook {

namespace {

NotebookCell markdownCell(std::string id, std::string source) {
    return {NotebookCell::Kind::Markdown, std::move(id), std::move(source), false, {}};
}

NotebookCell codeCell(std::string id, std::string source) {
    return {NotebookCell::Kind::Code, std::move(id), std::move(source), false, {}};
}

std::string plural(int value, const char* one, const char* many) {
    return std::to_string(value) + " " + (value == 1 ? one : many);
}

// Writes the dict entries of one cell, each line indented by `indent` spaces, with the file
// each value of the cell came from as a comment above it (the origin as a Python string).
class DictWriter {
  public:
    DictWriter(std::string& out, const TransformerCellSpec& spec, std::string prefix, int indent)
        : out_(out), spec_(spec), prefix_(std::move(prefix)), indent_(indent) {}

    void line(const std::string& text) { out_ += pad() + text + "\n"; }

    // "key": matrix(...) or vector(...), or the fallback when the value is empty.
    void matrix(const std::string& key, const arma::mat& m, const std::string& shape) {
        note(key);
        line(pythonString(key) + ": matrix(" + pythonMatrix(m, indent_) + "),  # " + shape);
    }
    void vector(const std::string& key, const arma::rowvec& v, const std::string& empty) {
        if (v.is_empty()) {
            line(pythonString(key) + ": " + empty + ",");
            return;
        }
        note(key);
        line(pythonString(key) + ": vector(" + pythonVector(v) + "),");
    }
    void projection(const std::string& key, const Projection& p, int identityWidth,
                    const std::string& shape) {
        if (p.identity) {
            line(pythonString(key) + ": np.eye(" + std::to_string(identityWidth) +
                 "),  # identity");
        } else {
            matrix(key, p.weights, shape);
        }
    }
    // "ln1": {"gamma": ..., "beta": ...}, or None.
    void norm(const std::string& key, const LayerNormParams& ln, bool on, int d) {
        if (ln.identity || !on) {
            line(pythonString(key) + ": None,  # " +
                 (ln.identity ? "none: the identity" : "switched off: the identity"));
            return;
        }
        line(pythonString(key) + ": {");
        DictWriter inner(out_, spec_, prefix_ + key + ".", indent_ + 4);
        inner.vector("gamma", ln.gamma, "np.ones(" + std::to_string(d) + ")");
        inner.vector("beta", ln.beta, "np.zeros(" + std::to_string(d) + ")");
        line("},");
    }
    DictWriter nested(const std::string& key) {
        return DictWriter(out_, spec_, prefix_ + key + ".", indent_ + 4);
    }

  private:
    std::string pad() const { return std::string(size_t(indent_), ' '); }
    void note(const std::string& key) {
        const auto from = spec_.loadedFrom.find(prefix_ + key);
        if (from != spec_.loadedFrom.end()) {
            line("# " + prefix_ + key + " was read from " + pythonString(from->second));
        }
    }

    std::string& out_;
    const TransformerCellSpec& spec_;
    std::string prefix_;
    int indent_;
};

std::string scaleExpression(const AttentionConfig& a, int dK) {
    switch (a.scaleKind) {
    case ScaleKind::InverseSqrtDk:
        return "1 / np.sqrt(" + std::to_string(dK) + "),  # scores ÷ √d_k";
    case ScaleKind::Off:
        return "1.0,  # scores not scaled";
    case ScaleKind::Divisor:
        return "1 / " + pythonNumber(a.scaleDivisor) + ",  # scores ÷ " +
               pythonNumber(a.scaleDivisor);
    }
    return "1.0,";
}

void writeLayer(std::string& out, const TransformerCellSpec& spec, const TransformerResult& r,
                int l) {
    const TransformerConfig& c = spec.config;
    const TransformerLayer& layer = c.layers[size_t(l)];
    const AttentionResult& ar = r.layers[size_t(l)].attention;
    const AttentionConfig& a = layer.attention;
    const std::string prefix = "layers[" + std::to_string(l) + "].";
    out += "layers.append({  # layer " + std::to_string(l + 1) + " of " +
           std::to_string(r.layersRun) + "\n";
    DictWriter w(out, spec, prefix, 4);
    w.norm("ln1", layer.ln1, c.run.norm, r.d);
    w.line("\"attention\": {");
    DictWriter att = w.nested("attention");
    att.line("\"heads\": " + std::to_string(ar.h) + ", \"d_k\": " + std::to_string(ar.dK) +
             ", \"d_v\": " + std::to_string(ar.dV) + ",");
    att.line("\"scale\": " + scaleExpression(a, ar.dK));
    att.line(std::string("\"causal\": ") + (a.mask == MaskKind::Causal ? "True" : "False") + ",");
    att.line("\"padding\": " + (a.padding.empty() ? std::string("None") : pythonFlags(a.padding)) +
             ",  # a padded key is read by no row");
    const int hK = ar.h * ar.dK, hV = ar.h * ar.dV;
    att.projection("W_Q", a.wQ, r.d, "(h·d_k × d)");
    att.vector("b_Q", a.bQ, "np.zeros(" + std::to_string(hK) + ")");
    att.projection("W_K", a.wK, r.d, "(h·d_k × d)");
    att.vector("b_K", a.bK, "np.zeros(" + std::to_string(hK) + ")");
    att.projection("W_V", a.wV, r.d, "(h·d_v × d)");
    att.vector("b_V", a.bV, "np.zeros(" + std::to_string(hV) + ")");
    att.projection("W_O", a.wO, hV, "(d × h·d_v)");
    att.vector("b_O", a.bO, "np.zeros(" + std::to_string(r.d) + ")");
    w.line("},");
    w.norm("ln2", layer.ln2, c.run.norm, r.d);
    if (!layer.ffn.present || !c.run.ffn) {
        w.line(std::string("\"ffn\": None,  # ") +
               (layer.ffn.present ? "switched off: F = 0" : "none: F = 0"));
    } else {
        const FeedForwardParams& f = layer.ffn;
        w.line("\"ffn\": {");
        DictWriter ffn = w.nested("ffn");
        ffn.matrix("W_1", f.W1, "(d_ff × d)");
        ffn.vector("b_1", f.b1, "np.zeros(" + std::to_string(f.W1.n_rows) + ")");
        ffn.matrix("W_2", f.W2, "(d × d_ff)");
        ffn.vector("b_2", f.b2, "np.zeros(" + std::to_string(r.d) + ")");
        ffn.line(std::string("\"activation\": \"") + activationKey(f.activation) + "\",");
        w.line("},");
    }
    out += "})\n";
}

void writeInputs(std::string& out, const TransformerCellSpec& spec,
                 const NotebookModelSharing& sharing) {
    const TransformerConfig& c = spec.config;
    const auto note = [&](const std::string& key) {
        if (const auto from = spec.loadedFrom.find(key); from != spec.loadedFrom.end()) {
            out += "# " + key + " was read from " + pythonString(from->second) + "\n";
        }
    };
    out += "tokens = " + pythonStrings(c.tokens) + "\n";
    if (!sharing.readsFrom.empty()) {
        const std::string model = "shared_models[" + pythonString(sharing.readsFrom) + "]";
        out += "# The model of the cell " + pythonString(sharing.readsFrom) +
               " (model: " + sharing.readsFrom + "), written out once above\n";
        out += "vocab_words = " + model + "[\"vocab_words\"]\n";
        out += "vocab = " + model + "[\"vocab\"]  # (V × d) one vector per word\n";
        out += "X0 = vocab[[vocab_words.index(token) for token in tokens]]  # (n × d)\n";
    } else if (!c.vocabLabels.empty()) {
        note("vocab");
        out += "vocab_words = " + pythonStrings(c.vocabLabels) + "  # one per row of vocab\n";
        out += "vocab = matrix(" + pythonMatrix(c.vocab) + ")  # (V × d) one vector per word\n";
        out += "X0 = vocab[[vocab_words.index(token) for token in tokens]]  # (n × d)\n";
    } else {
        note("X");
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
        note("positional");
        out += "P = matrix(" + pythonMatrix(c.learnedP) + ")  # (n × d) positions as given\n";
        break;
    }
    out += "X = X0 + P  # (n × d) X⁰, where the residual stream starts\n";
}

void writeModel(std::string& out, const TransformerCellSpec& spec, const TransformerResult& r) {
    const TransformerConfig& c = spec.config;
    if (!c.tiedUnembed) {
        out += "\n# unembed: its own words and matrix\n";
        out += "unembed_words = " + pythonStrings(c.unembedLabels) + "\n";
        out += "U = matrix(" + pythonMatrix(c.unembed) + ")  # (V × d) one row per word\n";
    }
    out += "\nmodel = {\n";
    DictWriter w(out, spec, "", 4);
    w.line("\"layers\": layers,");
    w.line("\"eps\": " + pythonNumber(c.eps) + ",  # LayerNorm's ε");
    w.norm("final_ln", c.finalLn, c.run.norm, r.d);
    if (c.tiedUnembed) {
        w.line("\"words\": vocab_words, \"U\": vocab,  # tied: the vocab matrix scores every "
               "word");
    } else {
        w.line("\"words\": unembed_words, \"U\": U,");
    }
    w.vector("b_U", c.unembedBias, "np.zeros(" + std::to_string(r.V) + ")");
    w.line("\"temperature\": " + pythonNumber(c.temperature) + ",");
    w.line(c.vocabLabels.empty() ? "\"embed\": None, \"embed_words\": [],  # no vocab"
                                 : "\"embed\": vocab, \"embed_words\": vocab_words,  # what "
                                   "generation feeds back in");
    w.line(std::string("\"positional\": ") +
           (c.positional == PositionalKind::Sinusoidal ? "\"sinusoidal\""
            : c.positional == PositionalKind::Learned  ? "\"learned\""
                                                       : "\"none\"") +
           ",");
    out += "}\n";
}

// The training of docs/training.md, run in NumPy from the weights written above (or random
// ones), leaving the shown step's weights in `model`; then the tokens' rows of the trained vocab.
void writeTraining(std::string& out, const TrainingSpec& t, const TransformerConfig& c) {
    const auto sentences = [&](const std::vector<std::vector<int>>& all) {
        std::string list = "[\n";
        for (const std::vector<int>& rows : all) {
            std::vector<std::string> words;
            for (int row : rows) {
                words.push_back(c.vocabLabels[size_t(row)]);
            }
            list += "        " + pythonStrings(words) + ",\n";
        }
        return list + "    ]";
    };
    std::vector<std::string> moving;
    for (const auto& [on, name] : {std::pair{t.trainable.attention, "attention"},
                                   {t.trainable.ffn, "ffn"},
                                   {t.trainable.norm, "norm"},
                                   {t.trainable.vocab, "vocab"}}) {
        if (on) {
            moving.push_back(name);
        }
    }
    out += "\n# Training (docs/training.md), in NumPy: full batch, each sentence on its own\n";
    out +=
        "training = transformer_train(\n    model,\n    data=" + sentences(t.data) +
        ",\n    held_out=" + sentences(t.heldOut) + ",\n    steps=" + std::to_string(t.steps) +
        ", optimizer=" + (t.optimizer == TrainingSpec::Optimizer::Adam ? "\"adam\"" : "\"sgd\"") +
        ", lr=" + pythonNumber(t.lr) + ",\n    init=" +
        (t.init ? "{\"seed\": " + std::to_string(t.init->seed) +
                      ", \"scale\": " + pythonNumber(t.init->scale) + "}"
                : std::string("None")) +
        ", trainable=" + pythonStrings(moving) + ", show=" + std::to_string(t.shownStep()) +
        ",\n)\n";
    out += "X0 = vocab[[vocab_words.index(token) for token in tokens]]  # the trained rows\n";
    out += "X = X0 + P\n";
}

// attnbook's own numbers for check_against_attnbook.
void writeAttnbookNumbers(std::string& out, const TransformerResult& r) {
    out += "{\n";
    if (r.loss) {
        out += "    \"loss\": " + pythonNumber(*r.loss) + ",\n";
    }
    out += "    \"next\": [\n";
    for (const NextWord& word : r.next) {
        out += "        (" + pythonString(word.word) + ", " + pythonNumber(word.prob) + "),\n";
    }
    out += "    ],\n    \"generation\": [\n";
    for (const GenerationStep& step : r.generation.steps) {
        out += "        (" + pythonString(step.label) + ", " + pythonNumber(step.prob) + ", " +
               pythonNumber(step.costCached) + ", " + pythonNumber(step.costFull) + "),\n";
    }
    out += "    ],\n}";
}

std::string normText(const LayerNormParams& ln, bool on) {
    return ln.identity || !on                          ? "none"
           : ln.gamma.is_empty() && ln.beta.is_empty() ? "with γ = 1, β = 0"
                                                       : "as given";
}

} // namespace

std::map<std::string, NotebookModelSharing> notebookModelSharing(const Lesson& lesson) {
    std::map<std::string, NotebookModelSharing> out;
    for (const LessonCell& cell : lesson.cells) {
        const TransformerCellSpec* spec = cell.transformer();
        if (!spec || !spec->sharedModel) {
            continue;
        }
        const SharedModelUse& use = *spec->sharedModel;
        const LessonCell* named = lesson.cell(use.cell);
        const TransformerCellSpec* model = named ? named->transformer() : nullptr;
        const auto takes = [&](const char* key) {
            return std::find(use.keys.begin(), use.keys.end(), key) != use.keys.end();
        };
        if (model && takes("vocab") && takes("layers") && !spec->training && !model->training &&
            !model->config.vocabLabels.empty() && spec->config.run == model->config.run) {
            out[cell.id].readsFrom = use.cell;
            out[use.cell].keeps = true;
        }
    }
    return out;
}

std::string transformerCode(const std::string& id, const TransformerCellSpec& spec,
                            const TransformerResult& r, const NotebookModelSharing& sharing) {
    const TransformerConfig& c = spec.config;
    std::string out = "# The cell " + pythonString(id) + ", recomputed in NumPy.\n";
    writeInputs(out, spec, sharing);
    if (!sharing.readsFrom.empty()) {
        out += "layers = shared_models[" + pythonString(sharing.readsFrom) +
               "][\"layers\"][:" + std::to_string(r.layersRun) + "]  # its first " +
               plural(r.layersRun, "block", "blocks") + "\n";
    } else {
        out += "\nlayers = []  # the blocks in order, each a dict of its weights\n";
        for (int l = 0; l < r.layersRun; ++l) {
            writeLayer(out, spec, r, l);
        }
    }
    writeModel(out, spec, r);
    if (sharing.keeps) {
        out += "# Later cells name this model (model: " + id + "): its numbers, kept for them\n";
        out += "shared_models[" + pythonString(id) +
               "] = {\"vocab_words\": vocab_words, \"vocab\": vocab, \"layers\": layers}\n";
    }

    if (spec.training) {
        writeTraining(out, *spec.training, c);
    }

    out += "\n# Forward: the blocks, the final LN, the logits and the chances\n";
    out += "forward = transformer_forward(X, model)\n";
    if (c.targets.empty()) {
        out += "loss = None  # no targets\n";
    } else {
        std::string targets = "[";
        for (size_t i = 0; i < c.targets.size(); ++i) {
            const int t = c.targets[i];
            targets += std::string(i ? ", " : "") +
                       (t < 0 ? std::string("None") : pythonString(r.words[size_t(t)]));
        }
        out += "targets = " + targets + "]  # the word after each token (None: no target)\n";
        out += "target_rows = [None if t is None else model[\"words\"].index(t) for t in "
               "targets]\n";
        out += "loss = cross_entropy(forward[\"logits\"], model[\"temperature\"], target_rows)\n";
    }
    const bool generates = c.generate && c.generate->steps > 0;
    if (!generates) {
        out += "generation = None  # no generate\n";
    } else {
        const GenerateRequest& g = *c.generate;
        out += "\n# Generation, one new row per step with the key/value cache\n";
        out +=
            "generation = transformer_generate(model, forward, " + std::to_string(g.steps) +
            (g.pick == PickKind::Greedy ? std::string(", \"greedy\")\n")
                                        : ", \"sample\", seed=" + std::to_string(g.seed) + ")\n");
    }

    if (c.knockouts) {
        out += "\n# Knock-outs: the model again without each head, attention, FFN and block\n";
        out += std::string("knockout = transformer_knockouts(X, model, ") +
               (c.targets.empty() ? "None" : "target_rows") + ")\n";
    }

    const std::string key = "attnbook_results[" + pythonString(id) + "]";
    out += "\n" + key + " = {\n";
    out += "    \"n\": n, \"d\": d, \"vocab_size\": len(model[\"words\"]), \"layers_run\": "
           "len(layers),\n";
    out += "    \"tokens\": tokens, \"X0\": X0, \"P\": P, \"X\": X, **forward,\n";
    out += "    \"next\": next_chances(forward[\"probs\"][-1], model[\"words\"]),\n";
    out += "    \"loss\": loss, \"generation\": generation,\n";
    if (spec.training) {
        out += "    \"training\": training,\n";
    }
    if (c.knockouts) {
        out += "    \"knockout\": knockout,\n";
    }
    out += "}\n";
    out += "show_transformer(" + key + ", tokens)\n";
    out += "check_against_attnbook(" + key + ", ";
    writeAttnbookNumbers(out, r);
    // After training, two implementations' rounding has had many steps to grow.
    out += spec.training ? ", tolerance=1e-9)\n" : ")\n";
    return out;
}

std::vector<NotebookCell> transformerNotebookCells(const std::string& id,
                                                   const TransformerCellSpec& spec,
                                                   const TransformerResult& r,
                                                   const NotebookModelSharing& sharing) {
    const TransformerConfig& c = spec.config;
    std::string text = "**Transformer cell " + markdownCode(id) + "**\n\n";
    std::string tokens;
    for (size_t i = 0; i < c.tokens.size(); ++i) {
        tokens += (i ? ", " : "") + markdownLiteral(c.tokens[i]);
    }
    text += "- Tokens (n = " + std::to_string(r.n) + "): " + tokens + "; vectors " +
            (c.vocabLabels.empty()
                 ? std::string("given as X")
                 : "from the vocab of " + plural(int(c.vocabLabels.size()), "word", "words")) +
            ", width d = " + std::to_string(r.d) + ".\n";
    text += c.positional == PositionalKind::Sinusoidal ? "- Sinusoidal positional encoding.\n"
            : c.positional == PositionalKind::Learned ? "- Positional encoding given as a matrix.\n"
                                                      : "- No positional encoding.\n";
    text += "- " + plural(r.layersRun, "block", "blocks") +
            ", pre-norm as in GPT-2 (LN₁, attention, residual; LN₂, FFN, residual):\n";
    for (int l = 0; l < r.layersRun; ++l) {
        const TransformerLayer& layer = c.layers[size_t(l)];
        const AttentionResult& a = r.layers[size_t(l)].attention;
        const auto norm = [&](const LayerNormParams& ln) { return normText(ln, c.run.norm); };
        text += "  - block " + std::to_string(l + 1) + ": " + plural(a.h, "head", "heads") +
                " (d_k = " + std::to_string(a.dK) + ", d_v = " + std::to_string(a.dV) + "), " +
                (layer.attention.mask == MaskKind::Causal ? "causal mask" : "no mask") +
                (layer.attention.padding.empty() ? "" : ", padding") + "; LN₁ " + norm(layer.ln1) +
                ", LN₂ " + norm(layer.ln2) + "; FFN " +
                (layer.ffn.present && c.run.ffn ? "d_ff = " + std::to_string(layer.ffn.W1.n_rows) +
                                                      ", " + activationKey(layer.ffn.activation)
                                                : std::string("none")) +
                ".\n";
    }
    text += "- Final LN " + normText(c.finalLn, c.run.norm) +
            "; LayerNorm's ε = " + pythonNumber(c.eps) + ".\n";
    text += "- Unembedding " +
            (c.tiedUnembed ? std::string("tied to the vocab")
                           : "of its own, " + plural(r.V, "word", "words")) +
            (c.unembedBias.is_empty() ? "" : ", with b_U") +
            "; temperature T = " + pythonNumber(c.temperature) + ".\n";
    if (!c.targets.empty()) {
        const auto m =
            std::count_if(c.targets.begin(), c.targets.end(), [](int t) { return t >= 0; });
        text +=
            "- Loss: the mean cross-entropy over " + plural(int(m), "target", "targets") + ".\n";
    }
    if (c.generate && c.generate->steps > 0) {
        text += "- Generation: " + plural(c.generate->steps, "word", "words") + ", " +
                (c.generate->pick == PickKind::Greedy
                     ? std::string("greedy")
                     : "sampled with splitmix64 from seed " + std::to_string(c.generate->seed)) +
                ", with a key/value cache";
        text += r.generation.steps.empty() && !r.generation.refused.empty()
                    ? " — refused: " + markdownLiteral(r.generation.refused) + ".\n"
                    : ".\n";
    }
    if (spec.training) {
        const TrainingSpec& t = *spec.training;
        text += "- Trains: " + plural(t.steps, "step", "steps") + " of " +
                (t.optimizer == TrainingSpec::Optimizer::Adam ? "Adam" : "SGD") + " (lr " +
                pythonNumber(t.lr) + ") on " + plural(int(t.data.size()), "sentence", "sentences") +
                (t.init ? ", from random weights (seed " + std::to_string(t.init->seed) + ")"
                        : std::string()) +
                "; the code below trains in NumPy and shows the model after step " +
                std::to_string(t.shownStep()) + ".\n";
    }
    if (spec.sharedModel) {
        text += "- The model of the cell " + markdownCode(spec.sharedModel->cell) +
                (spec.sharedModel->layers > 0
                     ? " (its first " + plural(spec.sharedModel->layers, "block", "blocks") + ")"
                     : std::string()) +
                (sharing.readsFrom.empty() ? ", written out again below"
                                           : ", whose numbers its code reads from there") +
                ".\n";
    }
    if (!spec.loadedFrom.empty() && sharing.readsFrom.empty()) {
        text += "- Read from files: ";
        size_t i = 0;
        for (const auto& [key, from] : spec.loadedFrom) {
            text += (i++ ? "; " : "") + markdownLiteral(key) + " from " + markdownCode(from);
        }
        text += ". The numbers are written out in the code below, so the notebook runs "
                "anywhere.\n";
    }
    text += "\nThe code recomputes every stage with the functions of the first code cell; "
            "`attnbook_results[" +
            pythonString(id) +
            "]` holds them at full precision. Its last line compares the loss, the next word "
            "and the generated words with the numbers attnbook computed.\n";
    return {markdownCell(id + "-settings", text),
            codeCell(id, transformerCode(id, spec, r, sharing))};
}

} // namespace attnbook

#include "core/document/result_json.h"

#include "core/document/matrix_names.h"
#include "core/document/setting_words.h"

#include <cmath>

namespace attnbook {

void JsonSelection::add(const BindingPath& path) {
    JsonSelection* at = this;
    for (const auto& step : path.steps) {
        if (const auto* name = std::get_if<std::string>(&step)) {
            at = &at->keys_[*name];
        } else {
            at = &at->indices_[std::get<size_t>(step)];
        }
    }
    at->whole_ = true;
}

const JsonSelection* JsonSelection::key(const std::string& name) const {
    const auto found = keys_.find(name);
    return found == keys_.end() ? nullptr : &found->second;
}

const JsonSelection* JsonSelection::index(size_t i) const {
    const auto found = indices_.find(i);
    return found == indices_.end() ? nullptr : &found->second;
}

namespace {

// Whether a table keeps every row: no selection, a path that takes it whole, or none that
// indexes it.
bool allRows(const JsonSelection* only) {
    return !only || only->whole() || !only->indexed();
}

// The rows of a table that `only` selects (every row without a selection); the others null.
template <class Row> Json selectedRows(size_t count, const JsonSelection* only, Row row) {
    Json::Array rows;
    rows.reserve(count);
    const bool all = allRows(only);
    for (size_t r = 0; r < count; ++r) {
        rows.push_back(all || only->index(r) ? row(r) : Json(nullptr));
    }
    return Json(std::move(rows));
}

Json matrixJson(const arma::mat& m, const JsonSelection* only) {
    if (allRows(only)) {
        return jsonMatrix(m);
    }
    return selectedRows(m.n_rows, only,
                        [&](size_t r) { return jsonVector(arma::rowvec(m.row(arma::uword(r)))); });
}

// The shares of one head, one row per query, read from the key-major table where each row is
// a contiguous column (not through a transposed copy of the whole n × m table, which cost more
// than the rest of a 512-token cell's quoted JSON).
Json weightsJson(const HeadResult& head, int n, const JsonSelection* only) {
    return selectedRows(size_t(n), only, [&](size_t r) {
        return jsonVector(arma::rowvec(head.weightsT.col(arma::uword(r)).t()));
    });
}

// Scores with blocked entries as null (cli.md).
Json scoresJson(const HeadResult& head, int n, int m, const JsonSelection* only = nullptr) {
    return selectedRows(size_t(n), only, [&](size_t r) {
        Json::Array row;
        for (int c = 0; c < m; ++c) {
            if (head.blocked(arma::uword(r), arma::uword(c))) {
                row.emplace_back(nullptr);
            } else {
                row.emplace_back(head.score(arma::uword(r), arma::uword(c)));
            }
        }
        return Json(std::move(row));
    });
}

Json matrixOrNull(const arma::mat& m, bool present, const JsonSelection* only) {
    return present ? matrixJson(m, only) : Json(nullptr);
}

// Sets `key` to what `make(part)` builds when the selection reads it; without a selection, or
// one that takes this object whole, to all of it.
template <class Make>
void setSelected(Json& object, const char* key, const JsonSelection* only, Make make) {
    if (!only || only->whole()) {
        object.set(key, make(nullptr));
    } else if (const JsonSelection* part = only->key(key)) {
        object.set(key, make(part));
    }
}

// cli.md: the norm-wise error, how many entries were compared, and the worst
// one. A check that did not run says why, and its error is null.
Json gradientCheckJson(const GradientCheckReport& check) {
    Json out = Json::object();
    out.set("max_rel_error", check.ran ? Json(check.maxRelError) : Json());
    out.set("checked", double(check.checked)).set("total", double(check.total));
    if (check.ran && check.checked > 0) {
        Json worst = Json::object();
        worst.set("gradient", check.worst.gradient)
            .set("row", check.worst.row)
            .set("col", check.worst.col)
            .set("analytic", check.worst.analytic)
            .set("numeric", check.worst.numeric);
        out.set("worst", std::move(worst));
    }
    if (!check.ran) {
        out.set("skipped", check.skipped);
    }
    return out;
}

// The settings that sentences state and claims test (docs/lesson-format.md, "Expressions and
// claims"): the mask, the padded keys, whether the scores are divided by √d_k (the scale in
// use, to rounding, whatever the cell wrote: `scale: 2` at d_k = 4 divides by √4 too), and
// which projections are the identity.
void setSettings(Json& cell, const AttentionInputs& r) {
    cell.set("mask", maskName(r.mask));
    Json::Array padding;
    for (const bool padded : r.padding) {
        padding.emplace_back(padded);
    }
    cell.set("padding", Json(std::move(padding)));
    cell.set("divides_by_sqrt_dk", r.dividesBySqrtDk());
    if (!r.direct) {
        Json identity = Json::object();
        size_t i = 0; // r.identity follows the name table's order of the projections
        for (const InputMatrixName& entry : inputMatrixNames()) {
            if (entry.projection && i < r.identity.size()) {
                identity.set(entry.name, bool(r.identity[i++]));
            }
        }
        cell.set("identity", std::move(identity));
    }
}

} // namespace

bool buildsWholeJson(const AttentionForward& r) {
    // 65536 numbers write out in about a millisecond.
    constexpr double kWholeJsonNumbers = 65536;
    double numbers = 0;
    for (const arma::mat* m : {&r.X0, &r.P, &r.X, &r.Q, &r.K, &r.V, &r.concat, &r.output}) {
        numbers += double(m->n_elem);
    }
    for (const HeadResult& head : r.head) {
        numbers += double(head.scoresT.n_elem + head.weightsT.n_elem + head.context.n_elem);
    }
    return numbers <= kWholeJsonNumbers;
}

Json attentionJson(const std::string& id, const AttentionResult& r, const JsonSelection* only) {
    Json cell = Json::object();
    cell.set("id", id).set("kind", "attention");
    cell.set("n", r.n).set("d", r.d).set("heads", r.h);
    cell.set("d_k", r.dK).set("d_v", r.dV).set("d_o", r.dO).set("scale", r.scale);
    cell.set("tokens", jsonStrings(r.tokens));
    setSettings(cell, r);
    const auto table = [&](const arma::mat& m, bool present = true) {
        return [&m, present](const JsonSelection* part) { return matrixOrNull(m, present, part); };
    };
    setSelected(cell, "X0", only, table(r.X0, !r.direct));
    setSelected(cell, "P", only, table(r.P, !r.direct));
    setSelected(cell, "X", only, table(r.X, !r.direct));
    setSelected(cell, "Q", only, table(r.Q));
    setSelected(cell, "K", only, table(r.K));
    setSelected(cell, "V", only, table(r.V));
    setSelected(cell, "head", only, [&](const JsonSelection* part) {
        Json::Array heads;
        for (size_t i = 0; i < r.head.size(); ++i) {
            const HeadResult& head = r.head[i];
            const JsonSelection* one = allRows(part) ? nullptr : part->index(i);
            Json h = Json::object();
            if (!allRows(part) && !one) {
                heads.push_back(std::move(h)); // a head no path reads
                continue;
            }
            setSelected(h, "scores", one, [&](const JsonSelection* rows) {
                return scoresJson(head, r.n, r.m, rows);
            });
            setSelected(h, "weights", one,
                        [&](const JsonSelection* rows) { return weightsJson(head, r.n, rows); });
            setSelected(h, "context", one, table(head.context));
            heads.push_back(std::move(h));
        }
        return Json(std::move(heads));
    });
    setSelected(cell, "concat", only, table(r.concat));
    setSelected(cell, "output", only, table(r.output));

    const AttentionGradients& g = r.grad;
    setSelected(cell, "grad", only, [&](const JsonSelection* part) {
        Json grad = Json::object();
        const auto vector = [](const arma::rowvec& v) {
            return [&v](const JsonSelection*) { return jsonVector(v); };
        };
        setSelected(grad, "upstream", part, table(g.upstream));
        // The parameters of the cell's mode (the name table), each weight followed by the bias
        // that feeds the same product, as `compute` has always printed them.
        for (const InputMatrixName& entry : inputMatrixNames()) {
            if (entry.isDirect() != r.direct || entry.bias) {
                continue;
            }
            setSelected(grad, entry.gradientName, part, table(g.*(entry.gradient)));
            for (const InputMatrixName& bias : inputMatrixNames()) {
                if (entry.projection && bias.bias && bias.feeds == entry.feeds) {
                    setSelected(grad, bias.gradientName, part, vector(g.*(bias.gradientBias)));
                }
            }
        }
        return grad;
    });
    cell.set("gradcheck", gradientCheckJson(r.gradcheck));

    Json::Array warnings;
    for (const AttentionWarning& w : r.warnings) {
        Json o = Json::object();
        o.set("code", w.code).set("head", w.head).set("row", w.row).set("message", w.message);
        warnings.push_back(std::move(o));
    }
    cell.set("warnings", Json(std::move(warnings)));
    return cell;
}

namespace {

// A LayerNorm's {gamma, beta} (its weights or their gradients), or null for the identity.
Json gammaBetaJson(const arma::rowvec& gamma, const arma::rowvec& beta) {
    if (gamma.is_empty()) {
        return Json(nullptr); // the identity: nothing to learn
    }
    Json out = Json::object();
    out.set("gamma", jsonVector(gamma)).set("beta", jsonVector(beta));
    return out;
}

Json generationJson(const GenerationResult& gen) {
    Json out = Json::object();
    if (!gen.refused.empty()) {
        out.set("refused", gen.refused);
    }
    Json::Array steps;
    for (const GenerationStep& step : gen.steps) {
        Json s = Json::object();
        s.set("word", step.label)
            .set("prob", step.prob)
            .set("cost_cached", step.costCached)
            .set("cost_full", step.costFull);
        steps.push_back(std::move(s));
    }
    out.set("steps", Json(std::move(steps)));
    out.set("cache_numbers", gen.cacheNumbers);
    return out;
}

// A matrix's JSON, or the part of it `part` selects, for setSelected.
auto tableOf(const arma::mat& m) {
    return [&m](const JsonSelection* part) { return matrixJson(m, part); };
}

// One layer's stages: its input, both norms and residuals, its attention and its FFN.
Json transformerLayerJson(const std::string& id, const TransformerLayerResult& layer,
                          const JsonSelection* one) {
    Json o = Json::object();
    setSelected(o, "input", one, tableOf(layer.input));
    setSelected(o, "ln1", one, tableOf(layer.ln1.out));
    setSelected(o, "attention", one,
                [&](const JsonSelection* att) { return attentionJson(id, layer.attention, att); });
    setSelected(o, "resid1", one, tableOf(layer.resid1));
    setSelected(o, "ln2", one, tableOf(layer.ln2.out));
    setSelected(o, "ffn", one, [&](const JsonSelection* ffn) {
        if (layer.ffnPre.is_empty()) {
            return Json(nullptr); // no FFN in this layer
        }
        Json f = Json::object();
        setSelected(f, "pre", ffn, tableOf(layer.ffnPre));
        setSelected(f, "act", ffn, tableOf(layer.ffnAct));
        setSelected(f, "out", ffn, tableOf(layer.ffnOut));
        return f;
    });
    setSelected(o, "resid2", one, tableOf(layer.resid2));
    return o;
}

// The layers run, each as `part` selects it (an unselected layer is an empty object).
Json transformerLayersJson(const std::string& id, const std::vector<TransformerLayerResult>& all,
                           const JsonSelection* part) {
    Json::Array layers;
    for (size_t l = 0; l < all.size(); ++l) {
        const JsonSelection* one = allRows(part) ? nullptr : part->index(l);
        layers.push_back(!allRows(part) && !one ? Json::object()
                                                : transformerLayerJson(id, all[l], one));
    }
    return Json(std::move(layers));
}

Json nextWordsJson(const std::vector<NextWord>& next) {
    Json::Array out;
    for (const NextWord& word : next) {
        Json w = Json::object();
        w.set("word", word.word).set("prob", word.prob);
        out.push_back(std::move(w));
    }
    return Json(std::move(out));
}

// One layer's gradients: its attention's projections, its norms and its FFN.
Json layerGradJson(const TransformerLayerGradients& lg) {
    Json o = Json::object();
    Json a = Json::object();
    const AttentionGradients& ag = lg.attention;
    a.set("W_Q", jsonMatrix(ag.W_Q)).set("b_Q", jsonVector(ag.b_Q));
    a.set("W_K", jsonMatrix(ag.W_K)).set("b_K", jsonVector(ag.b_K));
    a.set("W_V", jsonMatrix(ag.W_V)).set("b_V", jsonVector(ag.b_V));
    a.set("W_O", jsonMatrix(ag.W_O)).set("b_O", jsonVector(ag.b_O));
    o.set("attention", std::move(a));
    o.set("ln1", gammaBetaJson(lg.ln1Gamma, lg.ln1Beta));
    o.set("ln2", gammaBetaJson(lg.ln2Gamma, lg.ln2Beta));
    if (lg.W1.is_empty()) {
        o.set("ffn", Json(nullptr));
    } else {
        Json f = Json::object();
        f.set("W_1", jsonMatrix(lg.W1)).set("b_1", jsonVector(lg.b1));
        f.set("W_2", jsonMatrix(lg.W2)).set("b_2", jsonVector(lg.b2));
        o.set("ffn", std::move(f));
    }
    return o;
}

// One knock-out: the last row's chances, its likeliest words, the loss (null without targets).
Json knockoutOutcomeJson(const KnockoutOutcome& k) {
    Json o = Json::object();
    o.set("probs", jsonVector(k.probs));
    o.set("next", nextWordsJson(k.next));
    o.set("loss", k.loss ? Json(*k.loss) : Json(nullptr));
    return o;
}

Json knockoutListJson(const std::vector<KnockoutOutcome>& all) {
    Json::Array out;
    for (const KnockoutOutcome& k : all) {
        out.push_back(knockoutOutcomeJson(k));
    }
    return Json(std::move(out));
}

// transformer.md, "Knock-outs": head[l][i], attention[l], ffn[l], block[l].
Json knockoutsJson(const TransformerKnockouts& k) {
    Json o = Json::object();
    Json::Array heads;
    for (const std::vector<KnockoutOutcome>& layer : k.head) {
        heads.push_back(knockoutListJson(layer));
    }
    o.set("head", Json(std::move(heads)));
    o.set("attention", knockoutListJson(k.attention));
    o.set("ffn", knockoutListJson(k.ffn));
    o.set("block", knockoutListJson(k.block));
    return o;
}

// Every trainable parameter of `c` after training, named as in `grad`.
Json trainedWeightsJson(const TransformerConfig& c, const TrainingSpec::Trainable& t) {
    Json out = Json::object();
    Json::Array layers;
    for (const TransformerLayer& layer : c.layers) {
        Json o = Json::object();
        if (t.attention) {
            const AttentionConfig& a = layer.attention;
            Json att = Json::object();
            const auto matrix = [](const Projection& p) {
                return p.identity ? Json("identity") : jsonMatrix(p.weights);
            };
            att.set("W_Q", matrix(a.wQ)).set("b_Q", jsonVector(a.bQ));
            att.set("W_K", matrix(a.wK)).set("b_K", jsonVector(a.bK));
            att.set("W_V", matrix(a.wV)).set("b_V", jsonVector(a.bV));
            att.set("W_O", matrix(a.wO)).set("b_O", jsonVector(a.bO));
            o.set("attention", std::move(att));
        }
        if (t.norm) {
            o.set("ln1", layer.ln1.identity ? Json(nullptr)
                                            : gammaBetaJson(layer.ln1.gamma, layer.ln1.beta));
            o.set("ln2", layer.ln2.identity ? Json(nullptr)
                                            : gammaBetaJson(layer.ln2.gamma, layer.ln2.beta));
        }
        if (t.ffn) {
            if (!layer.ffn.present) {
                o.set("ffn", Json(nullptr));
            } else {
                Json f = Json::object();
                f.set("W_1", jsonMatrix(layer.ffn.W1)).set("b_1", jsonVector(layer.ffn.b1));
                f.set("W_2", jsonMatrix(layer.ffn.W2)).set("b_2", jsonVector(layer.ffn.b2));
                o.set("ffn", std::move(f));
            }
        }
        layers.push_back(std::move(o));
    }
    out.set("layers", Json(std::move(layers)));
    if (t.norm) {
        out.set("final_ln", c.finalLn.identity ? Json(nullptr)
                                               : gammaBetaJson(c.finalLn.gamma, c.finalLn.beta));
    }
    if (t.vocab) {
        out.set("vocab", jsonMatrix(c.vocab));
        if (!c.tiedUnembed) {
            out.set("unembed", jsonMatrix(c.unembed));
        }
        out.set("b_U", jsonVector(c.unembedBias));
    }
    return out;
}

// docs/training.md, "What compute prints".
Json trainingJson(const TrainingResult& t, const TrainingSpec::Trainable& trainable,
                  const JsonSelection* part) {
    Json out = Json::object();
    out.set("loss", jsonVector(arma::rowvec(t.loss)));
    if (!t.heldOutLoss.empty()) {
        out.set("held_out_loss", jsonVector(arma::rowvec(t.heldOutLoss)));
    }
    out.set("grad_norm", jsonVector(arma::rowvec(t.gradNorm)));
    out.set("shown", t.shown);
    if (!t.stopped.empty()) {
        out.set("stopped", t.stopped);
    }
    setSelected(out, "weights", part,
                [&](const JsonSelection*) { return trainedWeightsJson(t.weights, trainable); });
    return out;
}

Json transformerGradJson(const TransformerGradients& g, const JsonSelection* part) {
    Json grad = Json::object();
    setSelected(grad, "logits", part, tableOf(g.logits));
    setSelected(grad, "X0", part, tableOf(g.X0));
    setSelected(grad, "layers", part, [&](const JsonSelection*) {
        Json::Array layers;
        for (const TransformerLayerGradients& lg : g.layers) {
            layers.push_back(layerGradJson(lg));
        }
        return Json(std::move(layers));
    });
    grad.set("final_ln", gammaBetaJson(g.finalGamma, g.finalBeta));
    setSelected(grad, "unembed", part, tableOf(g.unembed));
    setSelected(grad, "b_U", part, [&](const JsonSelection*) { return jsonVector(g.unembedBias); });
    if (!g.vocab.is_empty()) {
        setSelected(grad, "vocab", part, tableOf(g.vocab));
    }
    return grad;
}

} // namespace

Json transformerJson(const std::string& id, const TransformerResult& r, const JsonSelection* only) {
    Json cell = Json::object();
    cell.set("id", id).set("kind", "transformer");
    cell.set("n", r.n).set("d", r.d).set("vocab_size", r.V).set("layers_run", r.layersRun);
    cell.set("tokens", jsonStrings(r.tokens));
    setSelected(cell, "X0", only, tableOf(r.X0));
    setSelected(cell, "P", only, tableOf(r.P));
    setSelected(cell, "X", only, tableOf(r.X));
    setSelected(cell, "layers", only, [&](const JsonSelection* part) {
        return transformerLayersJson(id, r.layers, part);
    });
    setSelected(cell, "final_ln", only, tableOf(r.finalLn.out));
    setSelected(cell, "logits", only, tableOf(r.logits));
    setSelected(cell, "probs", only, tableOf(r.probs));
    cell.set("next", nextWordsJson(r.next));
    if (r.loss) {
        cell.set("loss", *r.loss);
    }
    cell.set("generation", r.generation.ran || !r.generation.refused.empty()
                               ? generationJson(r.generation)
                               : Json(nullptr));
    if (r.training) {
        setSelected(cell, "training", only, [&](const JsonSelection* part) {
            return trainingJson(*r.training, r.training->trainable, part);
        });
    }
    if (r.knockouts.computed) {
        setSelected(cell, "knockout", only,
                    [&](const JsonSelection*) { return knockoutsJson(r.knockouts); });
    }
    setSelected(cell, "grad", only,
                [&](const JsonSelection* part) { return transformerGradJson(r.grad, part); });
    cell.set("gradcheck", gradientCheckJson(r.gradcheck));
    return cell;
}

Json chartJson(const std::string& id, const std::vector<ChartSeries>& series) {
    Json cell = Json::object();
    cell.set("id", id).set("kind", "chart");
    Json::Array all;
    for (const ChartSeries& s : series) {
        Json o = Json::object();
        Json::Array xs(s.x.begin(), s.x.end());
        Json::Array ys(s.y.begin(), s.y.end());
        o.set("label", s.label).set("x", Json(std::move(xs))).set("y", Json(std::move(ys)));
        all.push_back(std::move(o));
    }
    cell.set("series", Json(std::move(all)));
    return cell;
}

Json quizJson(const std::string& id, Json answer) {
    Json cell = Json::object();
    cell.set("id", id).set("kind", "quiz").set("answer", std::move(answer));
    return cell;
}

} // namespace attnbook

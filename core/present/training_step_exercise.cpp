#include "core/present/training_step_exercise.h"

#include <cmath>

namespace attnbook {

std::optional<TrainingStepExercise>
trainingStepExercise(const TransformerCellSpec& spec, const TransformerResult& result,
                     const std::function<double(double)>& printed) {
    if (!spec.training || spec.training->optimizer != TrainingSpec::Optimizer::Sgd ||
        !spec.training->trainable.vocab || result.V > kMostWordsByHand || result.n == 0 ||
        result.finalLn.out.n_rows != arma::uword(result.n)) {
        return std::nullopt;
    }
    // The weights the result shows: the trained ones at the shown step, when the cell trains.
    const TransformerConfig& shown = result.training ? result.training->weights : spec.config;
    const size_t last = size_t(result.n - 1);
    if (shown.targets.size() <= last || shown.targets[last] < 0) {
        return std::nullopt;
    }
    const arma::mat& output = shown.tiedUnembed ? shown.vocab : shown.unembed;
    if (output.n_rows != arma::uword(result.V) || output.n_cols != arma::uword(result.d)) {
        return std::nullopt;
    }
    const auto roundAll = [&](auto m) {
        m.transform([&](double x) { return printed(x); });
        return m;
    };

    TrainingStepExercise e;
    e.words = result.words;
    e.target = shown.targets[last];
    e.lr = spec.training->lr;
    e.z = roundAll(arma::rowvec(result.finalLn.out.row(arma::uword(last))));
    e.rows = roundAll(arma::mat(output));
    e.bias = shown.unembedBias.n_elem == output.n_rows
                 ? roundAll(arma::rowvec(shown.unembedBias))
                 : arma::rowvec(output.n_rows, arma::fill::zeros);
    e.biasGiven = arma::any(e.bias != 0.0);

    const arma::uword t = arma::uword(e.target);
    // (1 × V) = (1 × d)(d × V) + (1 × V)
    e.scores = e.z * e.rows.t() + e.bias;
    e.exps = arma::exp(e.scores - e.scores.max());
    e.probs = e.exps / arma::accu(e.exps);
    e.loss = -std::log(e.probs(t));
    e.gradScores = e.probs;
    e.gradScores(t) -= 1.0;
    // (1 × d): the score ℓ_t = u_t · z, so ∂loss/∂u_t = g_t z.
    e.gradRow = e.gradScores(t) * e.z;
    e.newRow = e.rows.row(t) - e.lr * e.gradRow;
    e.newScore = arma::dot(e.newRow, e.z) + e.bias(t);
    return e;
}

} // namespace attnbook

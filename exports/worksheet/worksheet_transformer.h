#pragma once
// The worksheet exercises of a transformer cell (transformer.md) that carries `worksheet:`:
// four things a student works out by hand, each with its answer boxes, and in the key the
// answers with the working in that variant's numbers:
//
//   (a) LayerNorm of one vector: the focus token's input to layer 1's first LayerNorm — μ, σ²
//       and the normalised vector (the first coordinates when d is large), when it has one;
//   (b) one unit of the FFN: one hidden unit's pre-activation z = g · w + b and act(z) for the
//       focus row, from the given FFN input g, the unit's row w of W₁ and its bias b;
//   (c) the next word: the chances softmax(logits / T) from the given logits of the model's
//       most likely next words, and which word greedy decoding picks;
//   (d) the cost of the key/value cache: comparisons with and without the cache at step t of a
//       prompt of n tokens, and the cache's size after that step;
//   (e) when the cell trains by SGD and scores at most 5 words: one step of training by hand
//       (core/present/training_step_exercise.h).
//
// Every given is printed at 4 decimals and every answer is computed from the printed givens,
// so that a student with the sheet alone reaches the key's numbers.

#include "exports/paint/pdf_cells.h"
#include "exports/worksheet/worksheet_variants.h"

#include "core/math/transformer_result.h"
#include "core/present/training_step_exercise.h"

#include <optional>

namespace attnbook {

// The exercises' numbers, givens and answers, for one variant of one cell.
struct TransformerExercises {
    std::vector<std::string> tokens;
    int focus = 0;
    QString focusWord;

    struct Norm {
        bool present = true;         // false when layer 1 has no LayerNorm (`ln1: none`)
        arma::rowvec x, gamma, beta; // gamma and beta: ones and zeros unless the cell gives them
        bool gammaGiven = false, betaGiven = false;
        double eps = 1e-5;
        double mean = 0, variance = 0;
        arma::rowvec out; // the first `shown` coordinates of LN(x)
        int shown = 0;
    } norm;

    struct Ffn {
        bool present = false;
        int layer = 0, unit = 0; // 0-based
        arma::rowvec g, w;
        double b = 0;
        Activation activation = Activation::Gelu;
        double pre = 0, post = 0;
    } ffn;

    struct Next {
        std::vector<std::string> words; // the model's most likely words, by logit
        arma::rowvec logits;            // as given (4 decimals)
        double temperature = 1;
        arma::rowvec scaled, exps, probs;
        int pick = 0;         // into words
        int vocabulary = 0;   // V
        double modelProb = 0; // the pick's chance over all V words
    } next;

    struct Cache {
        int n = 0, t = 0;
        int layers = 0;
        bool uniform = true;
        int h = 0, dK = 0, dV = 0;
        double perPosition = 0; // Σ over layers of h·(d_k + d_v)
        double withCache = 0, without = 0, numbers = 0;
    } cache;

    std::optional<TrainingStepExercise> step;
};

// A given number as printed, and as the answers are computed from it: 4 decimals.
double printedGiven(double value);

TransformerExercises transformerExercises(const TransformerCellSpec& spec,
                                          const TransformerResult& result,
                                          const TransformerSheetGivens& givens);

// The exercise's boxes: its heading, the set-up in words, then parts (a)–(d). The key (`key`)
// fills the boxes and prints the working where the sheet leaves the same room to work in.
std::vector<PdfBoxPtr> transformerExerciseBoxes(const TransformerCellSpec& spec,
                                                const TransformerResult& result,
                                                const TransformerSheetGivens& givens, int number,
                                                const QString& heading, bool key,
                                                const CellPrintArea& area);

// The set-up of the cell in words, for a quiz about a cell that is not an exercise.
QString transformerGivensText(const TransformerCellSpec& spec, const TransformerResult& result);

} // namespace attnbook

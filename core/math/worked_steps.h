#pragma once
// The worked arithmetic and the step-by-step trace of one query, written
// from the live numbers, as the window's views and the printed lesson show
// them (`red · blue = (1 × 0) + (0 × 1) + (0 × 0) + (0 × 0) = 0`).

#include "core/math/attention_result.h"
#include "core/math/number_format.h"

#include <string>
#include <vector>

namespace attnbook {

// A vector as a reader writes it, its entries in one format (allWhole): [1, −1, 0] when all are
// whole, else [1.0000, −0.5000, 0.2500] with `digits` decimals each.
std::string readableVector(const arma::rowvec& v, int digits);

struct WorkedSection {
    std::string title;              // "Compare", "Scale", "Softmax", "Combine"
    std::vector<std::string> lines; // one worked line each
};

// The four steps for query row `focus` of head `head`: the dot products, the
// scaling, the softmax with its total, and the weighted sum of values.
std::vector<WorkedSection> workedArithmetic(const AttentionResult& result, int head, int focus,
                                            int digits = 4);

struct TraceStep {
    std::string title; // "3. Scores"
    std::vector<std::string> lines;
};

// The same computation as eight numbered steps for a stepper: the query, the
// keys, the scores, the scaling, the exponentials, their total, the shares,
// the blend.
std::vector<TraceStep> traceSteps(const AttentionResult& result, int head, int focus,
                                  int digits = 4);

// Labels of the key rows and query rows (the token, or "#3" when unnamed).
std::string keyLabel(const AttentionResult& result, int column);
std::string queryLabel(const AttentionResult& result, int row);

} // namespace attnbook

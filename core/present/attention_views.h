#pragma once
// What an attention cell's views read of its result, without Qt: the focus row's worked
// arithmetic, trace and shares, one weight or output entry, the warnings, the gradient check in
// one line, which keys are padding, and the gradients this mode has. The window's models
// (app/models/cell_variants.h, attention_cell_model.h) only turn these into QVariants.

#include "core/math/attention_config.h"
#include "core/math/attention_result.h"
#include "core/math/gradient_check.h"
#include "core/math/worked_steps.h"

#include <string>
#include <vector>

namespace attnbook {

// The warnings' messages, in order.
std::vector<std::string> warningMessages(const AttentionResult& result);
// Head `head`'s worked arithmetic and trace of query row `focus`; none for no such head.
std::vector<WorkedSection> focusArithmetic(const AttentionResult& result, int head, int focus,
                                           int digits);
std::vector<TraceStep> focusTrace(const AttentionResult& result, int head, int focus, int digits);
// Head `head`'s weight on each key of query row `focus`; none for no such head.
std::vector<double> focusShareValues(const AttentionResult& result, int head, int focus);
// One weight, one output entry: 0 outside the result.
double weightAt(const AttentionResult& result, int head, int row, int column);
double outputEntry(const AttentionResult& result, int row, int column);
// The paper's words for the check (gradientCheckSentences, with the slopes), in one line.
std::string gradientCheckOneLine(const GradientCheckReport& check);
// Whether each of the `keys` keys is padding (keys past the flags are not).
std::vector<bool> paddedKeys(const AttentionConfig& config, int keys);
// The gradient names (the result's grad.NAME) of this mode's parameters, the token vectors
// aside: the gradients view offers ∂L/∂X beside the upstream gradient already.
std::vector<std::string> parameterGradientNames(const AttentionConfig& config);
// The largest |change| of any share against the authored cell; 0 when the two cannot be compared
// (compareProblem).
double shareChangeRange(const AttentionResult& authored, const AttentionResult& now);

// Why Compare cannot set the cell now beside the lesson's (another number of heads or tokens),
// in a sentence, or "" when it can.
std::string compareProblem(const AttentionResult& authored, const AttentionResult& now);

} // namespace attnbook

#pragma once
// The two steps a transformer cell's what-if is computed in (TransformerCellModel's comment),
// without Qt: the forward pass (the stream, the FFN, the chances, the loss), then the rest
// (generation, the backward pass and the gradient check). Each throws InvalidConfig for
// settings that cannot be computed.

#include "core/document/expression.h"
#include "core/document/json.h"
#include "core/document/result_json.h"
#include "core/live/recompute_queue.h"
#include "core/math/transformer_config.h"
#include "core/math/transformer_result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace attnbook {

// The forward pass alone: what the worker computes first for a large cell.
std::shared_ptr<TransformerResult> transformerForwardStep(const TransformerConfig& config);
// The rest of `forward` (copied: the shown result stays as it is): generation unless it ran
// or was refused, then the backward pass.
std::shared_ptr<TransformerResult> transformerRestStep(const TransformerConfig& config,
                                                       const TransformerResult& forward);
// The forward pass with generation, on the GUI thread for a small cell; with the rest too when
// `whole`.
std::shared_ptr<TransformerResult> transformerInlineStep(const TransformerConfig& config,
                                                         bool whole);
// Whether prose reading `path` waits for the rest: the paths under grad, gradcheck and
// generation.
bool transformerPathNeedsRest(const BindingPath& path);

// One step of a recompute, as the window receives it.
struct TransformerOutcome {
    TransformerStep step = TransformerStep::Forward;
    std::uint64_t serial = 0; // the settings it computed (TransformerStepQueue::serial)
    std::shared_ptr<const TransformerResult> result;
    std::shared_ptr<const Json> json;
    std::string error; // why the settings cannot be computed; then no result
    double milliseconds = 0.0;
};

// Runs `work` (a step above), timed, with the JSON of cell `id` when `quoted` (only the paths
// it selects, unless it is empty: then all); a refusal or running out of memory becomes the
// outcome's error.
TransformerOutcome
runTransformerStep(TransformerStep step, std::uint64_t serial,
                   const std::function<std::shared_ptr<TransformerResult>()>& work,
                   const std::string& id, const JsonSelection* quoted);

} // namespace attnbook

#include "core/live/transformer_steps.h"

#include "core/math/transformer_engine.h"

#include <chrono>
#include <new>
#include <string>
#include <variant>

namespace attnbook {

std::shared_ptr<TransformerResult> transformerForwardStep(const TransformerConfig& config) {
    auto result = std::make_shared<TransformerResult>();
    TransformerEngine().forward(config, *result);
    return result;
}

std::shared_ptr<TransformerResult> transformerRestStep(const TransformerConfig& config,
                                                       const TransformerResult& forward) {
    // The forward numbers are copied (a few MB at GPT-2's size; the gradients, the bulk, are
    // not there yet).
    auto result = std::make_shared<TransformerResult>(forward);
    TransformerEngine engine;
    if (!result->generation.ran && result->generation.refused.empty()) {
        engine.generate(config, *result);
    }
    engine.backward(config, *result);
    return result;
}

std::shared_ptr<TransformerResult> transformerInlineStep(const TransformerConfig& config,
                                                         bool whole) {
    TransformerEngine engine;
    auto result = std::make_shared<TransformerResult>();
    engine.forward(config, *result);
    engine.generate(config, *result);
    if (whole) {
        engine.backward(config, *result);
    }
    return result;
}

bool transformerPathNeedsRest(const BindingPath& path) {
    if (path.steps.empty()) {
        return false;
    }
    const auto* first = std::get_if<std::string>(&path.steps[0]);
    return first && (*first == "grad" || *first == "gradcheck" || *first == "generation");
}

TransformerOutcome
runTransformerStep(TransformerStep step, std::uint64_t serial,
                   const std::function<std::shared_ptr<TransformerResult>()>& work,
                   const std::string& id, const JsonSelection* quoted) {
    const auto start = std::chrono::steady_clock::now();
    TransformerOutcome outcome;
    outcome.step = step;
    outcome.serial = serial;
    try {
        std::shared_ptr<TransformerResult> result = work();
        if (quoted) {
            // Only what the quoting paths read: the whole JSON of a large cell costs more than
            // computing it.
            outcome.json = std::make_shared<const Json>(
                transformerJson(id, *result, quoted->empty() ? nullptr : quoted));
        }
        outcome.result = std::move(result);
    } catch (const InvalidConfig& e) {
        outcome.error = e.error().message;
    } catch (const std::bad_alloc&) {
        outcome.error = "not enough memory to compute this cell";
    }
    outcome.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return outcome;
}

} // namespace attnbook

#include "core/document/cell_cost.h"

#include "core/document/lesson.h"
#include "core/math/attention_shapes.h"
#include "core/math/gradient_check.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_knockouts.h"
#include "core/math/transformer_stages.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace attnbook {
namespace {

// Bytes per number while the Json tree is built (a node with its variant and vector slot),
// measured: n = 4096, d = 64 took 4.2 GB for 35 million numbers and 0.85 GB of tensors.
constexpr double kJsonTreePerNumber = 100;
// Tensors alive at once: the forward pass, its gradients, the gradient check's copy.
constexpr double kTensorCopies = 3;

CostLimits& currentLimits() {
    static CostLimits limits;
    return limits;
}

std::string shortNumber(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", value);
    return text;
}

} // namespace

CellCost& CellCost::operator+=(const CellCost& other) {
    bytes += other.bytes;
    multiplyAdds += other.multiplyAdds;
    jsonBytes += other.jsonBytes;
    return *this;
}

CellCost attentionCost(const AttentionShapes& s) {
    const double n = s.n, m = s.m, d = s.d, h = s.h, dK = s.dK, dV = s.dV, dO = s.dO;
    // Doubles of one forward pass, by tensor (shape in the comment):
    const double inputs = 3 * n * d;                        // X0, P, X: (n × d)
    const double projected = (n + m) * h * dK + m * h * dV; // Q (n × h·d_k), K, V (m × h·d_·)
    const double attention = 2 * h * n * m;                 // scores, weights: h × (n × m)
    const double mixed = 2 * n * h * dV + n * dO; // contexts, concat (n × h·d_v), output (n × d_o)
    const double weights = d * h * (2 * dK + dV) + h * dV * dO; // W_Q, W_K, W_V, W_O
    const double forward = inputs + projected + attention + mixed + weights;
    // compute prints the forward tensors and a gradient for every input: upstream (n × d_o),
    // then X and the weights, or in direct mode Q, K and V.
    const double gradients = n * dO + (d > 0 ? n * d + weights : projected);
    const double numbers = forward + gradients;

    // Multiply-adds: the forward and backward passes and exactly what the gradient check will
    // spend, by the one formula the window's recompute charges too (gradient_check.h).
    CellCost cost;
    cost.multiplyAdds = attentionGradientsWork(n, m, d, h, dK, dV, dO);
    cost.jsonBytes = kJsonTextPerNumber * numbers;
    cost.bytes = 8 * kTensorCopies * forward + (kJsonTreePerNumber + kJsonTextPerNumber) * numbers;
    return cost;
}

CellCost transformerCost(const TransformerConfig& c) {
    const double n = double(c.X0.n_rows), d = double(c.X0.n_cols);
    const double V = double(c.unembedding().n_rows);
    const int layers = transformer::layersRun(c);
    const arma::mat placeholder(c.X0.n_rows, c.X0.n_cols, arma::fill::zeros);
    CellCost cost;
    double parameters = n * d + V * d + V; // X0, the unembedding and its bias
    for (int l = 0; l < layers; ++l) {
        const TransformerLayer& layer = c.layers[size_t(l)];
        // Each layer's attention is an attention cell over LN₁ of the stream.
        const AttentionShapes shapes = resolveShapes(
            transformer::attentionOver(layer.attention, placeholder, c.tokens), AttentionLimits{});
        cost += attentionCost(shapes);
        const double hidden = transformer::ffnRuns(layer, c) ? double(layer.ffn.W1.n_rows) : 0;
        // The stream's tensors: input, LN₁, R, LN₂ (with x̂), F, Xˡ (n × d); the FFN's (n × d_ff).
        const double stream = 8 * n * d + 2 * n * hidden;
        const double ffnWeights = 2 * d * hidden + hidden + d;
        cost.bytes += 8 * 3 * (stream + ffnWeights);
        cost.jsonBytes += kJsonTextPerNumber * (stream + ffnWeights);
        cost.multiplyAdds += 3 * 2 * n * d * hidden;
        parameters += shapes.d * shapes.h * (2.0 * shapes.dK + shapes.dV) +
                      double(shapes.h) * shapes.dV * shapes.dO + ffnWeights + 4 * d;
    }
    const double readout = 3 * n * V + V * d; // logits, chances, ∂L/∂logits; ∂L/∂U
    cost.bytes += 8 * 3 * readout + (kJsonTreePerNumber + kJsonTextPerNumber) * readout;
    cost.jsonBytes += kJsonTextPerNumber * readout;
    const double forwardWork = transformerForwardCost(c);
    cost.multiplyAdds += 3 * n * d * V + gradientCheckWork(forwardWork, size_t(parameters));
    if (c.knockouts) {
        // L·h + 3L more forward passes, one at a time (their tensors are the cell's size,
        // counted above); each keeps two rows of V chances and prints one.
        const double kept = knockoutPasses(c) * 2 * V;
        cost.multiplyAdds += knockoutWork(c);
        cost.bytes += 8 * kept + (kJsonTreePerNumber + kJsonTextPerNumber) * kept / 2;
        cost.jsonBytes += kJsonTextPerNumber * kept / 2;
    }
    if (c.generate) {
        const double steps = c.generate->steps, keys = n + steps;
        cost.multiplyAdds += transformerGenerationWork(c);
        cost.bytes += 8 * steps * V + 8 * 2 * keys * d * layers;
    }
    return cost;
}

double transformerGenerationWork(const TransformerConfig& c) {
    if (!c.generate) {
        return 0.0;
    }
    const double n = double(c.X0.n_rows), d = double(c.X0.n_cols);
    const double steps = c.generate->steps, keys = n + steps;
    return steps * (transformerForwardCost(c) / std::max(n, 1.0) +
                    transformer::layersRun(c) * keys * 2 * d);
}

double transformerFirstStepWork(const TransformerConfig& c) {
    return transformerForwardCost(c) + transformerGenerationWork(c);
}

double formulaWorkPerPoint(const std::string& formula) {
    // muParser runs its bytecode once per point. Measured in the engine's multiply-adds
    // (attnbook-cost-bench): an addition or a product with its operands costs about a quarter
    // of one per byte (muParser folds and fuses them), a division, a power or a function call
    // (sin, exp: library calls) about 12. Charging 2.5 a byte and nothing for calls let
    // sin(n)+sin(n)+… run 20 times longer than its estimate.
    double slow = 0;
    for (size_t i = 0; i < formula.size(); ++i) {
        const char c = formula[i];
        const bool opensCall =
            c == '(' && i > 0 &&
            (std::isalnum(static_cast<unsigned char>(formula[i - 1])) || formula[i - 1] == '_');
        if (c == '^' || c == '/' || opensCall) {
            ++slow;
        }
    }
    return 10 + 0.15 * double(formula.size()) + 12 * slow;
}

CellCost chartCost(const ChartCellSpec& chart) {
    const double points = std::max(chart.points, 0);
    CellCost cost;
    for (const ChartSeriesSpec& series : chart.series) {
        cost.multiplyAdds += points * formulaWorkPerPoint(series.formula);
        const double numbers = 2 * points; // x and y
        cost.jsonBytes += kJsonTextPerNumber * numbers;
        cost.bytes += 8 * numbers + (kJsonTreePerNumber + kJsonTextPerNumber) * numbers;
    }
    return cost;
}

CellCost cellCost(const LessonCell& cell) {
    if (const AttentionCellSpec* spec = cell.attention()) {
        try {
            return attentionCost(resolveShapes(spec->config, AttentionLimits{}));
        } catch (const InvalidConfig&) {
            return {}; // computing it fails first, before allocating
        }
    }
    if (const ChartCellSpec* chart = cell.chart()) {
        return chartCost(*chart);
    }
    if (const TransformerCellSpec* spec = cell.transformer()) {
        try {
            validateTransformer(spec->config, TransformerLimits{});
            CellCost cost = transformerCost(spec->config);
            if (spec->training) { // every step's passes, charged before training starts
                cost.multiplyAdds += trainingWork(spec->config, *spec->training);
                // Training keeps three copies of the parameters (Adam's m and v, the gradient)
                // and the shown step's.
                cost.bytes += 8.0 * 4 * double(spec->config.vocab.n_elem);
            }
            return cost;
        } catch (const InvalidConfig&) {
            return {}; // computing it fails first, before allocating
        }
    }
    return {};
}

std::string sizeText(double bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 5) {
        bytes /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 || bytes >= 10 ? "%.0f %s" : "%.1f %s", bytes,
                  units[unit]);
    return text;
}

std::string costProblem(const CellCost& cost, const CostLimits& limits) {
    std::string why;
    const auto add = [&why](const std::string& part) { why += (why.empty() ? "" : ", ") + part; };
    if (cost.bytes > limits.maxBytes) {
        add("about " + sizeText(cost.bytes) + " of memory (the limit is " +
            sizeText(limits.maxBytes) + ": --max-memory)");
    }
    if (cost.multiplyAdds > limits.maxMultiplyAdds) {
        add("about " + shortNumber(cost.multiplyAdds) + " multiply-adds (the limit is " +
            shortNumber(limits.maxMultiplyAdds) + ": --max-work)");
    }
    if (cost.jsonBytes > limits.maxJsonBytes) {
        add("about " + sizeText(cost.jsonBytes) + " of JSON (the limit is " +
            sizeText(limits.maxJsonBytes) + ": --max-json)");
    }
    return why;
}

const CostLimits& costLimits() {
    return currentLimits();
}

void setCostLimits(const CostLimits& limits) {
    currentLimits() = limits;
}

} // namespace attnbook

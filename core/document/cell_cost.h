#pragma once
// What a cell will cost before anything is allocated for it: memory, multiply-adds
// and the size of its JSON, estimated from its shapes alone (n, m, d, h, d_k, d_v, d_o for an
// attention cell; series × points for a chart). computeLesson refuses a cell, and then every
// later one, whose estimate passes the limits, with the cell, its line and the estimate, so
// that `check` and `compute` finish in seconds or say up front why they will not.
//
// The model (measured on a 2-core machine; see cell_cost.cpp):
//   tensors   the forward pass keeps X0, P, X, Q, K, V, the scores and weights of every head
//             (2·h·n·m: the dominant term), the contexts, concat and output; the backward pass
//             one gradient per tensor; the gradient check a private copy of the configuration
//             and one forward pass at a time: about three times the forward doubles.
//   work      attentionGradientsWork (core/math/gradient_check.h, the one formula that the
//             window's recompute charges too): the forward pass (n + m)·h·d_k·d + m·h·d_v·d +
//             n·m·h·(d_k + d_v) + n·d_o·h·d_v (forwardCost), the backward pass about twice
//             that, and the gradient check exactly what it spends (two forward passes per
//             entry it compares, within its budget of 4e7 multiply-adds).
//   JSON      every number compute prints (about 22 bytes of text each, and about 100 bytes
//             of Json tree while it is built, which counts as memory).

#include <string>

namespace attnbook {

struct AttentionShapes;
struct ChartCellSpec;
struct LessonCell;

// Bytes per printed number: "-0.12345678901234567," is about 22 characters.
inline constexpr double kJsonTextPerNumber = 22;

struct CellCost {
    double bytes = 0;        // peak memory, estimated
    double multiplyAdds = 0; // arithmetic, estimated
    double jsonBytes = 0;    // the cell's `compute` JSON

    CellCost& operator+=(const CellCost& other);
};

struct CostLimits {
    double maxBytes = double(1ull << 30); // 1 GiB
    double maxMultiplyAdds = 7e9; // the engine's: about 5 s on the 2-core machine (1/32 of dgemm)
    double maxJsonBytes = double(64ull << 20); // 64 MiB, about 3 million numbers
};

CellCost attentionCost(const AttentionShapes& shapes);
CellCost chartCost(const ChartCellSpec& chart);
// What one evaluation of a chart formula costs, in the engine's multiply-adds.
double formulaWorkPerPoint(const std::string& formula);
// Each layer's attention as an attention cell, plus the stream, the FFN, the logits, the
// gradient check's spend (transformerForwardCost, the same sampling) and generation's steps.
struct TransformerConfig;
CellCost transformerCost(const TransformerConfig& config);
// Multiply-adds of generation with the cache: each step sends one row through every layer,
// against at most n + steps keys (0 without `generate`).
double transformerGenerationWork(const TransformerConfig& config);
// Multiply-adds of what the window shows first after a what-if: the forward pass and the
// generation (no backward pass, no gradient check).
double transformerFirstStepWork(const TransformerConfig& config);
// The cost of a cell that read without errors; zero for a quiz, or when its shapes do not
// resolve (computing it then fails before allocating, with its own error).
CellCost cellCost(const LessonCell& cell);

// Why `cost` passes `limits`: "about 4.2 GB of memory, over the limit of 1 GiB (--max-memory)";
// "" when it does not.
std::string costProblem(const CellCost& cost, const CostLimits& limits);

// "3.2 GB", "512 MB", "12 kB": a size for messages.
std::string sizeText(double bytes);

// The limits computeLesson applies: the defaults above unless the command line set others
// (--max-memory, --max-work, --max-json).
const CostLimits& costLimits();
void setCostLimits(const CostLimits& limits);

} // namespace attnbook

#pragma once
// The gradient check of attention.md: each analytic gradient against central
// differences (step 1e-6) of L = Σ G_Y ⊙ Y, with a norm-wise error.

#include "core/math/attention_config.h"

#include <cstddef>
#include <string>
#include <vector>

namespace attnbook {

struct AttentionResult;

// The checked entry whose analytic and numeric values differ most.
struct GradientCheckEntry {
    std::string gradient; // "W_Q", "b_K", "X", "queries", ...
    int row = 0;
    int col = 0; // a bias is one row: row 0, col = its index
    double analytic = 0.0;
    double numeric = 0.0;
};

struct GradientCheckReport {
    bool ran = false;
    // max |analytic − numeric| over the checked entries, divided by the largest
    // |analytic| or |numeric| among them (0 when every one of them is 0).
    double maxRelError = 0.0;
    size_t checked = 0; // entries compared
    size_t total = 0;   // entries in every gradient
    // Forward passes the check ran (two per entry compared): what it spent, counted as it ran
    // rather than derived, so a test can hold the cost limits to it.
    size_t forwardPasses = 0;
    GradientCheckEntry worst;
    std::string skipped; // why the check did not run (ran == false)

    // A correct pass lands near 1e-9; a wrong gradient far above 1e-6.
    static constexpr double kPassBelow = 1e-6;
    bool passed() const { return ran && maxRelError < kPassBelow; }
};

// The one sampling policy that every view shares, so that `compute`, the PDF
// and the window check the same entries and print the same error: each entry
// costs two forward passes; the check may spend `kBudget` multiply-adds, and
// when it cannot afford every entry it takes evenly spaced ones. Below
// `kMinEntries` affordable entries it does not run and says why.
struct GradientCheckPolicy {
    static constexpr double kBudget = 4e7;
    static constexpr size_t kMaxEntries = 4000;
    static constexpr size_t kMinEntries = 8;
};

// Whether entry `flat` of `total` is one of the `sample` evenly spaced entries the check
// compares (index·total/sample for index = 0 … sample−1).
bool gradientCheckSampled(size_t flat, size_t sample, size_t total);

// The comparisons of one check, summed up as the report says them: the norm-wise error and
// the worst entry. Both checks (attention's, the transformer's) add their entries here.
class GradientComparison {
  public:
    // `values` is the parameter's matrix: entry `e` is (e mod rows, e div rows), column-major.
    void add(const std::string& name, arma::uword rows, arma::uword e, double analytic,
             double numeric);
    // `report` with ran, checked, maxRelError and worst filled in; not run (and why) when a
    // compared value is not a finite number: NaN compares as nothing, and such a check "passed".
    GradientCheckReport finish(GradientCheckReport report) const;

  private:
    double largestDifference_ = -1.0;
    double largestMagnitude_ = 0.0;
    size_t checked_ = 0;
    bool notFinite_ = false; // an analytic or numeric value overflowed
    GradientCheckEntry worst_;
};

GradientCheckReport gradientCheck(const AttentionConfig& config, const AttentionResult& analytic,
                                  const AttentionLimits& limits);

// Multiply-adds of one forward pass of a cell of the result's shape.
double forwardCost(const AttentionResult& shape);
// The same from the shapes alone (n, m query and key rows, d model width, 0 in direct mode,
// h heads of widths d_k and d_v, d_o output width): what the cost limits charge.
double forwardCost(double n, double m, double d, double h, double dK, double dV, double dO);

// How many of `total` gradient entries the check compares when one forward pass costs
// `forwardWork`: all, or as many evenly spaced ones as the budget affords, or 0 when that is
// fewer than kMinEntries (the check then does not run).
size_t gradientCheckSample(double forwardWork, size_t total);
// The multiply-adds the check spends: two forward passes per compared entry.
double gradientCheckWork(double forwardWork, size_t total);

// The entries gradientCheck could compare in a cell of these shapes (d = 0 in direct mode):
// every entry of X, the weights and the biases, or of Q, K and V given directly.
double gradientCheckEntries(double n, double m, double d, double h, double dK, double dV,
                            double dO);
// The one formula of what an attention cell computed with its gradients costs: the
// forward pass, the backward pass (about twice that) and exactly what its gradient check
// spends. The cost limits that `check` and `compute` apply (core/document/cell_cost.cpp) and the
// window's choice of thread (recomputeWork, core/live/attention_recompute.cpp) both charge this.
double attentionGradientsWork(double n, double m, double d, double h, double dK, double dV,
                              double dO);
double attentionGradientsWork(const AttentionResult& shape);

// The gradient check in words, as the window, the lesson PDF and the transformer pages all say
// it (one wording): the error and the verdict, then how many entries were checked
// and where the largest difference is, and with `withSlopes` the two slopes there (the window,
// where lines wrap; a figure label does not). One line when the check did not run.
std::vector<std::string> gradientCheckSentences(const GradientCheckReport& check, bool withSlopes);

} // namespace attnbook

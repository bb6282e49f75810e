// How the cases of test_transformer_reference*.cpp compare the engine's numbers with the
// reference's (transformer_reference.h): every stage of the forward pass and every gradient,
// the first few mismatches of a cell collected with their values in full.
#pragma once

#include "core/math/transformer_engine.h"

#include "reference_failures.h"
#include "transformer_reference.h"
#include "transformer_reference_cells.h"

#include <string>

namespace tref::cells {

// Equal within `tolerance`, relative where the numbers are larger than 1; −∞ equals −∞.
bool close(double actual, Real expected, double tolerance);

// All 17 digits, as %.17g.
std::string precise(double value);

// Collects the first few mismatches of one cell.
class Comparison {
  public:
    double tolerance = 1e-12;

    void matrix(const std::string& name, const arma::mat& actual, const Matrix& expected) {
        if (actual.n_rows != arma::uword(expected.rows) ||
            actual.n_cols != arma::uword(expected.cols)) {
            fail(name + ": " + std::to_string(actual.n_rows) + " × " +
                 std::to_string(actual.n_cols) + ", expected " + std::to_string(expected.rows) +
                 " × " + std::to_string(expected.cols));
            return;
        }
        for (int r = 0; r < expected.rows; ++r) {
            for (int c = 0; c < expected.cols; ++c) {
                entry(name, r, c, actual(arma::uword(r), arma::uword(c)), expected.at(r, c));
            }
        }
    }
    void entry(const std::string& name, int r, int c, double actual, Real expected) {
        if (!close(actual, expected, tolerance)) {
            fail(name + "(" + std::to_string(r) + ", " + std::to_string(c) +
                 ") = " + precise(actual) + ", expected " + precise(double(expected)));
        }
    }
    void empty(const std::string& name, const arma::mat& actual) {
        if (!actual.is_empty()) {
            fail(name + " is " + std::to_string(actual.n_rows) + " × " +
                 std::to_string(actual.n_cols) + ", expected empty");
        }
    }
    void fail(const std::string& what) { failures_.add(what); }
    bool ok() const { return failures_.none(); }
    std::string report() const { return failures_.report(); }

  private:
    attnbook::test::ReferenceFailures failures_{6};
};

void compareNorm(Comparison& cmp, const std::string& name, const LayerNormResult& actual,
                 const tref::NormOut& expected, bool identity);

void compareAttention(Comparison& cmp, const std::string& name, const AttentionResult& actual,
                      const tref::AttentionOut& expected, const tref::Matrix& H, int h);

// Every stage of the forward pass, to 1e-12.
void compareForward(Comparison& cmp, const Draw& draw, const tref::Forward& f,
                    const TransformerResult& r);

// Every gradient field against the hand-derived reference (itself checked by differences).
void compareGradients(Comparison& cmp, const tref::Cell& cell, const tref::Grads& g,
                      const TransformerGradients& got);

} // namespace tref::cells

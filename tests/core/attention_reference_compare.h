// How the cases of test_attention_reference*.cpp compare the engine's result with the
// reference's (attention_reference.h): every matrix, warning and gradient to 1e-12, the first
// few mismatches collected with their values in full; and a reused result against a fresh one.
#pragma once

#include "core/math/attention_engine.h"

#include "attention_reference.h"
#include "reference_failures.h"

#include <string>

namespace ref::cells {

using namespace attnbook;
using ref::Cell;
using ref::Matrix;

constexpr double kTolerance = 1e-12;

// Equal within 1e-12, relative where the numbers are larger than 1. Both −∞
// (a blocked score) counts as equal.
bool close(double a, double b);

// All 17 digits, as %.17g.
std::string precise(double value);

// Collects the first few mismatches of one cell.
class Comparison {
  public:
    void matrix(const char* name, const arma::mat& actual, const Matrix& expected) {
        if (actual.n_rows != arma::uword(expected.rows) ||
            actual.n_cols != arma::uword(expected.cols)) {
            fail(std::string(name) + ": " + std::to_string(actual.n_rows) + " × " +
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
    void vector(const char* name, const arma::rowvec& actual, const std::vector<double>& expected) {
        Matrix row(1, int(expected.size()));
        row.v = expected;
        matrix(name, actual, row);
    }
    void entry(const char* name, int r, int c, double actual, double expected) {
        if (!close(actual, expected)) {
            fail(std::string(name) + "(" + std::to_string(r) + ", " + std::to_string(c) +
                 ") = " + precise(actual) + ", expected " + precise(expected));
        }
    }
    void fail(const std::string& what) { failures_.add(what); }
    bool ok() const { return failures_.none(); }
    std::string report() const { return failures_.report(); }

  private:
    attnbook::test::ReferenceFailures failures_{5};
};

void compareHeads(Comparison& cmp, const Cell& cell, const ref::Result& expected,
                  const AttentionResult& actual);

void compareWarnings(Comparison& cmp, const ref::Result& expected, const AttentionResult& actual);

void compareGradients(Comparison& cmp, const Cell& cell, const ref::Result& expected,
                      const AttentionResult& actual);

Comparison compare(const Cell& cell, const ref::Result& expected, const AttentionResult& actual);

bool identical(const arma::mat& a, const arma::mat& b);

// A reused engine and result must give bit for bit what fresh ones give.
bool sameAsFresh(const AttentionConfig& config, const AttentionResult& reused);

} // namespace ref::cells

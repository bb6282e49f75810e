// The worked arithmetic and the trace (core/math/worked_steps.h) with the colour example's
// numbers (attention.md): what a learner reads must agree between the two views.
#include "core/math/attention_engine.h"
#include "core/math/worked_steps.h"

#include "test_support.h"

using namespace attnbook;

namespace {

AttentionConfig colour() {
    AttentionConfig config;
    config.tokens = {"red", "blue", "red"};
    config.X0 = {{1, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
    return config;
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& line : lines) {
        if (line.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) {
        out += line + "\n";
    }
    return out;
}

} // namespace

// The trace totals the plain exponentials (2e^0.5 + 1 = 4.2974); the arithmetic view
// subtracts the largest score first (2 + e^-0.5 = 2.6065). The trace says why they differ.
TEST_CASE("theTwoTotalsAreExplained") {
    const AttentionResult r = AttentionEngine().compute(colour(), GradientCheck::Skip);
    const std::vector<TraceStep> trace = traceSteps(r, 0, 0);
    REQUIRE_EQ(trace.size(), size_t(8));
    const TraceStep& total = trace[5];
    CHECK_EQ(total.lines[0], std::string("total = 4.2974"));
    CHECK_MESSAGE(
        mentions(total.lines, "subtracts the largest score, 0.5000, first: its total is 2.6065"),
        joined(total.lines));
    const std::vector<WorkedSection> arithmetic = workedArithmetic(r, 0, 0);
    bool shifted = false;
    for (const WorkedSection& s : arithmetic) {
        shifted = shifted || mentions(s.lines, "2.6065");
    }
    CHECK(shifted);
}

// At d_k = 1 the scores are still divided by √d_k = √1: not "no scaling".
TEST_CASE("scalingAtWidthOneIsScaling") {
    AttentionConfig config;
    config.tokens = {"a", "b"};
    config.X0 = arma::mat(arma::colvec{1.0, 2.0});
    const AttentionResult r = AttentionEngine().compute(config, GradientCheck::Skip);
    CHECK_EQ(r.dK, 1);
    std::string all;
    for (const WorkedSection& s : workedArithmetic(r, 0, 0)) {
        all += s.title + "\n" + joined(s.lines);
    }
    CHECK_MESSAGE(all.find("divide by √1 = 1") != std::string::npos, all);
    CHECK(all.find("no scaling") == std::string::npos);
    config.scaleKind = ScaleKind::Off;
    config.X0 = arma::mat{{1.0, 0.0}, {0.0, 2.0}};
    const AttentionResult off = AttentionEngine().compute(config, GradientCheck::Skip);
    all.clear();
    for (const WorkedSection& s : workedArithmetic(off, 0, 0)) {
        all += s.title + "\n" + joined(s.lines);
    }
    CHECK_MESSAGE(all.find("no scaling") != std::string::npos, all);
}

// One vector, one format: whole entries stay whole only while every entry is.
TEST_CASE("aVectorWritesItsEntriesOneWay") {
    CHECK_EQ(readableVector(arma::rowvec{1, 0, -1}, 4), "[1, 0, \u22121]");
    CHECK_EQ(readableVector(arma::rowvec{0.5, 0}, 4), "[0.5000, 0.0000]");
    CHECK_EQ(readableVector(arma::rowvec{2, -0.25}, 2), "[2.00, \u22120.25]");
}

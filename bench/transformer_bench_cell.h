#pragma once
// A random transformer cell whose every matrix and vector is a .npy file, as a lesson reading
// real weights writes it: what attnbook-bench and attnbook-window-bench time. No Qt.

#include <string>

namespace attnbook::bench {

struct TransformerShape {
    int n;      // prompt tokens
    int d;      // model width
    int h;      // heads
    int dFF;    // the FFN's hidden width
    int layers; // L
    int V;      // vocabulary words
};

struct CellFiles {
    std::string text; // the cell as a lesson writes it
    int files = 0;    // .npy files it reads
};

// Writes a random cell's weights to `folder` as .npy files (names prefixed with `id`) and
// returns the cell, every matrix and vector a {file: PATH} value. Weights are N(0, 1/fan_in),
// γ ≈ 1, β and biases small, so that every stage stays of order 1. `extraLines` go before the
// closing fence (`views: [...]`). Draws from Armadillo's generator: seed it first.
CellFiles writeTransformerCell(const std::string& folder, const std::string& id,
                               const TransformerShape& s, bool learnedPositions, bool targets,
                               int generateSteps, const std::string& extraLines = {});

} // namespace attnbook::bench

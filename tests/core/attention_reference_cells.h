// Random attention cells for the cases of test_attention_reference*.cpp: one draw gives the
// reference's Cell (attention_reference.h, every default spelled out) and the AttentionConfig
// that says the same thing the way a document would. Seeded: the same cells every run.
#pragma once

#include "core/math/attention_engine.h"

#include "attention_reference.h"
#include "reference_generator.h"

#include <string>
#include <vector>

namespace ref::cells {

using namespace attnbook;
using ref::Cell;
using ref::Matrix;

struct Draw {
    Cell cell;
    AttentionConfig config;
    std::string label; // what was drawn, for failure messages
};

// The shared random numbers (reference_generator.h), and the draws of an attention cell.
class Generator : public attnbook::test::ReferenceGenerator<Matrix> {
  public:
    using ReferenceGenerator::ReferenceGenerator;

    std::vector<double> vector(int length) { return matrix(1, length).v; }

    // A size that is usually small and sometimes past the causal block of 64
    // rows, with a partial last block.
    int tokens(bool allowLarge) {
        return allowLarge && coin(0.08) ? pick({65, 130, 150, 200}) : integer(1, 9);
    }

    Draw draw(bool allowLarge);

  private:
    void drawMask(Draw& out);
    void drawScale(Draw& out);
    void drawUpstream(Draw& out);
    void drawProjected(Draw& out, bool allowLarge);
    void drawDirect(Draw& out, bool allowLarge);
};

arma::mat toArma(const Matrix& m);

arma::rowvec toArma(const std::vector<double>& v);

// Redraws `draw`'s matrices at n query rows and m key rows, causal.
Draw resized(Generator& gen, Draw draw, int n, int m, int heads, bool padding);

} // namespace ref::cells

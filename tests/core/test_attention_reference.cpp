// The attention engine against the slow, loop-only reference of attention_reference.h,
// written from attention.md alone: a few hundred random cells (attention_reference_cells.h)
// computed both ways must agree to 1e-12. The gradient check's cases are in
// test_attention_reference_gradients.cpp.
#include "core/math/attention_engine.h"
#include "core/math/gradient_check.h"

#include "attention_reference.h"
#include "attention_reference_cells.h"
#include "attention_reference_compare.h"
#include "test_support.h"

#include <cstdio>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <utility>

using namespace attnbook;
using namespace ref::cells;
using attnbook::test::fuzzy;
using ref::Cell;
using ref::Matrix;

// One engine and one result reused across every cell, as the window does:
// nothing computed for one cell may leak into the next.
AttentionEngine engine;
AttentionResult reused;

// How many cells were compared with the reference, printed at exit.
struct Compared {
    int cells = 0;
    ~Compared() {
        if (cells > 0) {
            std::printf("%d cells compared with the reference\n", cells);
        }
    }
} compared;

// One cell both ways; false (with the failure reported) when they disagree.
bool check(const Draw& draw, bool againstFresh) {
    const ref::Result expected = ref::compute(draw.cell);
    try {
        engine.compute(draw.config, reused, GradientCheck::Skip);
    } catch (const std::exception& e) {
        FAIL_CHECK(draw.label << ": threw " << std::string(e.what()));
        return false;
    }
    const Comparison cmp = compare(draw.cell, expected, reused);
    CHECK_MESSAGE(cmp.ok(), draw.label << ": " << cmp.report());
    bool ok = cmp.ok();
    if (againstFresh) {
        const bool same = sameAsFresh(draw.config, reused);
        CHECK_MESSAGE(same, draw.label);
        ok = ok && same;
    }
    ++compared.cells;
    return ok;
}

// 90 cells per seed, a few of them past one causal block.
TEST_CASE("randomCells") {
    for (const uint64_t seed : {1ull, 2ull, 3ull, 20240607ull, 0x5eedull}) {
        test::dataRow("seed " + std::to_string(seed), [&] {
            Generator gen(seed);
            for (int i = 0; i < 90; ++i) {
                if (!check(gen.draw(true), i % 5 == 0)) {
                    return;
                }
            }
        });
    }
}

// Sizes around the causal block of 64 rows: one short block, exactly one,
// one and one row, several with a partial last block; and direct cells
// with more or fewer keys than queries, so blocks start mid-triangle.
TEST_CASE("causalBlocks") {
    struct Size {
        std::string name;
        bool direct;
        int n, m, heads;
    };
    std::vector<Size> sizes;
    for (const int n : {63, 64, 65, 128, 150, 200}) {
        sizes.push_back({"projected n=" + std::to_string(n), false, n, n, 2});
    }
    sizes.push_back({"direct n=150 m=200", true, 150, 200, 3});
    sizes.push_back({"direct n=200 m=150", true, 200, 150, 1});
    sizes.push_back({"direct n=200 m=10", true, 200, 10, 2});
    sizes.push_back({"direct n=70 m=130", true, 70, 130, 4});
    for (const Size& size : sizes) {
        test::dataRow(size.name, [&] {
            Generator gen(uint64_t(size.n * 1000 + size.m));
            for (const bool padding : {false, true}) {
                Draw draw;
                do { // any draw of the right mode, then pinned to this size
                    draw = gen.draw(false);
                } while (draw.cell.direct != size.direct);
                draw = resized(gen, draw, size.n, size.m, size.heads, padding);
                if (!check(draw, true)) {
                    return;
                }
            }
        });
    }
}

// Every named cell with the default upstream (all ones) passes the 1e-6 mark.

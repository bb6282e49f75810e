// The incremental forward passes (AttentionEngine::updateRows and updateProjectedColumn)
// against a full recompute: random cells with projections, biases, positional encodings,
// causal masks, padding and several heads; some token vectors change, and every table the views
// read must equal a fresh forward pass to 1e-12 (relative to values above 1), with the blocked
// entries and the warnings exactly the same.
#include "core/math/attention_engine.h"

#include "test_support.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

using namespace attnbook;

namespace {

// |a − b| ≤ 1e-12 · max(1, |b|) everywhere, and −∞ exactly where the other has −∞.
bool close(const arma::mat& a, const arma::mat& b, std::string& why, const char* name) {
    if (a.n_rows != b.n_rows || a.n_cols != b.n_cols) {
        why = std::string(name) + ": " + std::to_string(a.n_rows) + "×" + std::to_string(a.n_cols) +
              " against " + std::to_string(b.n_rows) + "×" + std::to_string(b.n_cols);
        return false;
    }
    for (arma::uword i = 0; i < a.n_elem; ++i) {
        const double x = a(i), y = b(i);
        if (std::isinf(x) || std::isinf(y)) {
            if (x != y) {
                why = std::string(name) + "[" + std::to_string(i) + "]: " + std::to_string(x) +
                      " against " + std::to_string(y);
                return false;
            }
            continue;
        }
        if (!(std::abs(x - y) <= 1e-12 * std::max(1.0, std::abs(y)))) {
            char text[160];
            std::snprintf(text, sizeof text, "%s[%llu]: %.17g against %.17g (difference %g)", name,
                          static_cast<unsigned long long>(i), x, y, x - y);
            why = text;
            return false;
        }
    }
    return true;
}

std::string compareResults(const AttentionResult& a, const AttentionResult& b) {
    std::string why;
    const std::pair<const char*, const arma::mat AttentionResult::*> tables[] = {
        {"X0", &AttentionResult::X0},         {"P", &AttentionResult::P},
        {"X", &AttentionResult::X},           {"Q", &AttentionResult::Q},
        {"K", &AttentionResult::K},           {"V", &AttentionResult::V},
        {"concat", &AttentionResult::concat}, {"output", &AttentionResult::output}};
    for (const auto& [name, member] : tables) {
        if (!close(a.*member, b.*member, why, name)) {
            return why;
        }
    }
    if (a.head.size() != b.head.size()) {
        return std::to_string(a.head.size()) + " heads against " + std::to_string(b.head.size());
    }
    for (size_t i = 0; i < a.head.size(); ++i) {
        if (!close(a.head[i].scoresT, b.head[i].scoresT, why, "scores") ||
            !close(a.head[i].weightsT, b.head[i].weightsT, why, "weights") ||
            !close(a.head[i].context, b.head[i].context, why, "context")) {
            return "head " + std::to_string(i) + ": " + why;
        }
    }
    if (a.warnings.size() != b.warnings.size()) {
        return std::to_string(a.warnings.size()) + " warnings against " +
               std::to_string(b.warnings.size());
    }
    for (size_t i = 0; i < a.warnings.size(); ++i) {
        if (a.warnings[i].message != b.warnings[i].message) {
            return a.warnings[i].message + " against " + b.warnings[i].message;
        }
    }
    if (a.tokens != b.tokens || a.focus != b.focus) {
        return "labels or focus differ";
    }
    return {};
}

arma::mat randomMatrix(std::mt19937& random, int rows, int cols) {
    std::normal_distribution<double> value(0.0, 1.0);
    arma::mat m(static_cast<arma::uword>(rows), static_cast<arma::uword>(cols));
    m.imbue([&] { return value(random); });
    return m;
}

// A random projection-mode cell: n tokens of width d, h heads, and the settings drawn at
// random (weights or identity, biases, positional, mask, padding).
AttentionConfig randomCell(std::mt19937& random, int n, int d, int h) {
    std::uniform_int_distribution<int> coin(0, 1), three(0, 2);
    AttentionConfig c;
    for (int i = 0; i < n; ++i) {
        c.tokens.push_back(std::string("t").append(std::to_string(i)));
    }
    c.X0 = randomMatrix(random, n, d);
    c.heads = h;
    const int width = d; // h·d_k = h·d_v = d
    for (Projection* p : {&c.wQ, &c.wK, &c.wV}) {
        if (coin(random)) {
            p->identity = false;
            p->weights = randomMatrix(random, width, d) * 0.5;
        }
    }
    if (coin(random)) {
        c.wO.identity = false;
        c.wO.weights = randomMatrix(random, d + 1, width) * 0.5; // d_o = d + 1
    }
    if (coin(random)) {
        c.bQ = arma::rowvec(randomMatrix(random, 1, width));
        c.bK = arma::rowvec(randomMatrix(random, 1, width));
    }
    if (coin(random)) {
        c.bV = arma::rowvec(randomMatrix(random, 1, width));
    }
    const int positional = three(random);
    c.positional = positional == 0   ? PositionalKind::None
                   : positional == 1 ? PositionalKind::Sinusoidal
                                     : PositionalKind::Learned;
    if (c.positional == PositionalKind::Learned) {
        c.learnedP = randomMatrix(random, n, d) * 0.1;
    }
    c.mask = coin(random) ? MaskKind::Causal : MaskKind::None;
    if (three(random) == 0) {
        // A few padded keys; sometimes the first, so that a causal row reads nothing.
        c.padding.assign(size_t(n), false);
        c.padding[0] = coin(random);
        c.padding[size_t(n - 1)] = true;
    }
    c.focus = n / 2;
    return c;
}

} // namespace

// One token's vector edited, then several at once, in a few hundred random cells: the
// incremental pass equals a fresh one.
TEST_CASE("rows edited match a full recompute") {
    std::mt19937 random(2024);
    std::uniform_int_distribution<int> sizes(1, 24);
    AttentionEngine engine;
    int cells = 0, causal = 0, multiHead = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const int h = std::uniform_int_distribution<int>(1, 4)(random);
        const int d = h * std::uniform_int_distribution<int>(1, 4)(random);
        const int n = sizes(random);
        AttentionConfig config = randomCell(random, n, d, h);
        AttentionResult updated = engine.compute(config, GradientCheck::Skip);
        // Several edits in a row, each on the previous incremental result.
        for (int edit = 0; edit < 3; ++edit) {
            std::vector<int> rows;
            const int count = std::uniform_int_distribution<int>(1, std::min(n, 3))(random);
            for (int i = 0; i < count; ++i) {
                rows.push_back(std::uniform_int_distribution<int>(0, n - 1)(random));
            }
            for (const int row : rows) {
                config.X0.row(arma::uword(row)) = randomMatrix(random, 1, d);
            }
            config.tokens[size_t(rows[0])] = std::string("renamed").append(std::to_string(edit));
            config.focus = rows[0];
            engine.updateRows(config, rows, updated);
            AttentionResult full;
            engine.forward(config, full);
            const std::string why = compareResults(updated, full);
            REQUIRE_MESSAGE(why.empty(), "trial " << trial << " (n = " << n << ", d = " << d << ", "
                                                  << h << " heads), edit " << edit << ": " << why);
        }
        ++cells;
        causal += config.mask == MaskKind::Causal;
        multiHead += h > 1;
    }
    // The random draw covered what the update must handle.
    CHECK(causal > 50);
    CHECK(multiHead > 100);
    CHECK_EQ(cells, 300);
}

// A larger causal cell with several heads, edited in its middle and at its first row.
TEST_CASE("a large causal cell") {
    std::mt19937 random(7);
    AttentionConfig config = randomCell(random, 200, 32, 4);
    config.mask = MaskKind::Causal;
    config.padding.clear();
    AttentionEngine engine;
    AttentionResult updated = engine.compute(config, GradientCheck::Skip);
    for (const int row : {117, 0, 199}) {
        config.X0(arma::uword(row), 3) += 0.75;
        engine.updateRows(config, {row}, updated);
        AttentionResult full;
        engine.forward(config, full);
        const std::string why = compareResults(updated, full);
        CHECK_MESSAGE(why.empty(), "row " << row << ": " << why);
    }
}

// The backward pass after an update: the same gradients as a full compute.
TEST_CASE("the backward pass after an update") {
    std::mt19937 random(11);
    AttentionConfig config = randomCell(random, 9, 6, 2);
    AttentionEngine engine;
    AttentionResult updated = engine.compute(config);
    config.X0(4, 1) = 2.5;
    engine.updateRows(config, {4}, updated);
    engine.backward(config, updated);
    const AttentionResult full = engine.compute(config);
    std::string why;
    CHECK_MESSAGE(close(updated.grad.X, full.grad.X, why, "grad X"), why);
    CHECK_MESSAGE(close(updated.grad.W_Q, full.grad.W_Q, why, "grad W_Q"), why);
    CHECK(updated.gradcheck.ran);
    CHECK_EQ(updated.gradcheck.checked, full.gradcheck.checked);
    CHECK(std::abs(updated.gradcheck.maxRelError - full.gradcheck.maxRelError) < 1e-6);
}

// What the update cannot do incrementally it does in full: other shapes.
TEST_CASE("other shapes are computed in full") {
    std::mt19937 random(5);
    AttentionConfig config = randomCell(random, 6, 4, 2);
    AttentionEngine engine;
    AttentionResult updated = engine.compute(config, GradientCheck::Skip);
    config.tokens.push_back("new");
    config.X0.insert_rows(6, randomMatrix(random, 1, 4));
    if (!config.padding.empty()) {
        config.padding.push_back(false);
    }
    if (!config.learnedP.is_empty()) {
        config.learnedP.insert_rows(6, 1);
    }
    engine.updateRows(config, {6}, updated);
    AttentionResult full;
    engine.forward(config, full);
    CHECK_EQ(compareResults(updated, full), std::string());
}

// An edit that overflows is refused as the full pass refuses it.
TEST_CASE("an overflow is refused") {
    std::mt19937 random(3);
    AttentionConfig config = randomCell(random, 5, 4, 1);
    config.wQ.identity = config.wK.identity = false;
    config.wQ.weights = arma::eye(4, 4);
    config.wK.weights = arma::eye(4, 4);
    AttentionEngine engine;
    AttentionResult updated = engine.compute(config, GradientCheck::Skip);
    config.X0(2, 0) = 1e200;
    CHECK_THROWS_AS(engine.updateRows(config, {2}, updated), InvalidConfig);
}

// One weight or bias entry edited (AttentionEngine::updateProjectedColumn), edit after edit on
// the previous incremental result, in a few hundred random cells: every table equals a fresh
// forward pass, for each of W_Q, W_K, W_V and W_O, matrices and identities, with and without
// biases, masks and padding.
TEST_CASE("a projection's weight or bias entry edited matches a full recompute") {
    std::mt19937 random(99);
    AttentionEngine engine;
    using Projected = AttentionEngine::Projected;
    int edits = 0, identities = 0, biases = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const int h = std::uniform_int_distribution<int>(1, 4)(random);
        const int d = h * std::uniform_int_distribution<int>(1, 4)(random);
        const int n = std::uniform_int_distribution<int>(1, 20)(random);
        AttentionConfig config = randomCell(random, n, d, h);
        AttentionResult updated = engine.compute(config, GradientCheck::Skip);
        for (int edit = 0; edit < 6; ++edit) {
            const auto which = Projected(std::uniform_int_distribution<int>(0, 3)(random));
            Projection& proj = which == Projected::Q   ? config.wQ
                               : which == Projected::K ? config.wK
                               : which == Projected::V ? config.wV
                                                       : config.wO;
            arma::rowvec& bias = which == Projected::Q   ? config.bQ
                                 : which == Projected::K ? config.bK
                                 : which == Projected::V ? config.bV
                                                         : config.bO;
            const int outputs = which == Projected::Output ? int(updated.output.n_cols) : d;
            const int column = std::uniform_int_distribution<int>(0, outputs - 1)(random);
            const double value = std::normal_distribution<double>(0.0, 1.0)(random);
            const bool editBias = !bias.is_empty() && edit % 2 == 1;
            if (editBias) {
                bias(arma::uword(column)) = value;
                ++biases;
            } else if (proj.identity) {
                ++identities; // an identity keeps its column; only its bias can change here
                if (bias.is_empty()) {
                    continue;
                }
                bias(arma::uword(column)) = value;
            } else {
                const int input =
                    std::uniform_int_distribution<int>(0, int(proj.weights.n_cols) - 1)(random);
                proj.weights(arma::uword(column), arma::uword(input)) = value;
            }
            engine.updateProjectedColumn(config, which, column, updated);
            AttentionResult full;
            engine.forward(config, full);
            const std::string why = compareResults(updated, full);
            REQUIRE_MESSAGE(why.empty(), "trial " << trial << ", edit " << edit << " of projection "
                                                  << int(which) << ", column " << column << ": "
                                                  << why);
            ++edits;
        }
    }
    CHECK(edits > 600);
    CHECK(identities > 50);
    CHECK(biases > 50);
}

// A thousand edits of one weight in a row leave no drift: the column is computed from the
// inputs each time, not by adding differences.
TEST_CASE("many weight edits in a row do not drift") {
    std::mt19937 random(17);
    AttentionConfig config = randomCell(random, 16, 8, 2);
    config.wQ.identity = false;
    config.wQ.weights = randomMatrix(random, 8, 8);
    AttentionEngine engine;
    AttentionResult updated = engine.compute(config, GradientCheck::Skip);
    for (int edit = 0; edit < 1000; ++edit) {
        config.wQ.weights(3, arma::uword(edit % 8)) = std::sin(edit) * 10.0;
        engine.updateProjectedColumn(config, AttentionEngine::Projected::Q, 3, updated);
    }
    AttentionResult full;
    engine.forward(config, full);
    CHECK_EQ(compareResults(updated, full), std::string());
}

// A column past the projection's width, or a result of other shapes: computed in full.
TEST_CASE("a column edit the update cannot place is computed in full") {
    std::mt19937 random(23);
    AttentionConfig config = randomCell(random, 6, 4, 2);
    AttentionEngine engine;
    AttentionResult updated = engine.compute(config, GradientCheck::Skip);
    config.heads = 1; // other shapes
    engine.updateProjectedColumn(config, AttentionEngine::Projected::K, 1, updated);
    AttentionResult full;
    engine.forward(config, full);
    CHECK_EQ(compareResults(updated, full), std::string());
    engine.updateProjectedColumn(config, AttentionEngine::Projected::V, 99, updated);
    CHECK_EQ(compareResults(updated, full), std::string());
}

// The updates scan only the values an edit changed; a changed value that is not finite is
// refused as the full pass refuses it, naming the same input.
TEST_CASE("a changed value that is not finite is refused") {
    std::mt19937 random(31);
    AttentionConfig config = randomCell(random, 5, 4, 2);
    config.wK.identity = false;
    config.wK.weights = randomMatrix(random, 4, 4);
    AttentionEngine engine;
    AttentionResult updated = engine.compute(config, GradientCheck::Skip);
    AttentionConfig badRow = config;
    badRow.X0(3, 1) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(engine.updateRows(badRow, {3}, updated), InvalidConfig);
    updated = engine.compute(config, GradientCheck::Skip);
    AttentionConfig badWeight = config;
    badWeight.wK.weights(2, 0) = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(
        engine.updateProjectedColumn(badWeight, AttentionEngine::Projected::K, 2, updated),
        InvalidConfig);
}

// The heads, the mask, the padding or the scale edited (AttentionEngine::updateAttention),
// edit after edit on the previous result, in a few hundred random cells: every table equals
// a fresh forward pass, and the warnings of rows that read nothing follow the new mask.
TEST_CASE("heads, mask, padding or scale edited match a full recompute") {
    std::mt19937 random(41);
    AttentionEngine engine;
    int edits = 0, headChanges = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const int d = std::uniform_int_distribution<int>(1, 4)(random) * 4;
        const int n = std::uniform_int_distribution<int>(1, 16)(random);
        AttentionConfig config = randomCell(random, n, d, 2);
        AttentionResult updated = engine.compute(config, GradientCheck::Skip);
        for (int edit = 0; edit < 5; ++edit) {
            switch (std::uniform_int_distribution<int>(0, 3)(random)) {
            case 0: {
                const int heads[] = {1, 2, 4};
                config.heads = heads[std::uniform_int_distribution<int>(0, 2)(random)];
                ++headChanges;
                break;
            }
            case 1:
                config.mask = config.mask == MaskKind::Causal ? MaskKind::None : MaskKind::Causal;
                break;
            case 2:
                config.padding.assign(size_t(n), false);
                config.padding[size_t(std::uniform_int_distribution<int>(0, n - 1)(random))] = true;
                break;
            default:
                config.scaleKind = ScaleKind::Divisor;
                config.scaleDivisor = std::uniform_real_distribution<double>(0.5, 4.0)(random);
                break;
            }
            engine.updateAttention(config, updated);
            AttentionResult full;
            engine.forward(config, full);
            const std::string why = compareResults(updated, full);
            REQUIRE_MESSAGE(why.empty(), "trial " << trial << ", edit " << edit << ": " << why);
            CHECK_EQ(updated.h, full.h);
            CHECK_EQ(updated.scale, full.scale);
            ++edits;
        }
    }
    CHECK_EQ(edits, 1000);
    CHECK(headChanges > 150);
}

// Where Q, K or V would differ (another token count), the update computes in full.
TEST_CASE("an attention update of other shapes is computed in full") {
    std::mt19937 random(43);
    AttentionConfig config = randomCell(random, 6, 4, 2);
    AttentionEngine engine;
    AttentionResult updated = engine.compute(config, GradientCheck::Skip);
    config.tokens.pop_back();
    config.X0.shed_row(5);
    config.padding.clear();
    if (!config.learnedP.is_empty()) {
        config.learnedP.shed_row(5);
    }
    engine.updateAttention(config, updated);
    AttentionResult full;
    engine.forward(config, full);
    CHECK_EQ(compareResults(updated, full), std::string());
}

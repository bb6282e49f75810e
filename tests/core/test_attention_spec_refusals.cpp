// Each way resolveShapes refuses a configuration (attention.md, "Details that settle edge
// cases"), and the engine refusing the same way; the limits accept their edge. The worked
// numbers and the other rules are in test_attention_spec.cpp.
#include "core/math/attention_engine.h"
#include "core/math/attention_shapes.h"

#include "test_support.h"

#include <functional>
#include <limits>
#include <string>
#include <vector>

using namespace attnbook;

namespace {

// A configuration refused by resolveShapes, or a key of "<accepted>".
ConfigError errorOf(const AttentionConfig& config, const AttentionLimits& limits = {}) {
    try {
        resolveShapes(config, limits);
    } catch (const InvalidConfig& e) {
        return e.error();
    }
    return ConfigError{"<accepted>", "", -1, -1};
}

// One refusal: how to build the configuration, and what the error must say.
struct RefusalCase {
    const char* name;
    std::function<AttentionConfig()> make;
    std::string key;
    int row = -1;
    int col = -1;
    std::string messagePart; // must occur in the message ("" = anything)
    AttentionLimits limits = {};
};

AttentionConfig projected(int n, int d) {
    AttentionConfig c;
    c.X0 = arma::mat(arma::uword(n), arma::uword(d), arma::fill::ones);
    return c;
}

AttentionConfig direct(int n, int m, int qWidth, int vWidth) {
    AttentionConfig c;
    c.direct = true;
    c.queries = arma::mat(arma::uword(n), arma::uword(qWidth), arma::fill::ones);
    c.keys = arma::mat(arma::uword(m), arma::uword(qWidth), arma::fill::ones);
    c.values = arma::mat(arma::uword(m), arma::uword(vWidth), arma::fill::ones);
    return c;
}

Projection matrix(int rows, int cols) {
    return Projection{false, arma::mat(arma::uword(rows), arma::uword(cols), arma::fill::ones)};
}

template <typename F> AttentionConfig with(AttentionConfig c, F change) {
    change(c);
    return c;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

AttentionLimits smallLimits() {
    AttentionLimits l;
    l.maxTokens = 8;
    l.maxWidth = 12;
    l.maxHeads = 3;
    return l;
}

// A maker of projected(n, d), for a case that needs nothing else.
std::function<AttentionConfig()> projectedOf(int n, int d) {
    return [=] { return projected(n, d); };
}

// Heads that do not divide their widths, identities that are not square, weights and biases
// of the wrong shape.
std::vector<RefusalCase> headAndWeightRefusals() {
    return {
        // Heads must divide the width they split.
        {"heads do not divide d",
         [] { return with(projected(3, 4), [](auto& c) { c.heads = 3; }); }, "heads", -1, -1,
         "3 heads do not divide"},
        {"heads do not divide W_Q rows",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.heads = 4;
                 c.wQ = matrix(6, 4);
                 c.wK = matrix(6, 4);
             });
         },
         "heads", -1, -1, "6"},
        {"heads do not divide W_V rows",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.heads = 2;
                 c.wV = matrix(5, 4);
             });
         },
         "heads", -1, -1, "5"},
        {"heads below 1", [] { return with(projected(3, 4), [](auto& c) { c.heads = 0; }); },
         "heads", -1, -1, ""},
        {"direct: heads do not divide the query width",
         [] { return with(direct(1, 2, 3, 4), [](auto& c) { c.heads = 2; }); }, "heads", -1, -1,
         "3"},
        {"direct: heads do not divide the value width",
         [] { return with(direct(1, 2, 4, 3), [](auto& c) { c.heads = 2; }); }, "heads", -1, -1,
         "3"},
        // Identity only where it is square.
        {"identity W_Q with d_k · h != d",
         [] { return with(projected(3, 4), [](auto& c) { c.dK = 3; }); }, "W_Q", -1, -1,
         "identity"},
        {"identity W_K with d_k · h != d",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.dK = 2;
                 c.wQ = matrix(2, 4);
             });
         },
         "W_K", -1, -1, "identity"},
        {"identity W_V with d_v · h != d",
         [] { return with(projected(3, 4), [](auto& c) { c.dV = 2; }); }, "W_V", -1, -1,
         "identity"},
        {"W_O columns follow h·d_v",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.wV = matrix(6, 4); // d_v = 6 from the rows; identity W_O is then 6 × 6
                 c.wO = matrix(4, 5);
             });
         },
         "W_O", -1, -1, "4 × 6"},
        // Wrong-shaped weights.
        {"W_Q with the wrong column count",
         [] { return with(projected(3, 4), [](auto& c) { c.wQ = matrix(4, 3); }); }, "W_Q", -1, -1,
         "4 × 4"},
        {"W_K rows differ from W_Q rows",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.wQ = matrix(2, 4);
                 c.wK = matrix(3, 4);
             });
         },
         "W_K", -1, -1, "2 × 4"},
        {"W_V with the wrong column count",
         [] { return with(projected(3, 4), [](auto& c) { c.wV = matrix(4, 2); }); }, "W_V", -1, -1,
         "not 4 × 2"},
        {"W_O with the wrong column count",
         [] { return with(projected(3, 4), [](auto& c) { c.wO = matrix(4, 3); }); }, "W_O", -1, -1,
         "4 × 4"},
        // Bias lengths.
        {"b_Q length", [] { return with(projected(3, 4), [](auto& c) {
                                c.bQ = {1, 2, 3};
                            }); },
         "b_Q", -1, -1, "must have 4 numbers, not 3"},
        {"b_K length",
         [] { return with(projected(3, 4), [](auto& c) {
                  c.bK = {1, 2, 3, 4, 5};
              }); }, "b_K", -1,
         -1, "not 5"},
        {"b_V length", [] { return with(projected(3, 4), [](auto& c) { c.bV = {1}; }); }, "b_V", -1,
         -1, "not 1"},
        {"b_O length follows W_O rows",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.wO = matrix(2, 4);
                 c.bO = {1, 2, 3, 4};
             });
         },
         "b_O", -1, -1, "must have 2 numbers"},
    };
}

// Padding, focus, upstream and labels of the wrong length, and non-finite inputs, which name
// their element.
std::vector<RefusalCase> inputRefusals() {
    return {
        // Padding, focus, upstream, labels.
        {"padding length",
         [] { return with(projected(3, 4), [](auto& c) { c.padding = {true}; }); }, "padding", -1,
         -1, "3 flags"},
        {"direct: padding counts keys, not queries",
         [] { return with(direct(2, 5, 2, 2), [](auto& c) {
                  c.padding = {false, true};
              }); },
         "padding", -1, -1, "5 flags"},
        {"focus below 0", [] { return with(projected(3, 4), [](auto& c) { c.focus = -1; }); },
         "focus", -1, -1, "from 0 to 2"},
        {"focus past the last row",
         [] { return with(projected(3, 4), [](auto& c) { c.focus = 3; }); }, "focus", -1, -1,
         "not 3"},
        {"direct: focus counts queries",
         [] { return with(direct(2, 5, 2, 2), [](auto& c) { c.focus = 4; }); }, "focus", -1, -1,
         "from 0 to 1"},
        {"upstream shape",
         [] { return with(projected(3, 4), [](auto& c) { c.upstream = arma::mat(3, 3); }); },
         "upstream", -1, -1, "3 × 4"},
        {"tokens count",
         [] { return with(projected(3, 4), [](auto& c) {
                  c.tokens = {"a", "b"};
              }); }, "tokens", -1,
         -1, ""},
        {"no tokens", projectedOf(0, 4), "tokens", -1, -1, ""},
        {"no width", projectedOf(3, 0), "vocab", -1, -1, ""},
        {"learned positional shape",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.positional = PositionalKind::Learned;
                 c.learnedP = arma::mat(3, 5, arma::fill::zeros);
             });
         },
         "positional", -1, -1, "3 × 4"},
        {"d_v below 1", [] { return with(projected(3, 4), [](auto& c) { c.dV = -2; }); }, "d_v", -1,
         -1, "at least 1"},
        {"d_k below 1", [] { return with(projected(3, 4), [](auto& c) { c.dK = 0; }); }, "d_k", -1,
         -1, ""},
        // Non-finite inputs name their element.
        {"NaN in X", [] { return with(projected(3, 4), [](auto& c) { c.X0(1, 2) = kNaN; }); }, "X",
         1, 2, ""},
        {"inf in W_V",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.wV = matrix(4, 4);
                 c.wV.weights(2, 3) = kInf;
             });
         },
         "W_V", 2, 3, "not finite"},
        {"-inf in W_O",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.wO = matrix(4, 4);
                 c.wO.weights(0, 1) = -kInf;
             });
         },
         "W_O", 0, 1, ""},
        {"NaN in b_K",
         [] { return with(projected(3, 4), [](auto& c) {
                  c.bK = {0, kNaN, 0, 0};
              }); }, "b_K", 0, 1,
         ""},
        {"inf in b_O",
         [] { return with(projected(3, 4), [](auto& c) {
                  c.bO = {0, 0, 0, kInf};
              }); }, "b_O", 0, 3,
         ""},
        {"NaN in learned P",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.positional = PositionalKind::Learned;
                 c.learnedP = arma::mat(3, 4, arma::fill::zeros);
                 c.learnedP(2, 0) = kNaN;
             });
         },
         "positional", 2, 0, ""},
        {"inf in upstream",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.upstream = arma::mat(3, 4, arma::fill::ones);
                 c.upstream->at(1, 1) = kInf;
             });
         },
         "upstream", 1, 1, ""},
        {"direct: NaN in queries",
         [] { return with(direct(2, 3, 2, 2), [](auto& c) { c.queries(1, 0) = kNaN; }); },
         "queries", 1, 0, ""},
        {"direct: inf in keys",
         [] { return with(direct(2, 3, 2, 2), [](auto& c) { c.keys(2, 1) = kInf; }); }, "keys", 2,
         1, ""},
        {"direct: NaN in values",
         [] { return with(direct(2, 3, 2, 2), [](auto& c) { c.values(0, 1) = kNaN; }); }, "values",
         0, 1, ""},
    };
}

// The custom divisor, and the widths of direct mode.
std::vector<RefusalCase> scaleAndDirectRefusals() {
    return {
        // The custom divisor.
        {"divisor 0",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.scaleKind = ScaleKind::Divisor;
                 c.scaleDivisor = 0;
             });
         },
         "scale", -1, -1, "> 0"},
        {"divisor negative",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.scaleKind = ScaleKind::Divisor;
                 c.scaleDivisor = -2;
             });
         },
         "scale", -1, -1, ""},
        {"divisor NaN",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.scaleKind = ScaleKind::Divisor;
                 c.scaleDivisor = kNaN;
             });
         },
         "scale", -1, -1, ""},
        {"divisor inf",
         [] {
             return with(direct(1, 2, 2, 2), [](auto& c) {
                 c.scaleKind = ScaleKind::Divisor;
                 c.scaleDivisor = kInf;
             });
         },
         "scale", -1, -1, ""},
        // Direct-mode widths.
        {"direct: keys narrower than queries",
         [] {
             return with(direct(1, 3, 2, 2),
                         [](auto& c) { c.keys = arma::mat(3, 3, arma::fill::ones); });
         },
         "keys", -1, -1, "as wide as queries (2), not 3"},
        {"direct: values rows differ from keys rows",
         [] {
             return with(direct(1, 3, 2, 2),
                         [](auto& c) { c.values = arma::mat(4, 2, arma::fill::ones); });
         },
         "values", -1, -1, "one row per key (3), not 4"},
        {"direct: given d_k disagrees",
         [] { return with(direct(1, 3, 4, 2), [](auto& c) { c.dK = 3; }); }, "d_k", -1, -1,
         "must be 4"},
        {"direct: given d_v disagrees",
         [] { return with(direct(1, 3, 4, 2), [](auto& c) { c.dV = 1; }); }, "d_v", -1, -1,
         "must be 2"},
        {"direct: heads below 1",
         [] { return with(direct(1, 2, 2, 2), [](auto& c) { c.heads = 0; }); }, "heads", -1, -1,
         "at least 1"},
        {"direct: queries without columns", [] { return direct(1, 2, 0, 2); }, "queries", -1, -1,
         "at least one column"},
        {"direct: values without columns", [] { return direct(1, 2, 2, 0); }, "values", -1, -1,
         "at least one column"},
        {"direct: no queries", [] { return direct(0, 3, 2, 2); }, "queries", -1, -1, ""},
        {"direct: no keys", [] { return direct(1, 0, 2, 2); }, "keys", -1, -1, ""},
        {"direct: tokens label keys",
         [] { return with(direct(1, 3, 2, 2), [](auto& c) { c.tokens = {"a"}; }); }, "tokens", -1,
         -1, "3 key rows"},
        {"direct: query_tokens label queries",
         [] { return with(direct(1, 3, 2, 2), [](auto& c) {
                  c.queryTokens = {"a", "b"};
              }); },
         "query_tokens", -1, -1, "1 query rows"},
        {"direct: upstream is n × h·d_v",
         [] { return with(direct(2, 3, 2, 4), [](auto& c) { c.upstream = arma::mat(2, 2); }); },
         "upstream", -1, -1, "2 × 4"},
    };
}

// Sizes over the limits, refused with the size in the message.
std::vector<RefusalCase> sizeRefusals() {
    const AttentionLimits l = smallLimits();
    return {
        {"tokens over the limit", projectedOf(9, 4), "tokens", -1, -1, "9", l},
        {"width over the limit", projectedOf(3, 13), "vocab", -1, -1, "13", l},
        {"heads over the limit", [] { return with(projected(3, 4), [](auto& c) { c.heads = 4; }); },
         "heads", -1, -1, "4", l},
        {"h·d_k over the limit",
         [] {
             return with(projected(3, 4), [](auto& c) {
                 c.wQ = matrix(14, 4);
                 c.wK = matrix(14, 4);
             });
         },
         "heads", -1, -1, "14", l},
        {"h·d_v over the limit",
         [] { return with(projected(3, 4), [](auto& c) { c.wV = matrix(15, 4); }); }, "heads", -1,
         -1, "15", l},
        {"d_o over the limit",
         [] { return with(projected(3, 4), [](auto& c) { c.wO = matrix(16, 4); }); }, "W_O", -1, -1,
         "16", l},
        {"huge d_k does not overflow",
         [] {
             return with(projected(3, 6), [](auto& c) {
                 c.dK = 1 << 30;
                 c.heads = 3;
             });
         },
         "heads", -1, -1, "3221225472", l},
        {"huge d_v does not overflow",
         [] {
             return with(projected(3, 6), [](auto& c) {
                 c.dV = 1 << 30;
                 c.heads = 3;
             });
         },
         "heads", -1, -1, "3221225472", l},
        {"direct: queries over the limit", [] { return direct(10, 3, 2, 2); }, "queries", -1, -1,
         "10", l},
        {"direct: keys over the limit", [] { return direct(1, 11, 2, 2); }, "keys", -1, -1, "11",
         l},
        {"direct: query width over the limit", [] { return direct(1, 2, 13, 2); }, "heads", -1, -1,
         "13", l},
        {"direct: value width over the limit", [] { return direct(1, 2, 2, 17); }, "heads", -1, -1,
         "17", l},
        {"direct: heads over the limit",
         [] { return with(direct(1, 2, 4, 4), [](auto& c) { c.heads = 4; }); }, "heads", -1, -1,
         "4", l},
    };
}

// Every refusal, in the order of attention.md's rules.
std::vector<RefusalCase> refusalCases() {
    std::vector<RefusalCase> cases;
    for (auto part : {headAndWeightRefusals, inputRefusals, scaleAndDirectRefusals, sizeRefusals}) {
        std::vector<RefusalCase> some = part();
        cases.insert(cases.end(), some.begin(), some.end());
    }
    return cases;
}

} // namespace

// --- Refusals --------------------------------------------------------

TEST_CASE("refusals") {
    for (const RefusalCase& rc : refusalCases()) {
        test::dataRow(rc.name, [&] {
            const AttentionConfig config = rc.make();
            const ConfigError e = errorOf(config, rc.limits);
            CHECK_EQ(e.key, rc.key);
            CHECK_EQ(e.row, rc.row);
            CHECK_EQ(e.col, rc.col);
            CHECK_MESSAGE(e.message.find(rc.messagePart) != std::string::npos, e.message);
            // The engine refuses the same way before computing anything.
            AttentionEngine engine(rc.limits);
            AttentionResult r;
            try {
                engine.compute(config, r);
                FAIL("the engine accepted it");
            } catch (const InvalidConfig& thrown) {
                CHECK_EQ(thrown.error().key, e.key);
            }
        });
    }
}

TEST_CASE("limitsAcceptTheirEdge") {
    const AttentionLimits l = smallLimits();
    CHECK_EQ(errorOf(projected(8, 12), l).key, std::string("<accepted>"));
    AttentionConfig c = projected(8, 12);
    c.heads = 3;
    CHECK_EQ(errorOf(c, l).key, std::string("<accepted>"));
    CHECK_EQ(errorOf(direct(8, 8, 12, 12), l).key, std::string("<accepted>"));
}

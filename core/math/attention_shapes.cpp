#include "core/math/attention_shapes.h"
#include "core/math/attention_widths.h"

#include "core/math/vector_kernels.h"

#include <cmath>
#include <sstream>

namespace attnbook {
namespace {

[[noreturn]] void fail(const std::string& key, const std::string& message, int row = -1,
                       int col = -1) {
    throw InvalidConfig(ConfigError{key, message, row, col});
}

std::string shapeText(arma::uword rows, arma::uword cols) {
    std::ostringstream out;
    out << rows << " × " << cols;
    return out.str();
}

void requireFinite(const std::string& key, const arma::mat& m) {
    // The common case, in memory order; search only on failure.
    if (vec::allFinite(m.memptr(), m.n_elem)) {
        return;
    }
    for (arma::uword r = 0; r < m.n_rows; ++r) {
        for (arma::uword c = 0; c < m.n_cols; ++c) {
            if (!std::isfinite(m(r, c))) {
                fail(key, key + " holds a number that is not finite", int(r), int(c));
            }
        }
    }
}

void requireFinite(const std::string& key, const arma::rowvec& v) {
    if (vec::allFinite(v.memptr(), v.n_elem)) {
        return;
    }
    for (arma::uword c = 0; c < v.n_elem; ++c) {
        if (!std::isfinite(v(c))) {
            fail(key, key + " holds a number that is not finite", 0, int(c));
        }
    }
}

void requireShape(const std::string& key, const arma::mat& m, arma::uword rows, arma::uword cols,
                  const std::string& why) {
    if (m.n_rows != rows || m.n_cols != cols) {
        fail(key, key + " must be " + shapeText(rows, cols) + " (" + why + "), not " +
                      shapeText(m.n_rows, m.n_cols));
    }
}

void requireLength(const std::string& key, const arma::rowvec& v, int length) {
    if (!v.is_empty() && v.n_elem != arma::uword(length)) {
        fail(key, key + " must have " + std::to_string(length) + " numbers, not " +
                      std::to_string(v.n_elem));
    }
}

void requireWithin(const std::string& key, const std::string& what, long long value, int limit) {
    if (value > limit) {
        fail(key, what + " is " + std::to_string(value) + ", over the limit of " +
                      std::to_string(limit));
    }
}

// The per-head width of a projection: from the key when given, else from the
// matrix's rows, else from the model width (attention.md, "Widths").
int headWidth(const std::optional<int>& given, const char* givenKey, const Projection& proj,
              const char* projKey, int d, int h) {
    if (given) {
        if (*given < 1) {
            fail(givenKey, std::string(givenKey) + " must be at least 1");
        }
        return *given;
    }
    const int width = proj.identity ? d : int(proj.weights.n_rows);
    if (width % h != 0) {
        const std::string source =
            proj.identity ? "the model width " : std::string("the ") + projKey + " rows, ";
        fail("heads", std::to_string(h) + " heads do not divide " + source + std::to_string(width));
    }
    return width / h;
}

void checkProjection(const char* key, const Projection& proj, int outputs, int inputs,
                     bool values) {
    if (proj.identity) {
        if (outputs != inputs) {
            fail(key, std::string(key) + ": identity needs a square projection, but it maps " +
                          std::to_string(inputs) + " to " + std::to_string(outputs));
        }
        return;
    }
    requireShape(key, proj.weights, arma::uword(outputs), arma::uword(inputs),
                 "one row per output unit, one column per input");
    if (values) {
        requireFinite(key, proj.weights);
    }
}

double scaleOf(const AttentionConfig& config, int dK) {
    switch (config.scaleKind) {
    case ScaleKind::InverseSqrtDk:
        return 1.0 / std::sqrt(double(dK));
    case ScaleKind::Off:
        return 1.0;
    case ScaleKind::Divisor:
        if (!std::isfinite(config.scaleDivisor) || config.scaleDivisor <= 0) {
            fail("scale", "a custom scale divisor must be a finite number > 0");
        }
        return 1.0 / config.scaleDivisor;
    }
    return 1.0;
}

void checkCommon(const AttentionConfig& config, const AttentionShapes& s,
                 const AttentionLimits& limits, bool values) {
    requireWithin("heads", "the width h·d_k", (long long)s.h * s.dK, limits.maxWidth);
    requireWithin("heads", "the width h·d_v", (long long)s.h * s.dV, limits.maxWidth);
    requireWithin("W_O", "the output width", s.dO, limits.maxWidth);
    if (!config.padding.empty() && config.padding.size() != size_t(s.m)) {
        fail("padding", "padding needs " + std::to_string(s.m) + " flags, one per token, not " +
                            std::to_string(config.padding.size()));
    }
    if (config.focus < 0 || config.focus >= s.n) {
        fail("focus", "focus must be a row from 0 to " + std::to_string(s.n - 1) + ", not " +
                          std::to_string(config.focus));
    }
    if (config.upstream) {
        requireShape("upstream", *config.upstream, arma::uword(s.n), arma::uword(s.dO),
                     "one row per token, one column per output unit");
        if (values) {
            requireFinite("upstream", *config.upstream);
        }
    }
}

AttentionShapes resolveDirect(const AttentionConfig& config, int heads,
                              const AttentionLimits& limits, bool values) {
    AttentionShapes s;
    s.n = int(config.queries.n_rows);
    s.m = int(config.keys.n_rows);
    s.h = heads;
    if (s.n < 1) {
        fail("queries", "queries needs at least one row");
    }
    if (s.m < 1) {
        fail("keys", "keys needs at least one row");
    }
    requireWithin("queries", "the number of queries", s.n, limits.maxTokens);
    requireWithin("keys", "the number of keys", s.m, limits.maxTokens);
    if (s.h < 1) {
        fail("heads", "heads must be at least 1");
    }
    requireWithin("heads", "the number of heads", s.h, limits.maxHeads);
    if (values) {
        requireFinite("queries", config.queries);
        requireFinite("keys", config.keys);
        requireFinite("values", config.values);
    }
    if (config.keys.n_cols != config.queries.n_cols) {
        fail("keys", "keys must be as wide as queries (" + std::to_string(config.queries.n_cols) +
                         "), not " + std::to_string(config.keys.n_cols));
    }
    if (config.values.n_rows != config.keys.n_rows) {
        fail("values", "values needs one row per key (" + std::to_string(s.m) + "), not " +
                           std::to_string(config.values.n_rows));
    }
    const int qWidth = int(config.queries.n_cols);
    const int vWidth = int(config.values.n_cols);
    if (qWidth < 1 || vWidth < 1) {
        fail(qWidth < 1 ? "queries" : "values", "a matrix needs at least one column");
    }
    if (qWidth % s.h != 0 || vWidth % s.h != 0) {
        fail("heads", std::to_string(s.h) + " heads do not divide the width " +
                          std::to_string(qWidth % s.h != 0 ? qWidth : vWidth));
    }
    s.dK = qWidth / s.h;
    s.dV = vWidth / s.h;
    if (config.dK && *config.dK != s.dK) {
        fail("d_k", "d_k must be " + std::to_string(s.dK) + " for these queries");
    }
    if (config.dV && *config.dV != s.dV) {
        fail("d_v", "d_v must be " + std::to_string(s.dV) + " for these values");
    }
    s.dO = s.h * s.dV;
    if (!config.tokens.empty() && config.tokens.size() != size_t(s.m)) {
        fail("tokens", "tokens labels the " + std::to_string(s.m) + " key rows, but has " +
                           std::to_string(config.tokens.size()));
    }
    if (!config.queryTokens.empty() && config.queryTokens.size() != size_t(s.n)) {
        fail("query_tokens", "query_tokens labels the " + std::to_string(s.n) +
                                 " query rows, but has " +
                                 std::to_string(config.queryTokens.size()));
    }
    s.scale = scaleOf(config, s.dK);
    checkCommon(config, s, limits, values);
    return s;
}

AttentionShapes resolveProjected(const AttentionConfig& config, int heads,
                                 const AttentionLimits& limits, bool values) {
    AttentionShapes s;
    s.n = int(config.X0.n_rows);
    s.m = s.n;
    s.d = int(config.X0.n_cols);
    s.h = heads;
    if (s.n < 1) {
        fail("tokens", "a cell needs at least one token");
    }
    requireWithin("tokens", "the number of tokens", s.n, limits.maxTokens);
    if (s.d < 1) {
        fail("vocab", "token vectors need at least one number");
    }
    requireWithin("vocab", "the model width", s.d, limits.maxWidth);
    if (s.h < 1) {
        fail("heads", "heads must be at least 1");
    }
    requireWithin("heads", "the number of heads", s.h, limits.maxHeads);
    if (values) {
        requireFinite("X", config.X0);
    }

    s.dK = headWidth(config.dK, "d_k", config.wQ, "W_Q", s.d, s.h);
    s.dV = headWidth(config.dV, "d_v", config.wV, "W_V", s.d, s.h);
    requireWithin("heads", "the width h·d_k", (long long)s.h * s.dK, limits.maxWidth);
    requireWithin("heads", "the width h·d_v", (long long)s.h * s.dV, limits.maxWidth);
    // Only now is h·d_v known to fit in an int.
    s.dO = config.wO.identity ? s.h * s.dV : int(config.wO.weights.n_rows);
    checkProjection("W_Q", config.wQ, s.h * s.dK, s.d, values);
    checkProjection("W_K", config.wK, s.h * s.dK, s.d, values);
    checkProjection("W_V", config.wV, s.h * s.dV, s.d, values);
    checkProjection("W_O", config.wO, s.dO, s.h * s.dV, values);
    requireLength("b_Q", config.bQ, s.h * s.dK);
    requireLength("b_K", config.bK, s.h * s.dK);
    requireLength("b_V", config.bV, s.h * s.dV);
    requireLength("b_O", config.bO, s.dO);
    if (values) {
        requireFinite("b_Q", config.bQ);
        requireFinite("b_K", config.bK);
        requireFinite("b_V", config.bV);
        requireFinite("b_O", config.bO);
    }
    if (!config.tokens.empty() && config.tokens.size() != size_t(s.n)) {
        fail("tokens", "tokens has " + std::to_string(config.tokens.size()) + " labels for " +
                           std::to_string(s.n) + " rows");
    }
    if (config.positional == PositionalKind::Learned) {
        requireShape("positional", config.learnedP, arma::uword(s.n), arma::uword(s.d),
                     "one row per token, one column per coordinate");
        if (values) {
            requireFinite("positional", config.learnedP);
        }
    }
    s.scale = scaleOf(config, s.dK);
    checkCommon(config, s, limits, values);
    return s;
}

} // namespace

AttentionShapes resolveShapes(const AttentionConfig& config, const AttentionLimits& limits) {
    return config.direct ? resolveDirect(config, config.heads, limits, true)
                         : resolveProjected(config, config.heads, limits, true);
}

AttentionShapes resolveWidths(const AttentionConfig& config, int heads,
                              const AttentionLimits& limits) {
    return config.direct ? resolveDirect(config, heads, limits, false)
                         : resolveProjected(config, heads, limits, false);
}

} // namespace attnbook

#include "core/math/worked_steps.h"

#include <cmath>
#include <cstdio>

namespace attnbook {

namespace {

constexpr const char* kMinus = kMinusSign;
// Past this many coordinates a dot product shows its first terms and "…".
constexpr arma::uword kMaxTerms = 8;

} // namespace

std::string readableVector(const arma::rowvec& v, int digits) {
    // One vector, one format (allWhole): [0.5000, 0.0000], never [0.5000, 0].
    const bool whole = allWhole(v.memptr(), v.n_elem);
    std::string out = "[";
    for (arma::uword i = 0; i < v.n_elem; ++i) {
        out += (i ? ", " : "") + (whole ? readableNumber(v(i), digits) : fixedNumber(v(i), digits));
    }
    return out + "]";
}

std::string keyLabel(const AttentionResult& r, int column) {
    if (column >= 0 && size_t(column) < r.tokens.size()) {
        return r.tokens[size_t(column)];
    }
    return "#" + std::to_string(column);
}

std::string queryLabel(const AttentionResult& r, int row) {
    if (row >= 0 && size_t(row) < r.queryTokens.size()) {
        return r.queryTokens[size_t(row)];
    }
    return "#" + std::to_string(row);
}

namespace {

// A term of a dot product: negative factors in parentheses.
std::string factor(double value, int digits) {
    const std::string text = readableNumber(value, digits);
    return value < 0 && text.rfind(kMinus, 0) == 0 ? "(" + text + ")" : text;
}

std::string dotProductLine(const AttentionResult& r, int head, int focus, int key, int digits) {
    const arma::uword first = arma::uword(head * r.dK);
    // This head's query and key: (1 × d_k) each
    const arma::rowvec q = r.Q.row(arma::uword(focus)).cols(first, first + arma::uword(r.dK) - 1);
    const arma::rowvec k = r.K.row(arma::uword(key)).cols(first, first + arma::uword(r.dK) - 1);
    std::string line = queryLabel(r, focus) + " · " + keyLabel(r, key) + " = ";
    const arma::uword shown = std::min<arma::uword>(q.n_elem, kMaxTerms);
    for (arma::uword i = 0; i < shown; ++i) {
        line += (i ? " + " : "") + std::string("(") + factor(q(i), digits) + " × " +
                factor(k(i), digits) + ")";
    }
    if (shown < q.n_elem) {
        line += " + … (" + std::to_string(q.n_elem - shown) + " more)";
    }
    return line + " = " + readableNumber(arma::dot(q, k), digits);
}

std::string scaleText(const AttentionResult& r, int digits) {
    const double divisor = 1.0 / r.scale;
    const double root = std::sqrt(double(r.dK));
    // 1/√d_k first: at d_k = 1 it is a division by √1 = 1, not "no scaling".
    if (r.dividesBySqrtDk()) {
        return "divide by √" + std::to_string(r.dK) + " = " + readableNumber(root, digits);
    }
    if (r.scale == 1.0) {
        return "no scaling";
    }
    return "divide by " + readableNumber(divisor, digits);
}

// The query's allowed keys' maximum score: softmax subtracts it.
double rowMaximum(const HeadResult& h, int focus, int m) {
    double maximum = -arma::datum::inf;
    for (int c = 0; c < m; ++c) {
        if (!h.blocked(arma::uword(focus), arma::uword(c))) {
            maximum = std::max(maximum, h.score(arma::uword(focus), arma::uword(c)));
        }
    }
    return maximum;
}

std::string blendLine(const AttentionResult& r, int head, int focus, int digits) {
    const HeadResult& h = r.head[size_t(head)];
    const arma::uword first = arma::uword(head * r.dV);
    std::string line;
    for (int c = 0; c < r.m; ++c) {
        if (h.blocked(arma::uword(focus), arma::uword(c))) {
            continue;
        }
        const arma::rowvec v =
            r.V.row(arma::uword(c)).cols(first, first + arma::uword(r.dV) - 1); // (1 × d_v)
        line += (line.empty() ? "" : " + ") +
                readableNumber(h.weight(arma::uword(focus), arma::uword(c)), digits) + " × " +
                readableVector(v, digits);
    }
    if (line.empty()) {
        line = "no token may be read";
    }
    return line + " = " + readableVector(h.context.row(arma::uword(focus)), digits);
}

} // namespace

std::vector<WorkedSection> workedArithmetic(const AttentionResult& r, int head, int focus,
                                            int digits) {
    std::vector<WorkedSection> out;
    if (head < 0 || head >= r.h || focus < 0 || focus >= r.n) {
        return out;
    }
    const HeadResult& h = r.head[size_t(head)];
    const auto blocked = [&](int c) { return h.blocked(arma::uword(focus), arma::uword(c)); };

    WorkedSection compare{"Compare: dot products of the query with each key", {}};
    for (int c = 0; c < r.m; ++c) {
        compare.lines.push_back(dotProductLine(r, head, focus, c, digits) +
                                (blocked(c) ? "  (blocked by the mask)" : ""));
    }
    out.push_back(compare);

    WorkedSection scale{"Scale: " + scaleText(r, digits), {}};
    for (int c = 0; c < r.m; ++c) {
        const std::string name = keyLabel(r, c);
        if (blocked(c)) {
            scale.lines.push_back(name + ": blocked, score " + std::string(kMinus) + "∞");
        } else {
            const double s = h.score(arma::uword(focus), arma::uword(c));
            scale.lines.push_back(name + ": " + readableNumber(s / r.scale, digits) + " × " +
                                  readableNumber(r.scale, digits) + " = " +
                                  readableNumber(s, digits));
        }
    }
    out.push_back(scale);

    WorkedSection softmax{"Softmax: shares that total 1", {}};
    const double maximum = rowMaximum(h, focus, r.m);
    if (maximum == -arma::datum::inf) {
        softmax.lines.push_back("every token is blocked: all shares are 0");
    } else {
        double total = 0.0;
        std::string sumLine = "total = ";
        for (int c = 0; c < r.m; ++c) {
            if (blocked(c)) {
                continue;
            }
            const double e = std::exp(h.score(arma::uword(focus), arma::uword(c)) - maximum);
            total += e;
            softmax.lines.push_back(
                "exp(" + readableNumber(h.score(arma::uword(focus), arma::uword(c)), digits) +
                (maximum != 0 ? " " + std::string(kMinus) + " " + readableNumber(maximum, digits)
                              : std::string()) +
                ") = " + readableNumber(e, digits));
            sumLine += (sumLine.size() > 8 ? " + " : "") + readableNumber(e, digits);
        }
        softmax.lines.push_back(sumLine + " = " + readableNumber(total, digits));
        for (int c = 0; c < r.m; ++c) {
            const double w = h.weight(arma::uword(focus), arma::uword(c));
            if (blocked(c)) {
                softmax.lines.push_back(keyLabel(r, c) + ": share 0 (blocked)");
            } else {
                const double e = std::exp(h.score(arma::uword(focus), arma::uword(c)) - maximum);
                softmax.lines.push_back(keyLabel(r, c) + ": " + readableNumber(e, digits) + " / " +
                                        readableNumber(total, digits) + " = " +
                                        readableNumber(w, digits));
            }
        }
        if (maximum != 0) {
            softmax.lines.push_back("(subtracting the largest score, " +
                                    readableNumber(maximum, digits) +
                                    ", changes no share and keeps exp() from overflowing)");
        }
    }
    out.push_back(softmax);

    out.push_back({"Combine: the shares weigh the values",
                   {"result = " + blendLine(r, head, focus, digits)}});
    return out;
}

std::vector<TraceStep> traceSteps(const AttentionResult& r, int head, int focus, int digits) {
    std::vector<TraceStep> steps;
    if (head < 0 || head >= r.h || focus < 0 || focus >= r.n) {
        return steps;
    }
    const HeadResult& h = r.head[size_t(head)];
    const auto blocked = [&](int c) { return h.blocked(arma::uword(focus), arma::uword(c)); };
    const arma::uword qFirst = arma::uword(head * r.dK);
    const arma::uword vFirst = arma::uword(head * r.dV);
    const std::string who = queryLabel(r, focus);

    const arma::rowvec q = r.Q.row(arma::uword(focus)).cols(qFirst, qFirst + r.dK - 1);
    steps.push_back({"1. The query", {who + " asks with q = " + readableVector(q, digits)}});

    TraceStep keys{"2. The keys", {}};
    for (int c = 0; c < r.m; ++c) {
        keys.lines.push_back(
            keyLabel(r, c) + " offers k = " +
            readableVector(r.K.row(arma::uword(c)).cols(qFirst, qFirst + r.dK - 1), digits) +
            (blocked(c) ? "  (blocked)" : ""));
    }
    steps.push_back(keys);

    TraceStep scores{"3. Scores: q · k", {}};
    for (int c = 0; c < r.m; ++c) {
        scores.lines.push_back(dotProductLine(r, head, focus, c, digits));
    }
    steps.push_back(scores);

    TraceStep scale{"4. Scale: " + scaleText(r, digits), {}};
    std::string scaled;
    for (int c = 0; c < r.m; ++c) {
        scaled +=
            (c ? ", " : "") +
            (blocked(c) ? std::string(kMinus) + "∞"
                        : readableNumber(h.score(arma::uword(focus), arma::uword(c)), digits));
    }
    scale.lines.push_back("scores used: " + scaled);
    steps.push_back(scale);

    // Exponentials of the scores themselves, as a reader would compute them;
    // the shares are the same as with the maximum subtracted.
    TraceStep exps{"5. Exponentials", {}};
    // Past e^700 a double overflows: then shift every score by the largest,
    // which leaves the shares as they are, and say so.
    const double maximum = rowMaximum(h, focus, r.m);
    const double shift = maximum > 700 ? maximum : 0.0;
    if (shift != 0.0) {
        exps.lines.push_back("(the scores are shifted down by " + readableNumber(shift, digits) +
                             " first, so that e^score stays finite; the shares do not change)");
    }
    double total = 0.0;
    for (int c = 0; c < r.m; ++c) {
        if (blocked(c)) {
            exps.lines.push_back(keyLabel(r, c) + ": blocked, e^" + std::string(kMinus) + "∞ = 0");
            continue;
        }
        const double s = h.score(arma::uword(focus), arma::uword(c)) - shift;
        const double e = std::exp(s);
        total += e;
        exps.lines.push_back(keyLabel(r, c) + ": e^" + readableNumber(s, digits) + " = " +
                             readableNumber(e, digits));
    }
    steps.push_back(exps);
    TraceStep sum{"6. Their total", {"total = " + readableNumber(total, digits)}};
    if (shift == 0.0 && maximum != 0.0 && std::isfinite(maximum)) {
        // The arithmetic view exponentiates score − max: a different total, the same shares.
        sum.lines.push_back("(the arithmetic view subtracts the largest score, " +
                            readableNumber(maximum, digits) + ", first: its total is " +
                            readableNumber(total * std::exp(-maximum), digits) +
                            ", and the shares come out the same)");
    }
    steps.push_back(sum);

    TraceStep shares{"7. Shares: each exponential over the total", {}};
    for (int c = 0; c < r.m; ++c) {
        shares.lines.push_back(
            keyLabel(r, c) + ": " +
            readableNumber(h.weight(arma::uword(focus), arma::uword(c)), digits));
    }
    steps.push_back(shares);

    TraceStep blend{"8. Blend the values", {}};
    for (int c = 0; c < r.m; ++c) {
        blend.lines.push_back(
            keyLabel(r, c) + " hands over v = " +
            readableVector(r.V.row(arma::uword(c)).cols(vFirst, vFirst + r.dV - 1), digits));
    }
    blend.lines.push_back("output = " + blendLine(r, head, focus, digits));
    steps.push_back(blend);
    return steps;
}

} // namespace attnbook

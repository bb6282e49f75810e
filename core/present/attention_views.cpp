#include "core/present/attention_views.h"

#include "core/document/matrix_names.h"
#include "core/math/shares_shown.h"

namespace attnbook {
namespace {

bool hasHead(const AttentionResult& result, int head) {
    return head >= 0 && head < result.h;
}

} // namespace

std::vector<std::string> warningMessages(const AttentionResult& result) {
    std::vector<std::string> out;
    out.reserve(result.warnings.size());
    for (const AttentionWarning& w : result.warnings) {
        out.push_back(w.message);
    }
    return out;
}

std::vector<WorkedSection> focusArithmetic(const AttentionResult& result, int head, int focus,
                                           int digits) {
    return hasHead(result, head) ? workedArithmetic(result, head, focus, digits)
                                 : std::vector<WorkedSection>{};
}

std::vector<TraceStep> focusTrace(const AttentionResult& result, int head, int focus, int digits) {
    return hasHead(result, head) ? traceSteps(result, head, focus, digits)
                                 : std::vector<TraceStep>{};
}

std::vector<double> focusShareValues(const AttentionResult& result, int head, int focus) {
    std::vector<double> out;
    if (!hasHead(result, head)) {
        return out;
    }
    const HeadResult& h = result.head[size_t(head)];
    for (int c = 0; c < result.m; ++c) {
        out.push_back(h.weight(arma::uword(focus), arma::uword(c)));
    }
    return out;
}

double weightAt(const AttentionResult& result, int head, int row, int column) {
    if (!hasHead(result, head) || row < 0 || row >= result.n || column < 0 || column >= result.m) {
        return 0.0;
    }
    return result.head[size_t(head)].weight(arma::uword(row), arma::uword(column));
}

double outputEntry(const AttentionResult& result, int row, int column) {
    if (row < 0 || column < 0 || arma::uword(row) >= result.output.n_rows ||
        arma::uword(column) >= result.output.n_cols) {
        return 0.0;
    }
    return result.output(arma::uword(row), arma::uword(column));
}

std::string gradientCheckOneLine(const GradientCheckReport& check) {
    std::string line;
    for (const std::string& sentence : gradientCheckSentences(check, true)) {
        line += (line.empty() ? "" : " ") + sentence;
    }
    return line;
}

std::vector<bool> paddedKeys(const AttentionConfig& config, int keys) {
    std::vector<bool> out;
    for (int c = 0; c < keys; ++c) {
        out.push_back(size_t(c) < config.padding.size() && config.padding[size_t(c)]);
    }
    return out;
}

std::vector<std::string> parameterGradientNames(const AttentionConfig& config) {
    std::vector<std::string> out;
    for (const InputMatrixName& entry : inputMatrixNames()) {
        if (entry.existsIn(config) && entry.role != InputMatrixName::Role::Tokens) {
            out.emplace_back(entry.gradientName);
        }
    }
    return out;
}

double shareChangeRange(const AttentionResult& authored, const AttentionResult& now) {
    return compareProblem(authored, now).empty() ? largestShareChange(now, authored) : 0.0;
}

std::string compareProblem(const AttentionResult& a, const AttentionResult& b) {
    if (a.h != b.h) {
        const auto heads = [](int h) {
            return h == 1 ? std::string("1 head") : std::to_string(h) + " heads";
        };
        return "Compare needs the lesson's " + heads(a.h) + "; the cell now has " + heads(b.h) +
               ".";
    }
    if (a.n != b.n || a.m != b.m) {
        return "Compare needs the lesson's " + std::to_string(a.m) + " tokens; the cell now has " +
               std::to_string(b.m) + ".";
    }
    return "";
}

} // namespace attnbook

#include "app/models/cell_variants.h"

#include "core/math/worked_steps.h"

#include <QVariantMap>

namespace attnbook {
namespace {

// {title, lines} per section.
template <typename Section> QVariantList sectionsToVariant(const std::vector<Section>& sections) {
    QVariantList out;
    for (const Section& s : sections) {
        QVariantMap section;
        section[QStringLiteral("title")] = QString::fromStdString(s.title);
        section[QStringLiteral("lines")] = toQStringList(s.lines);
        out << section;
    }
    return out;
}

bool hasHead(const AttentionResult& result, int head) {
    return head >= 0 && head < result.h;
}

} // namespace

QStringList toQStringList(const std::vector<std::string>& items) {
    QStringList out;
    out.reserve(qsizetype(items.size()));
    for (const std::string& item : items) {
        out << QString::fromStdString(item);
    }
    return out;
}

QVariantList toVariantList(const std::vector<int>& items) {
    QVariantList out;
    for (const int item : items) {
        out << item;
    }
    return out;
}

QString gradientCheckLine(const GradientCheckReport& check) {
    // With the two slopes where the largest difference is.
    return toQStringList(gradientCheckSentences(check, true)).join(QLatin1Char(' '));
}

QVariantList rowValues(const arma::mat& m, arma::uword row, arma::uword columns) {
    QVariantList values;
    for (arma::uword c = 0; c < m.n_cols && c < columns; ++c) {
        values << m(row, c);
    }
    return values;
}

double largestMagnitude(const arma::mat& m) {
    return m.is_empty() ? 0.0 : arma::abs(m).max();
}

QStringList warningLines(const AttentionResult& result) {
    QStringList out;
    for (const AttentionWarning& w : result.warnings) {
        out << QString::fromStdString(w.message);
    }
    return out;
}

QVariantList arithmeticSections(const AttentionResult& result, int head, int focus, int digits) {
    return hasHead(result, head) ? sectionsToVariant(workedArithmetic(result, head, focus, digits))
                                 : QVariantList{};
}

QVariantList traceSections(const AttentionResult& result, int head, int focus, int digits) {
    return hasHead(result, head) ? sectionsToVariant(traceSteps(result, head, focus, digits))
                                 : QVariantList{};
}

QVariantList focusRowShares(const AttentionResult& result, int head, int focus) {
    QVariantList out;
    if (!hasHead(result, head)) {
        return out;
    }
    const HeadResult& h = result.head[size_t(head)];
    for (int c = 0; c < result.m; ++c) {
        out << h.weight(arma::uword(focus), arma::uword(c));
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

} // namespace attnbook

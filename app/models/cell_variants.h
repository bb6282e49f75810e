#pragma once
// The QVariants the cell models hand QML, read from core's results: lists of words and numbers,
// an attention result's labels, shares and worked steps, and the gradient check's sentence.
// One conversion for both cell models (attention_cell_model.h, transformer_cell_model.h).

#include "core/math/attention_result.h"
#include "core/math/gradient_check.h"

#include <QString>
#include <QStringList>
#include <QVariantList>

#include <limits>
#include <string>
#include <vector>

namespace attnbook {

QStringList toQStringList(const std::vector<std::string>& items);
QVariantList toVariantList(const std::vector<int>& items);
// The paper's words for the check (gradientCheckSentences), in one line.
QString gradientCheckLine(const GradientCheckReport& check);
// Row `row` of `m`, its first `columns` numbers at most.
QVariantList rowValues(const arma::mat& m, arma::uword row,
                       arma::uword columns = std::numeric_limits<arma::uword>::max());
double largestMagnitude(const arma::mat& m);

// An attention result as its views read it (its labels: exports/pdf_figures.h).
QStringList warningLines(const AttentionResult& result);
// {title, lines} per section of the focus row's worked arithmetic and trace; [] for no head.
QVariantList arithmeticSections(const AttentionResult& result, int head, int focus, int digits);
QVariantList traceSections(const AttentionResult& result, int head, int focus, int digits);
// Head `head`'s weights on the focus row; [] for no head.
QVariantList focusRowShares(const AttentionResult& result, int head, int focus);
// One weight, one output entry: 0 outside the result.
double weightAt(const AttentionResult& result, int head, int row, int column);
double outputEntry(const AttentionResult& result, int row, int column);

} // namespace attnbook

#pragma once
// The QVariants the cell models hand QML: lists of words and numbers, and an attention result's
// warnings, shares and worked steps as its views read them (core/present/attention_views.h, which
// also gives the single numbers weightAt and outputEntry). One conversion for both cell models
// (attention_cell_model.h, transformer_cell_model.h).

#include "core/present/attention_views.h"

#include <QString>
#include <QStringList>
#include <QVariantList>

#include <string>
#include <vector>

namespace attnbook {

QStringList toQStringList(const std::vector<std::string>& items);
QVariantList toVariantList(const std::vector<int>& items);
QVariantList toVariantList(const std::vector<double>& items);
QVariantList toVariantList(const std::vector<bool>& items);
// The paper's words for the check (gradientCheckSentences), in one line.
QString gradientCheckLine(const GradientCheckReport& check);

QStringList warningLines(const AttentionResult& result);
// {title, lines} per section of the focus row's worked arithmetic and trace; [] for no head.
QVariantList arithmeticSections(const AttentionResult& result, int head, int focus, int digits);
QVariantList traceSections(const AttentionResult& result, int head, int focus, int digits);
// Head `head`'s weights on the focus row; [] for no head.
QVariantList focusRowShares(const AttentionResult& result, int head, int focus);

} // namespace attnbook

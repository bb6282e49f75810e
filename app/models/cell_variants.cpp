#include "app/models/cell_variants.h"

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

// A vector<bool>'s items are proxies: `Item item` reads each as a bool.
template <typename Item> QVariantList itemsToVariant(const std::vector<Item>& items) {
    QVariantList out;
    out.reserve(qsizetype(items.size()));
    for (const Item item : items) {
        out << item;
    }
    return out;
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
    return itemsToVariant(items);
}

QVariantList toVariantList(const std::vector<double>& items) {
    return itemsToVariant(items);
}

QVariantList toVariantList(const std::vector<bool>& items) {
    return itemsToVariant(items);
}

QString gradientCheckLine(const GradientCheckReport& check) {
    return QString::fromStdString(gradientCheckOneLine(check));
}

QStringList warningLines(const AttentionResult& result) {
    return toQStringList(warningMessages(result));
}

QVariantList arithmeticSections(const AttentionResult& result, int head, int focus, int digits) {
    return sectionsToVariant(focusArithmetic(result, head, focus, digits));
}

QVariantList traceSections(const AttentionResult& result, int head, int focus, int digits) {
    return sectionsToVariant(focusTrace(result, head, focus, digits));
}

QVariantList focusRowShares(const AttentionResult& result, int head, int focus) {
    return toVariantList(focusShareValues(result, head, focus));
}

} // namespace attnbook

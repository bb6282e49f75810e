#include "app/models/number_text.h"

#include "core/document/json.h"
#include "core/math/number_format.h"
#include "core/math/worked_steps.h"

#include <charconv>
#include <cmath>
#include <string>

namespace attnbook {

std::optional<double> parseTypedNumber(const QString& text, QString& reason) {
    QString cleaned = text.trimmed();
    cleaned.replace(QChar(0x2212), QLatin1Char('-')); // − as the window writes it
    if (cleaned.isEmpty()) {
        reason = QStringLiteral("type a number");
        return std::nullopt;
    }
    if (cleaned.contains(QLatin1Char(','))) {
        reason = QStringLiteral("use a point for decimals: 1.5, not 1,5");
        return std::nullopt;
    }
    const std::string bytes = cleaned.toStdString();
    const char* first = bytes.data();
    const char* last = first + bytes.size();
    if (*first == '+') {
        ++first;
    }
    double value = 0.0;
    const auto [end, error] = std::from_chars(first, last, value);
    if (error == std::errc::result_out_of_range) {
        reason = QStringLiteral("%1 is too large: it must be a finite number").arg(cleaned);
        return std::nullopt;
    }
    if (error != std::errc() || end != last) {
        reason = QStringLiteral("'%1' is not a number").arg(cleaned);
        return std::nullopt;
    }
    if (std::isnan(value)) {
        reason = QStringLiteral("'%1' is not a number").arg(cleaned);
        return std::nullopt;
    }
    if (!std::isfinite(value)) {
        reason = QStringLiteral("the number must be finite");
        return std::nullopt;
    }
    return value;
}

QString displayNumber(double value, int digits) {
    return QString::fromStdString(readableNumber(value, digits));
}

QStringList NumberText::tableTexts(const QList<double>& values, int digits) {
    const bool whole = allWhole(values.constData(), std::size_t(values.size()));
    QStringList texts;
    texts.reserve(values.size());
    for (const double value : values) {
        texts.append(QString::fromStdString(whole ? readableNumber(value, digits)
                                                  : fixedNumber(value, digits)));
    }
    return texts;
}

QString editableNumber(double value) {
    return QString::fromStdString(shortestDouble(value));
}

} // namespace attnbook

#include "app/models/number_text.h"

#include "core/document/json.h"
#include "core/document/number_input.h"
#include "core/math/number_format.h"
#include "core/math/worked_steps.h"

#include <string>

namespace attnbook {

std::optional<double> parseTypedNumber(const QString& text, QString& reason) {
    std::string why;
    const std::optional<double> value = readTypedNumber(text.toStdString(), why);
    if (!value) {
        reason = QString::fromStdString(why);
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

#pragma once
// Numbers in the window: typed ones read by core's one rule (core/document/number_input.h),
// shown ones written by core's formats (core/math/number_format.h), as QStrings.

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

#include <optional>

namespace attnbook {

// The number in `text`, or nullopt with `reason` set (readTypedNumber).
std::optional<double> parseTypedNumber(const QString& text, QString& reason);

// How the window writes a number: readableNumber (whole numbers without
// decimals, a real minus sign), as a QString.
QString displayNumber(double value, int digits);

// The shortest text that reads back to the same double, for editing.
QString editableNumber(double value);

// The formatter for the QML views that write numbers themselves (the share bars' labels).
class NumberText : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

  public:
    explicit NumberText(QObject* parent = nullptr) : QObject(parent) {}
    // Every one of `values` as a table writes it, one format for all (allWhole): whole
    // numbers when every value is whole, else each with `digits` decimals.
    Q_INVOKABLE static QStringList tableTexts(const QList<double>& values, int digits);
};

} // namespace attnbook

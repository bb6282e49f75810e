#pragma once
// How the menus write a shortcut: the keys of an Action's `shortcut` as the platform writes
// them ("Ctrl+Z"), for the hint at the right of each menu item (Qt Quick's MenuItem draws
// none). A standard key with several bindings (Undo: Ctrl+Z and Alt+Backspace on X11) is
// written by its first, the one the platform puts first.

#include <QKeySequence>
#include <QObject>
#include <QString>
#include <QVariant>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class KeyNames : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

  public:
    explicit KeyNames(QObject* parent = nullptr) : QObject(parent) {}

    // `shortcut`: what an Action's shortcut holds, a QKeySequence::StandardKey or a string.
    Q_INVOKABLE static QString nativeText(const QVariant& shortcut) {
        if (shortcut.typeId() == QMetaType::QString) {
            return QKeySequence(shortcut.toString()).toString(QKeySequence::NativeText);
        }
        if (shortcut.typeId() == QMetaType::QKeySequence) {
            return shortcut.value<QKeySequence>().toString(QKeySequence::NativeText);
        }
        bool isNumber = false;
        const int key = shortcut.toInt(&isNumber);
        if (!isNumber || key <= 0) {
            return {};
        }
        const QList<QKeySequence> bindings =
            QKeySequence::keyBindings(static_cast<QKeySequence::StandardKey>(key));
        return bindings.isEmpty() ? QString() : bindings.first().toString(QKeySequence::NativeText);
    }
};

} // namespace attnbook

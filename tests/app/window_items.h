#pragma once
// Finding the window's items by name, for the tests that drive the real window: through the
// visual tree only (a Repeater's rows have no QObject parent, and a delegate a Repeater let go
// leaves the visual tree at once, though it is deleted later: walking QObject children then
// reached freed objects).

#include <QtCore/QString>
#include <QtQuick/QQuickItem>

// The first item named `name` at or under `root`, or nullptr.
inline QQuickItem* findItem(QQuickItem* root, const QString& name) {
    if (root->objectName() == name) {
        return root;
    }
    for (QQuickItem* child : root->childItems()) {
        if (QQuickItem* found = findItem(child, name)) {
            return found;
        }
    }
    return nullptr;
}

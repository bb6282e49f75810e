#pragma once

#include <QByteArrayList>
#include <QMetaMethod>
#include <QMetaProperty>
#include <QVariantList>

#include <vector>

class QObject;

namespace attnbook {

// Tells QML only what changed. A model's properties are grouped by their NOTIFY signal; this
// remembers each group's values as the model last announced them, and `announce` emits the
// signal of every group whose values differ now. A binding re-evaluates when a signal it
// listens to fires, so one signal for every property made each what-if re-evaluate every
// binding on the cell (docs/architecture.md, "What the window's models announce").
//
// The comparison is against what was last announced, not against the state before an edit:
// a cell's settings change the moment an edit is made, its numbers when the recompute lands,
// and both must reach the views.
class PropertyChanges {
  public:
    // The properties of `meta` whose NOTIFY is one of `signalNames` (names, no parentheses).
    PropertyChanges(const QMetaObject& meta, const QByteArrayList& signalNames);

    // Takes `object`'s values as announced, without a signal (a model's first values).
    void remember(const QObject& object);
    // Emits each group's signal whose values changed since the last call, and remembers them.
    void announce(QObject& object);

  private:
    struct Group {
        QMetaMethod signal;
        std::vector<QMetaProperty> properties;
        QVariantList announced;
    };
    static QVariantList valuesOf(const Group& group, const QObject& object);

    std::vector<Group> groups_;
};

} // namespace attnbook

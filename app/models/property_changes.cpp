#include "app/models/property_changes.h"

#include <QObject>

namespace attnbook {

PropertyChanges::PropertyChanges(const QMetaObject& meta, const QByteArrayList& signalNames) {
    for (const QByteArray& name : signalNames) {
        const int index = meta.indexOfSignal(name + "()");
        Q_ASSERT_X(index >= 0, "PropertyChanges", "no such signal");
        Group group{meta.method(index), {}, {}};
        for (int i = meta.propertyOffset(); i < meta.propertyCount(); ++i) {
            const QMetaProperty property = meta.property(i);
            if (property.hasNotifySignal() && property.notifySignalIndex() == index) {
                group.properties.push_back(property);
            }
        }
        groups_.push_back(std::move(group));
    }
}

QVariantList PropertyChanges::valuesOf(const Group& group, const QObject& object) {
    QVariantList values;
    values.reserve(qsizetype(group.properties.size()));
    for (const QMetaProperty& property : group.properties) {
        values.push_back(property.read(&object));
    }
    return values;
}

void PropertyChanges::remember(const QObject& object) {
    for (Group& group : groups_) {
        group.announced = valuesOf(group, object);
    }
}

void PropertyChanges::announce(QObject& object) {
    for (Group& group : groups_) {
        QVariantList now = valuesOf(group, object);
        if (now != group.announced) {
            group.announced = std::move(now);
            group.signal.invoke(&object, Qt::DirectConnection);
        }
    }
}

} // namespace attnbook

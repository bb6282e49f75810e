#include "app/models/property_changes.h"

#include <QObject>
#include <QtGlobal>

namespace attnbook {

PropertyChanges::PropertyChanges(const QMetaObject& meta, const QByteArrayList& signalNames) {
    for (const QByteArray& name : signalNames) {
        const int index = meta.indexOfSignal(name + "()");
        if (index < 0) {
            // A misspelt group is a programming error, met by the first run of any test that
            // builds the model: stopped there in Release too, not left to leave a group silent
            // (docs/architecture.md, "app/models: what the window's models announce").
            qFatal("PropertyChanges: %s has no signal %s()", meta.className(), name.constData());
        }
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

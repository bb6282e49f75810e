#pragma once
// What Help → About says: the version this build was made from, and what draws the window.

#include "app/window/renderer_choice.h"

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class AppInfo : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(QString version READ version CONSTANT)
    Q_PROPERTY(QString qtVersion READ qtVersion CONSTANT)
    Q_PROPERTY(QString renderer READ renderer CONSTANT)

  public:
    explicit AppInfo(QObject* parent = nullptr) : QObject(parent) {}
    static QString version() { return QStringLiteral(ATTNBOOK_VERSION); }
    static QString qtVersion() { return QString::fromLatin1(qVersion()); }
    static QString renderer() { return sceneGraphRendererSentence(); }
};

} // namespace attnbook

#pragma once
// What each view of a cell is called, for the window's section titles and tabs: the one table
// the paper and the web page read too (core/present/view_titles.h).

#include "core/present/view_titles.h"

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class ViewNames : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

  public:
    explicit ViewNames(QObject* parent = nullptr) : QObject(parent) {}

    Q_INVOKABLE static QString title(const QString& view) {
        return QString::fromStdString(viewTitle(view.toStdString()));
    }
};

} // namespace attnbook

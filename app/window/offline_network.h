#pragma once
// The window never reaches the network: every QML engine of attnbook loads its resources
// (images in prose, in a quiz, a heading, a chart title) through a network access manager that
// serves the program's own resources and the user's files (qrc:, file:, data:) and refuses
// everything else before any connection is made. A lesson is data: opening one must not tell a
// server who opened it, or hang the window on a slow host. The exports fetch nothing either.

#include <QtQml/QQmlNetworkAccessManagerFactory>

#include <atomic>

class QQmlEngine;

namespace attnbook {

class OfflineNetworkFactory : public QQmlNetworkAccessManagerFactory {
  public:
    QNetworkAccessManager* create(QObject* parent) override;

    // How many requests the window has refused since the program started.
    static int refusedRequests();
};

// Sets the one offline factory on `engine` (addModuleImportPath does, for every engine).
void keepOffline(QQmlEngine& engine);

} // namespace attnbook

#include "app/window/offline_network.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QQmlEngine>
#include <QTimer>

namespace attnbook {
namespace {

std::atomic<int> refused{0};

// A reply that has already failed: no host was looked up and no connection made.
class RefusedReply : public QNetworkReply {
  public:
    RefusedReply(const QNetworkRequest& request, QNetworkAccessManager::Operation operation,
                 QObject* parent)
        : QNetworkReply(parent) {
        setRequest(request);
        setUrl(request.url());
        setOperation(operation);
        open(QIODevice::ReadOnly);
        const QString why = QStringLiteral("attnbook does not fetch %1: only files beside the "
                                           "lesson are read")
                                .arg(request.url().scheme());
        setError(QNetworkReply::ContentAccessDenied, why);
        setFinished(true);
        // Reported from the event loop, as every reply's are, once the caller has connected.
        QTimer::singleShot(0, this, [this] {
            Q_EMIT errorOccurred(QNetworkReply::ContentAccessDenied);
            Q_EMIT finished();
        });
    }
    void abort() override {}
    qint64 bytesAvailable() const override { return 0; }

  protected:
    qint64 readData(char*, qint64) override { return -1; }
};

class OfflineNetworkAccess : public QNetworkAccessManager {
  public:
    using QNetworkAccessManager::QNetworkAccessManager;

  protected:
    QNetworkReply* createRequest(Operation operation, const QNetworkRequest& request,
                                 QIODevice* data) override {
        const QString scheme = request.url().scheme().toLower();
        if (scheme == QLatin1String("qrc") || scheme == QLatin1String("file") ||
            scheme == QLatin1String("data") || scheme.isEmpty()) {
            return QNetworkAccessManager::createRequest(operation, request, data);
        }
        ++refused;
        return new RefusedReply(request, operation, this);
    }
};

} // namespace

QNetworkAccessManager* OfflineNetworkFactory::create(QObject* parent) {
    return new OfflineNetworkAccess(parent);
}

int OfflineNetworkFactory::refusedRequests() {
    return refused.load();
}

void keepOffline(QQmlEngine& engine) {
    static OfflineNetworkFactory factory; // outlives every engine
    engine.setNetworkAccessManagerFactory(&factory);
}

} // namespace attnbook

#pragma once
// The lessons opened lately, newest first, kept in QSettings.

#include <QObject>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class RecentFiles : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QStringList files READ files NOTIFY filesChanged)

  public:
    explicit RecentFiles(QObject* parent = nullptr);
    QStringList files() const { return files_; }

    Q_INVOKABLE void add(const QString& path);
    Q_INVOKABLE void remove(const QString& path);
    Q_INVOKABLE void clear();

    static constexpr int kMaximum = 10;

  Q_SIGNALS:
    void filesChanged();

  private:
    void save();
    QStringList files_;
};

} // namespace attnbook

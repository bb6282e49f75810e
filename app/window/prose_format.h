#pragma once
// Prose Markdown set into a text item's document with the typography a
// lesson needs. Qt's Markdown import gives paragraphs no spacing, tight lines
// and tables without padding; this reads the Markdown (GitHub dialect:
// tables) and then sets spacing, heading sizes, code and table styles and
// link colours on the document itself (a detour through HTML would lose
// the collapsed table borders).

#include <QColor>
#include <QObject>
#include <QQuickTextDocument>
#include <QString>
#include <QtQml/qqmlregistration.h>

class QTextDocument;

namespace attnbook {

struct ProseStyle {
    int pixelSize = 16;
    QColor text = QColor(29, 33, 38);
    QColor muted = QColor(91, 99, 112);
    QColor link = QColor(10, 95, 194);
    QColor codeBackground = QColor(242, 243, 245);
    QColor rule = QColor(217, 220, 225);
    QColor tableHeader = QColor(242, 243, 245);
    QString monoFamily = QStringLiteral("monospace");
};

void formatProse(QTextDocument& document, const QString& markdown, const ProseStyle& style);

class ProseFormatter : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

  public:
    explicit ProseFormatter(QObject* parent = nullptr) : QObject(parent) {}
    // Fills the document of a QML TextEdit (its `textDocument`).
    Q_INVOKABLE void present(QQuickTextDocument* target, const QString& markdown, int pixelSize,
                             const QColor& text, const QColor& link, const QColor& codeBackground,
                             const QColor& rule, const QColor& muted) const;
};

} // namespace attnbook

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
#include <QTextDocument>
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

// How the window reads a lesson's Markdown: GitHub's dialect (tables), raw HTML as text, as the
// exports read it (a tag the lesson writes is shown as typed, never read as markup).
QTextDocument::MarkdownFeatures lessonMarkdown();

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
    // Short Markdown (a quiz's question, choices, explanation) as the HTML a Text item shows in
    // its RichText format, read by lessonMarkdown(): raw HTML in it stays text. Images load
    // through the window's offline network (offline_network.h): files beside the lesson only.
    Q_INVOKABLE QString markdownAsHtml(const QString& markdown) const;
    // `text` (a lesson's word, a file path, a message) written as text inside markup that Qt
    // reads (a StyledText item, Qt Charts' titles and names): the page's one escaping function
    // (exports/html/html_escape.h), so no text becomes a tag.
    Q_INVOKABLE QString escapedMarkup(const QString& text) const;
};

} // namespace attnbook

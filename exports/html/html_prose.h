#pragma once
// Markdown prose as HTML for the web page. The Markdown is read exactly as the lesson PDF reads
// it (QTextDocument's CommonMark reader, md4c, in its GitHub dialect: pdf_prose.h), and the
// document it builds is written out block by block and run by run: headings, paragraphs,
// lists, quotes, code, rules and tables become their HTML elements, bold, italic, struck and
// code runs and links their inline ones. Every run of text goes through htmlPageText(), and raw
// HTML in the Markdown is read as text (as the notebook shows it): `<b>` on the page reads
// "<b>", so no lesson can add markup, and nothing it wrote disappears as an unknown tag.
//
// A short paragraph that names a "sample answer" (the lessons' "**Sample answer**" above a
// coding challenge's code) folds itself and what follows, up to the next heading, into a
// <details> element that the reader opens.

#include <QtCore/QString>

#include <map>
#include <set>
#include <vector>

namespace attnbook {

// A heading of the page, for its outline (<nav>).
struct PageHeading {
    int level = 1;
    QString text; // plain text, not escaped
    QString id;   // the element's id (made of letters, digits and '-')
};

// Gives every heading of one page a distinct id made from its text, distinct also from the ids
// reserved for the page's cells ("cell-a": a heading "Cell a" becomes "cell-a-2"). Linear in the
// headings: a repeated heading continues from its last number (20,000 headings named alike took
// 54 s when each counted from 2).
class HeadingIds {
  public:
    QString take(const QString& text);
    void reserve(const QString& id) { taken_.insert(id); }

  private:
    std::set<QString> taken_;
    std::map<QString, int> nextNumber_; // the number a base's next repeat tries first
};

struct ProseHtmlOptions {
    int headingShift = 0; // 1: "#" becomes <h2> (a quiz's question)
    bool foldSampleAnswers = true;
};

// The Markdown as HTML. Headings get ids from `ids` and are appended to `headings` (when not
// null).
QString proseHtml(const QString& markdown, HeadingIds& ids, std::vector<PageHeading>* headings,
                  const ProseHtmlOptions& options = {});

// Markdown of one line or paragraph (a quiz choice, a caption) as inline HTML: no block
// element around it.
QString inlineProseHtml(const QString& markdown);

} // namespace attnbook

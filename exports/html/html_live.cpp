#include "exports/html/html_live.h"

#include "exports/html/html_cell_controls.h"
#include "exports/html/html_escape.h"

#include "core/live/reader_what_ifs.h"
#include "core/present/live_marks.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace attnbook {

namespace {

const QString kModuleResource = QStringLiteral(":/attnbook/web/attnbook_core.js");
const QString kPageScriptResource = QStringLiteral(":/attnbook/web/live_page.js");

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QByteArray resourceBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// JSON inside a <script> element: "<", ">" and "&" as \u escapes (JSON reads them back as
// the same characters), so no lesson text can end the element or open a comment in it, and
// U+2028/U+2029 escaped too. The one way lesson text enters a script.
QByteArray scriptJsonText(const QJsonObject& object) {
    QByteArray json = QJsonDocument(object).toJson(QJsonDocument::Compact);
    QByteArray out;
    out.reserve(json.size());
    for (const char c : json) {
        switch (c) {
        case '<':
            out += "\\u003c";
            break;
        case '>':
            out += "\\u003e";
            break;
        case '&':
            out += "\\u0026";
            break;
        default:
            out += c;
        }
    }
    out.replace("\xE2\x80\xA8", "\\u2028");
    out.replace("\xE2\x80\xA9", "\\u2029");
    return out;
}

QString hashSource(const QByteArray& script) {
    return QStringLiteral("'sha256-%1'")
        .arg(QString::fromLatin1(
            QCryptographicHash::hash(script, QCryptographicHash::Sha256).toBase64()));
}

// A value's opening tag: what it shows, for a reader's tools and the page's tests.
QString valueElement(int number, const NumberedProse& numbered) {
    QString html = QStringLiteral("<span class=\"bound\" data-bind=\"%1\"").arg(number);
    if (number < int(numbered.values.size())) {
        const Binding& b = *numbered.values[size_t(number)].binding;
        html += b.barePath()
                    ? QStringLiteral(" data-path=\"%1\" data-digits=\"%2\"")
                          .arg(htmlPageText(qs(b.expression)))
                          .arg(b.digits)
                    : QStringLiteral(" data-expr=\"%1\"").arg(htmlPageText(qs(b.expression)));
    }
    return html + u'>';
}

QString claimElement(int number, const NumberedProse& numbered) {
    QString html = QStringLiteral("<span class=\"claim\" data-claim=\"%1\"").arg(number);
    if (number < int(numbered.claims.size())) {
        const NumberedBinding& c = numbered.claims[size_t(number)];
        html += QStringLiteral(" data-expr=\"%1\" data-line=\"%2\"")
                    .arg(htmlPageText(qs(c.binding->expression)))
                    .arg(c.line);
    }
    return html + QLatin1String(" hidden></span>");
}

} // namespace

bool livePageModuleBuiltIn() {
    return QFileInfo::exists(kModuleResource);
}

QString withLiveElements(const QString& page, const NumberedProse& numbered) {
    const std::string text = page.toStdString();
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    bool inTag = false; // a mark inside a tag (an attribute) leaves only its text
    readLiveMarks(text, {[&](std::string_view plain) {
                             for (const char c : plain) {
                                 inTag = c == '<' ? true : c == '>' ? false : inTag;
                             }
                             out += plain;
                         },
                         [&](int number) {
                             if (!inTag) {
                                 out += valueElement(number, numbered).toStdString();
                             }
                         },
                         [&] {
                             if (!inTag) {
                                 out += "</span>";
                             }
                         },
                         [&](int number) {
                             if (!inTag) {
                                 out += claimElement(number, numbered).toStdString();
                             }
                         }});
    return QString::fromStdString(out);
}

QString liveBarHtml() {
    return QStringLiteral(
        "<div id=\"live-bar\" class=\"live-bar\" role=\"region\" aria-label=\"Your what-if\" "
        "hidden>\n<p id=\"live-status\" role=\"status\" aria-live=\"polite\"></p>\n"
        "<div class=\"live-actions\"><button type=\"button\" id=\"live-undo\">Undo</button> "
        "<button type=\"button\" id=\"live-reset\">Reset all</button> "
        "<button type=\"button\" id=\"live-copy\">Copy a link to this what-if</button> "
        "<button type=\"button\" id=\"live-text-compare\" aria-pressed=\"false\" disabled>"
        "The lesson's numbers in the text</button></div>\n"
        "<ul id=\"live-notes\" class=\"live-notes\" hidden></ul>\n</div>\n");
}

QString whatIfControlsHtml(const LessonCell& cell) {
    const std::vector<ReaderWhatIf> whatIfs = readerWhatIfs(cell);
    const QString id = htmlPageText(qs(cell.id));
    const QString field = htmlPageText(QStringLiteral("what-if-") + qs(cell.id));
    const QString controls = cellControlsHtml(readerControls(cell), field);
    if (whatIfs.empty() && controls.isEmpty()) {
        return {};
    }
    QString html =
        QStringLiteral("<form class=\"what-ifs\" data-cell=\"%1\" hidden>\n"
                       "<p class=\"what-ifs-title\">Try a what-if on cell %1</p>\n"
                       "<p class=\"edited-note\" hidden>The text and this cell's tables "
                       "follow your what-if; its pictures, dimmed above, still show the "
                       "lesson's own numbers.</p>\n"
                       // a toggle: the lesson's numbers under the what-if's, visibly, for a
                       // phone and a keyboard; at the top, next to the tables it changes
                       // (docs/web-page.md, "Comparing with the lesson")
                       "<div class=\"what-if-row\"><button type=\"button\" "
                       "data-action=\"compare\" aria-pressed=\"false\" disabled>Compare with "
                       "the lesson's numbers</button></div>\n"
                       "<p class=\"control-refusal\" role=\"status\" aria-live=\"polite\" "
                       "hidden></p>\n")
            .arg(id) +
        controls;
    if (!whatIfs.empty()) {
        html += QStringLiteral("<div class=\"what-if-row\"><label for=\"%1-choice\">More "
                               "what-ifs</label><select id=\"%1-choice\" data-field=\"choice\">\n")
                    .arg(field);
        // Each option's value: its what-ifs as a JSON array (a value of YAML may span lines).
        for (const ReaderWhatIf& w : whatIfs) {
            QJsonArray sets;
            for (size_t i = 0; i < w.keys.size(); ++i) {
                sets.append(qs(w.setText(i)));
            }
            const QString value =
                QString::fromUtf8(QJsonDocument(sets).toJson(QJsonDocument::Compact));
            html += QStringLiteral("<option value=\"%1\">%2</option>\n")
                        .arg(htmlPageText(value), htmlPageText(qs(w.label)));
        }
        html += QLatin1String(
            "</select> <button type=\"button\" data-action=\"try\">Try it</button></div>\n");
    }
    html += QStringLiteral(
                "<div class=\"what-if-row\"><label for=\"%1-own\">Your own</label>"
                "<input type=\"text\" id=\"%1-own\" data-field=\"own\" spellcheck=\"false\" "
                "placeholder=\"KEY=VALUE\" aria-describedby=\"%1-hint\"> "
                "<button type=\"button\" data-action=\"own\">Apply</button> "
                "<button type=\"button\" data-action=\"undo\" disabled>Undo this cell</button> "
                "<button type=\"button\" data-action=\"reset\">Reset this cell</button></div>\n"
                "<p class=\"what-if-hint\" id=\"%1-hint\">Your own: any key the cell lets you "
                "change, as <code>attnbook compute --set %2.KEY=VALUE</code> writes it, e.g. "
                "<code>tokens=[a, b]</code>.</p>\n</form>\n")
                .arg(field, id);
    return html;
}

bool livePageScripts(const Lesson& lesson, LivePageScripts* scripts, QString* error) {
    *scripts = {};
    const QByteArray module = resourceBytes(kModuleResource);
    const QByteArray pageScript = resourceBytes(kPageScriptResource);
    if (module.isEmpty() || pageScript.isEmpty()) {
        return true; // a build without the module: the page stays static
    }
    QJsonObject files;
    for (const std::string& path : lessonDataFiles(lesson)) {
        std::string why;
        const std::optional<std::string> bytes =
            lesson.files ? lesson.files->read(path, DataFileLimits{}.maxBytes, why) : std::nullopt;
        if (!bytes) {
            *error = QStringLiteral("%1: cannot put it in the page: %2").arg(qs(path), qs(why));
            return false;
        }
        files.insert(qs(path), QString::fromLatin1(QByteArray::fromStdString(*bytes).toBase64()));
    }
    QJsonObject data;
    // Without the authors' notes, and without the file's name: the same lesson gives the same
    // page wherever it is saved (a bundle's check makes its page again from lesson.md).
    data.insert(QStringLiteral("markdown"), qs(liveLessonSource(lesson.document)));
    data.insert(QStringLiteral("files"), files);
    // The data is JSON, not script: the policy does not need to let it run.
    scripts->html = QStringLiteral("<script type=\"application/json\" id=\"attnbook-lesson\">") +
                    QString::fromUtf8(scriptJsonText(data)) + QLatin1String("</script>\n");
    for (const QByteArray& script : {module, pageScript}) {
        scripts->html +=
            QLatin1String("<script>") + QString::fromUtf8(script) + QLatin1String("</script>\n");
        scripts->scriptSrc << hashSource(script);
    }
    // The module compiles its WebAssembly from bytes inside it; nothing is fetched.
    scripts->scriptSrc << QStringLiteral("'wasm-unsafe-eval'");
    return true;
}

} // namespace attnbook

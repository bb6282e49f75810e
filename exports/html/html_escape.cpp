#include "exports/html/html_escape.h"

#include <QtCore/QStringList>

namespace attnbook {

namespace {

// Characters HTML5 calls parse errors wherever they appear (§13.2.5 "preprocessing the input
// stream"): C0 and C1 controls other than whitespace, and noncharacters.
bool forbiddenInHtml(char32_t c) {
    if (c == U'\t' || c == U'\n' || c == U'\r' || c == U'\f') {
        return false;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        return true;
    }
    return (c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffe) == 0xfffe;
}

} // namespace

QString htmlValidCharacters(QStringView markup) {
    QString out;
    out.reserve(markup.size());
    for (qsizetype i = 0; i < markup.size(); ++i) {
        const QChar c = markup[i];
        if (c.isHighSurrogate() && i + 1 < markup.size() && markup[i + 1].isLowSurrogate()) {
            const char32_t code = QChar::surrogateToUcs4(c, markup[i + 1]);
            if (forbiddenInHtml(code)) {
                out += QChar::ReplacementCharacter;
            } else {
                out += c;
                out += markup[i + 1];
            }
            ++i;
        } else if (c.isSurrogate() || forbiddenInHtml(c.unicode())) {
            out += QChar::ReplacementCharacter;
        } else {
            out += c;
        }
    }
    return out;
}

QString htmlPageText(QStringView text) {
    const QString valid = htmlValidCharacters(text);
    QString out;
    out.reserve(valid.size() + valid.size() / 8);
    for (const QChar c : valid) {
        switch (c.unicode()) {
        case u'&':
            out += QLatin1String("&amp;");
            break;
        case u'<':
            out += QLatin1String("&lt;");
            break;
        case u'>':
            out += QLatin1String("&gt;");
            break;
        case u'"':
            out += QLatin1String("&quot;");
            break;
        case u'\'':
            out += QLatin1String("&#39;");
            break;
        default:
            out += c;
        }
    }
    return out;
}

QString htmlPageHref(QStringView url) {
    const QString trimmed = url.trimmed().toString();
    if (trimmed.startsWith(u'#')) {
        return htmlPageText(trimmed);
    }
    // The scheme is compared without case and without the characters a browser strips from it
    // (tabs and line breaks inside "java\tscript:" still make a javascript: link).
    QString scheme;
    for (const QChar c : trimmed) {
        if (c == u':') {
            break;
        }
        if (c != u'\t' && c != u'\n' && c != u'\r') {
            scheme += c.toLower();
        }
    }
    static const QStringList allowed{QStringLiteral("http"), QStringLiteral("https"),
                                     QStringLiteral("mailto")};
    if (!trimmed.contains(u':') || !allowed.contains(scheme)) {
        return {};
    }
    return htmlPageText(trimmed);
}

} // namespace attnbook

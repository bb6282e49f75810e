#include "exports/html/html_escape.h"

#include "core/present/html_text.h"

#include <QtCore/QStringList>

namespace attnbook {

namespace {

// `text` with each lone surrogate (no UTF-8 can carry one) replaced by U+FFFD.
QString pairedSurrogates(QStringView text) {
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            out += c;
            out += text[++i];
        } else {
            out += c.isSurrogate() ? QChar(QChar::ReplacementCharacter) : c;
        }
    }
    return out;
}

} // namespace

// Both keep the rule in one place, the core's (core/present/html_text.h), which the page's
// WebAssembly module writes its tables with too.
QString htmlValidCharacters(QStringView markup) {
    return QString::fromStdString(htmlValidText(pairedSurrogates(markup).toStdString()));
}

QString htmlPageText(QStringView text) {
    return QString::fromStdString(htmlText(pairedSurrogates(text).toStdString()));
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

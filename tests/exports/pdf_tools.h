#pragma once
// A printed export as the tools a reader or a printer would use see it: the text of each page
// (pdftotext, poppler), every character with its font size and position and every stroked
// rectangle (mutool, MuPDF), the outline and the document information. For the tests of the
// print layout, which check text and structure, never pixels.

#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QRectF>
#include <QtCore/QStringList>
#include <QtCore/QTemporaryDir>
#include <QtCore/QXmlStreamReader>

#include <vector>

namespace pdftools {

// Runs a tool; its standard output, or a null string when it cannot run or fails.
inline QString run(const QString& program, const QStringList& arguments) {
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0) {
        return {};
    }
    return QString::fromUtf8(process.readAllStandardOutput());
}

// The bytes in a file that lives as long as this object.
class PdfFile {
  public:
    explicit PdfFile(const QByteArray& bytes) {
        path_ = dir_.filePath(QStringLiteral("out.pdf"));
        QFile file(path_);
        ok_ = file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    }
    bool ok() const { return ok_; }
    const QString& path() const { return path_; }

  private:
    QTemporaryDir dir_;
    QString path_;
    bool ok_ = false;
};

// Each page's lines of text (pdftotext, reading order), trimmed, without empty lines; a no-break
// space reads as a space.
inline std::vector<QStringList> pageLines(const QString& pdf) {
    const QString text = run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
    std::vector<QStringList> pages;
    QStringList pageTexts = text.split(u'\f');
    if (!pageTexts.isEmpty() && pageTexts.back().trimmed().isEmpty()) {
        pageTexts.removeLast();
    }
    for (QString page : pageTexts) {
        page.replace(QChar(QChar::Nbsp), u' ');
        QStringList lines;
        for (const QString& line : page.split(u'\n')) {
            if (!line.trimmed().isEmpty()) {
                lines << line.trimmed();
            }
        }
        pages.push_back(lines);
    }
    return pages;
}

struct Char {
    QChar c;
    qreal x0 = 0, x1 = 0, size = 0;
    QString font;
};
struct Line {
    std::vector<Char> chars;
    QString text() const {
        QString s;
        for (const Char& c : chars) {
            s += c.c;
        }
        return s;
    }
};
struct Page {
    qreal width = 0, height = 0;
    std::vector<Line> lines;
};

// Every character of every page with its font and size (mutool's structured text).
inline std::vector<Page> pageChars(const QString& pdf) {
    const QString xml =
        run(QStringLiteral("mutool"),
            {QStringLiteral("draw"), QStringLiteral("-q"), QStringLiteral("-F"),
             QStringLiteral("stext"), QStringLiteral("-O"), QStringLiteral("preserve-whitespace"),
             QStringLiteral("-o"), QStringLiteral("-"), pdf});
    std::vector<Page> pages;
    QXmlStreamReader reader(xml);
    qreal size = 0;
    QString font;
    while (!reader.atEnd()) {
        if (reader.readNext() != QXmlStreamReader::StartElement) {
            continue;
        }
        const auto a = reader.attributes();
        if (reader.name() == QLatin1String("page")) {
            pages.push_back({a.value(QLatin1String("width")).toDouble(),
                             a.value(QLatin1String("height")).toDouble(),
                             {}});
        } else if (reader.name() == QLatin1String("line") && !pages.empty()) {
            pages.back().lines.emplace_back();
        } else if (reader.name() == QLatin1String("font")) {
            size = a.value(QLatin1String("size")).toDouble();
            font = a.value(QLatin1String("name")).toString();
        } else if (reader.name() == QLatin1String("char") && !pages.empty() &&
                   !pages.back().lines.empty()) {
            const QStringList quad = a.value(QLatin1String("quad")).toString().split(u' ');
            const QString c = a.value(QLatin1String("c")).toString();
            if (quad.size() == 8 && !c.isEmpty()) {
                pages.back().lines.back().chars.push_back(
                    {c.front(), quad[0].toDouble(), quad[2].toDouble(), size, font});
            }
        }
    }
    return pages;
}

// Every closed rectangle stroked in `colour` ("r g b" as mutool prints it) at `width`, in
// points, on every page (mutool trace), scaled by the path's transform.
inline std::vector<QSizeF> strokedRectangles(const QString& pdf, const QString& colour,
                                             const QString& width) {
    const QString xml = run(QStringLiteral("mutool"), {QStringLiteral("trace"), pdf});
    std::vector<QSizeF> out;
    QXmlStreamReader reader(xml);
    bool inPath = false;
    qreal sx = 1, sy = 1;
    std::vector<QPointF> points;
    bool closed = false;
    while (!reader.atEnd()) {
        const auto token = reader.readNext();
        if (token == QXmlStreamReader::StartElement) {
            const auto a = reader.attributes();
            if (reader.name() == QLatin1String("stroke_path")) {
                inPath = a.value(QLatin1String("color")) == colour &&
                         a.value(QLatin1String("linewidth")) == width;
                const QStringList t = a.value(QLatin1String("transform")).toString().split(u' ');
                sx = t.size() == 6 ? std::hypot(t[0].toDouble(), t[1].toDouble()) : 1;
                sy = t.size() == 6 ? std::hypot(t[2].toDouble(), t[3].toDouble()) : 1;
                points.clear();
                closed = false;
            } else if (inPath && (reader.name() == QLatin1String("moveto") ||
                                  reader.name() == QLatin1String("lineto"))) {
                points.emplace_back(a.value(QLatin1String("x")).toDouble(),
                                    a.value(QLatin1String("y")).toDouble());
            } else if (inPath && reader.name() == QLatin1String("closepath")) {
                closed = true;
            }
        } else if (token == QXmlStreamReader::EndElement &&
                   reader.name() == QLatin1String("stroke_path")) {
            if (inPath && closed && points.size() == 4) {
                qreal left = points[0].x(), right = left, top = points[0].y(), bottom = top;
                for (const QPointF& p : points) {
                    left = std::min(left, p.x());
                    right = std::max(right, p.x());
                    top = std::min(top, p.y());
                    bottom = std::max(bottom, p.y());
                }
                out.emplace_back((right - left) * sx, (bottom - top) * sy);
            }
            inPath = false;
        }
    }
    return out;
}

// Every space glyph the PDF draws between two glyphs of one run of text: how far the next glyph
// starts after it, over the space's own width (1 where nothing stretched it), with the run's
// text (mutool trace: only glyphs the file holds, none a text extractor makes up for a gap).
struct SpaceGap {
    qreal ratio = 1;
    QString text;
};
inline std::vector<SpaceGap> spaceGaps(const QString& pdf) {
    const QString xml = run(QStringLiteral("mutool"), {QStringLiteral("trace"), pdf});
    std::vector<SpaceGap> out;
    QXmlStreamReader reader(xml);
    struct Glyph {
        QChar c;
        qreal x, advance;
    };
    std::vector<Glyph> glyphs;
    qreal size = 0;
    const auto isSpace = [](QChar c) { return c == u' ' || c == u'\t' || c == QChar::Nbsp; };
    while (!reader.atEnd()) {
        const auto token = reader.readNext();
        if (token == QXmlStreamReader::StartElement) {
            const auto a = reader.attributes();
            if (reader.name() == QLatin1String("span")) {
                glyphs.clear();
                size = a.value(QLatin1String("trm")).toString().section(u' ', 0, 0).toDouble();
            } else if (reader.name() == QLatin1String("g")) {
                const QString u = a.value(QLatin1String("unicode")).toString();
                glyphs.push_back({u.isEmpty() ? QChar() : u.front(),
                                  a.value(QLatin1String("x")).toDouble(),
                                  a.value(QLatin1String("adv")).toDouble() * size});
            }
        } else if (token == QXmlStreamReader::EndElement &&
                   reader.name() == QLatin1String("span")) {
            QString text;
            for (const Glyph& g : glyphs) {
                text += isSpace(g.c) ? QChar(u' ') : g.c;
            }
            for (size_t i = 1; i + 1 < glyphs.size(); ++i) {
                if (isSpace(glyphs[i].c) && !isSpace(glyphs[i - 1].c) &&
                    !isSpace(glyphs[i + 1].c) && glyphs[i].advance > 0 &&
                    glyphs[i + 1].x > glyphs[i].x) {
                    out.push_back({(glyphs[i + 1].x - glyphs[i].x) / glyphs[i].advance, text});
                }
            }
        }
    }
    return out;
}

// `mutool show PDF outline`: one line per bookmark, "|" or "+" then tabs for the depth, the
// title in quotes.
struct Bookmark {
    int depth = 0;
    QString title;
};
inline std::vector<Bookmark> outline(const QString& pdf) {
    const QString text =
        run(QStringLiteral("mutool"), {QStringLiteral("show"), pdf, QStringLiteral("outline")});
    std::vector<Bookmark> out;
    for (const QString& line : text.split(u'\n')) {
        const qsizetype open = line.indexOf(u'"');
        const qsizetype close = line.lastIndexOf(u'"');
        if (open < 0 || close <= open) {
            continue;
        }
        // The top level is printed with one tab.
        out.push_back({int(line.left(open).count(u'\t')) - 1,
                       line.mid(open + 1, close - open - 1)
                           .replace(QStringLiteral("\\\""), QStringLiteral("\""))});
    }
    return out;
}

// pdfinfo's "Key: value" lines.
inline QString info(const QString& pdf, const QString& key) {
    for (const QString& line : run(QStringLiteral("pdfinfo"), {pdf}).split(u'\n')) {
        if (line.startsWith(key + u':')) {
            return line.mid(key.size() + 1).trimmed();
        }
    }
    return {};
}

} // namespace pdftools

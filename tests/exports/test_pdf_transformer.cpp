// The printed transformer cell: a lesson with the two-layer model of documents/data/tiny prints
// its settings, the residual stream, the FFN's units, the next word's chances, the generation,
// the cache, attention in blocks, each layer's attention and the gradient check, with the
// numbers `compute` gives, as text pdftotext reads back; a toy cell prints too, and nothing
// prints "nan".
#include "exports/pdf/pdf_lesson.h"
#include "tests/exports/pdf_tools.h"

#include "core/document/json.h"
#include "core/math/number_format.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace attnbook;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString fixed(double v, int digits) {
    return qs(fixedNumber(v, digits));
}

// The tiny model's weights, as the lesson names them.
QString tinyCell(const QString& views) {
    QString layers;
    for (int l = 0; l < 2; ++l) {
        const auto t = [l](const char* name) {
            return QStringLiteral("{file: data/tiny/model.safetensors, tensor: layers.%1.%2}")
                .arg(l)
                .arg(QLatin1String(name));
        };
        layers += QStringLiteral("  - attention:\n"
                                 "      heads: 2\n"
                                 "      mask: causal\n");
        for (const char* w : {"W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O"}) {
            layers += QStringLiteral("      %1: %2\n")
                          .arg(QLatin1String(w), t((std::string("attn.") + w).c_str()));
        }
        layers +=
            QStringLiteral("    ln1: {gamma: %1, beta: %2}\n").arg(t("ln1.gamma"), t("ln1.beta"));
        layers += QStringLiteral("    ffn:\n");
        for (const char* w : {"W_1", "b_1", "W_2", "b_2"}) {
            layers += QStringLiteral("      %1: %2\n")
                          .arg(QLatin1String(w), t((std::string("ffn.") + w).c_str()));
        }
        layers +=
            QStringLiteral("    ln2: {gamma: %1, beta: %2}\n").arg(t("ln2.gamma"), t("ln2.beta"));
    }
    return QStringLiteral("```transformer tiny\n"
                          "tokens: [the, cat, sat, on, the]\n"
                          "vocab: {file: data/tiny/model.safetensors, tensor: embed, labels: "
                          "data/tiny/vocab.txt}\n"
                          "positional: sinusoidal\n"
                          "focus: 1\n"
                          "layers:\n") +
           layers +
           QStringLiteral("final_ln: {gamma: {file: data/tiny/model.safetensors, tensor: "
                          "final_ln.gamma}, beta: {file: data/tiny/model.safetensors, tensor: "
                          "final_ln.beta}}\n"
                          "targets: [cat, sat, on, the, mat]\n"
                          "generate: {steps: 3, pick: greedy}\n"
                          "block_size: 2\n"
                          "views: [%1]\n"
                          "```\n")
               .arg(views);
}

struct Printed {
    Lesson lesson;
    LessonResults results;
    const TransformerResult* result = nullptr;
    std::unique_ptr<pdftools::PdfFile> file;
    std::vector<QStringList> pages;
    QString text;      // every line of every page, joined by spaces
    QStringList lines; // pdftotext -layout: a table's row on one line, runs of spaces as one
};

// The lines of a PDF as pdftotext -layout reads them: each row of a table on one line.
QStringList layoutLines(const QString& pdf) {
    QStringList out;
    static const QRegularExpression spaces(QStringLiteral("\\s+"));
    const QString text = pdftools::run(QStringLiteral("pdftotext"),
                                       {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    for (QString line : text.split(u'\n')) {
        line.replace(QChar(QChar::Nbsp), u' ').replace(u'\f', u' ');
        line = line.replace(spaces, QStringLiteral(" ")).trimmed();
        if (!line.isEmpty()) {
            out << line;
        }
    }
    return out;
}

// Whether some line holds `text`.
bool hasLine(const QStringList& lines, const QString& text) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const QString& line) { return line.contains(text); });
}

} // namespace

class TestPdfTransformer : public QObject {
    Q_OBJECT

    // Writes `markdown` as lesson.md beside a copy of documents/data/tiny and prints it.
    bool print(const QString& markdown, Printed& out) {
        const QString data = dir_.filePath(QStringLiteral("data/tiny"));
        if (!QDir().mkpath(data)) {
            return false;
        }
        for (const char* name : {"model.safetensors", "vocab.txt"}) {
            const QString target = data + u'/' + QLatin1String(name);
            if (!QFile::exists(target) &&
                !QFile::copy(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/data/tiny/") +
                                 QLatin1String(name),
                             target)) {
                return false;
            }
        }
        const QString path = dir_.filePath(QStringLiteral("lesson.md"));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            return false;
        }
        file.write(markdown.toUtf8());
        file.close();
        out.lesson = loadLesson(path.toStdString());
        for (const Diagnostic& d : out.lesson.diagnostics) {
            qWarning() << d.line << qs(d.message);
        }
        if (hasErrors(out.lesson.diagnostics)) {
            return false;
        }
        AttentionEngine engine;
        out.results = computeLesson(out.lesson, engine);
        if (hasErrors(out.results.diagnostics)) {
            return false;
        }
        QByteArray pdf;
        if (!renderLessonPdf(out.lesson, out.results, Paper::A4, &pdf).ok()) {
            return false;
        }
        out.file = std::make_unique<pdftools::PdfFile>(pdf);
        out.pages = pdftools::pageLines(out.file->path());
        QStringList all;
        for (const QStringList& page : out.pages) {
            all << page;
        }
        out.text = all.join(u' ');
        out.lines = layoutLines(out.file->path());
        return true;
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString markdown =
            QStringLiteral("---\ntitle: A small decoder\n---\n\n# The tiny model\n\n") +
            tinyCell(QStringLiteral(
                "stream, ffn, next, generation, cache, blocks, heatmap, shares, gradients")) +
            QStringLiteral("\nThe next word is {{tiny.next[0].word}} at {{tiny.next[0].prob}}.\n");
        QVERIFY(print(markdown, tiny_));
        const ComputedCell* cell = tiny_.results.cell("tiny");
        QVERIFY(cell && cell->transformer);
        tiny_.result = cell->transformer.get();
        QVERIFY(!tiny_.pages.empty());
    }

    void settingsAreThere() {
        const QString& t = tiny_.text;
        QVERIFY(t.contains(QStringLiteral("Transformer tiny")));
        QVERIFY(t.contains(QStringLiteral("Settings")));
        QVERIFY(t.contains(QStringLiteral("2 layers, pre-norm")));
        QVERIFY(t.contains(QStringLiteral("width d = 16")));
        QVERIFY(t.contains(QStringLiteral("d_ff = 64, GELU")));
        QVERIFY(t.contains(QStringLiteral("T = 1")));
        QVERIFY(t.contains(QStringLiteral("3 steps, greedy")));
        QVERIFY(t.contains(QStringLiteral("Weights read from")));
        QVERIFY(t.contains(QStringLiteral("data/tiny/model.safetensors")));
        QVERIFY(t.contains(QStringLiteral("data/tiny/vocab.txt")));
        QVERIFY(t.contains(QStringLiteral("sinusoidal")));
    }

    void theNextWordAsComputeGivesIt() {
        // compute's JSON for the cell: next[0] is the word and chance the PDF must show.
        const Json json = lessonJson(tiny_.lesson, tiny_.results, "tiny");
        const std::string dump = json.dump();
        const TransformerResult& r = *tiny_.result;
        QVERIFY(!r.next.empty());
        const QString word = qs(r.next[0].word);
        const QString prob = fixed(r.next[0].prob, 4);
        QVERIFY(dump.find("\"" + r.next[0].word + "\"") != std::string::npos);
        // The bar of the top word: its word, its chance and the mark on one line.
        QVERIFY2(tiny_.lines.contains(word + u' ' + prob + QStringLiteral(" ◀ chosen (greedy)")),
                 qPrintable(word + u' ' + prob));
        // Every listed word with its chance, in order.
        qsizetype at = 0;
        for (const NextWord& w : r.next) {
            const QString bar = qs(w.word) + u' ' + fixed(w.prob, 4);
            qsizetype found = -1;
            for (qsizetype i = at; i < tiny_.lines.size() && found < 0; ++i) {
                found = tiny_.lines[i] == bar || tiny_.lines[i].startsWith(bar + u' ') ? i : -1;
            }
            QVERIFY2(found >= 0, qPrintable(bar));
            at = found + 1;
        }
        // The prose binding reads the same value.
        QVERIFY(tiny_.text.contains(QStringLiteral("The next word is ") + word));
        QVERIFY(r.loss.has_value());
        QVERIFY(tiny_.text.contains(QStringLiteral("Loss over the targets (mean cross-entropy): ") +
                                    fixed(*r.loss, 4)));
    }

    void theStreamStageByStage() {
        const TransformerResult& r = *tiny_.result;
        QVERIFY(tiny_.text.contains(QStringLiteral("Residual stream of “cat” (row 2)")));
        // As many of the 16 coordinates as fit the page at print size, at least 6.
        static const QRegularExpression coordinates(
            QStringLiteral("Coordinates 1–(\\d) of 16 are shown"));
        const QRegularExpressionMatch m = coordinates.match(tiny_.text);
        QVERIFY(m.hasMatch());
        const int shown = m.captured(1).toInt();
        QVERIFY(shown >= 6 && shown <= 8);
        const arma::uword f = 1;
        // X⁰, each layer's change and result, and Z, at 3 decimals, in order.
        const auto rowOf = [&](const QString& label, const arma::rowvec& v) {
            QString line = label;
            for (int i = 0; i < shown; ++i) {
                line += u' ' + fixed(v(arma::uword(i)), 3);
            }
            return line + u' ' + fixed(arma::norm(v), 3);
        };
        QStringList expected{QStringLiteral("input ") +
                             rowOf(QStringLiteral("X⁰ = token + position"), r.X.row(f))};
        for (size_t l = 0; l < r.layers.size(); ++l) {
            // (pdftotext reads the bold "= R" as "=R".)
            expected << QStringLiteral("layer %1 ").arg(l + 1) +
                            rowOf(QStringLiteral("+ attention A"),
                                  r.layers[l].attention.output.row(f))
                     << rowOf(QStringLiteral("R"), r.layers[l].resid1.row(f))
                     << rowOf(QStringLiteral("+ FFN F"), r.layers[l].ffnOut.row(f))
                     << rowOf(QStringLiteral("X") + (l == 0 ? u'¹' : u'²'),
                              r.layers[l].resid2.row(f));
        }
        expected << QStringLiteral("final LN ") +
                        rowOf(QStringLiteral("Z = LN_f(X²)"), r.finalLn.out.row(f));
        qsizetype at = 0;
        for (const QString& row : expected) {
            qsizetype found = -1;
            for (qsizetype i = at; i < tiny_.lines.size() && found < 0; ++i) {
                found = tiny_.lines[i].endsWith(row) ? i : -1;
            }
            QVERIFY2(found >= 0, qPrintable(row));
            at = found + 1;
        }
    }

    void theFfnUnits() {
        const TransformerResult& r = *tiny_.result;
        QVERIFY(tiny_.text.contains(QStringLiteral("FFN: the hidden units for “cat” (row 2)")));
        QVERIFY(tiny_.text.contains(QStringLiteral("Layer 1 · z = G W₁ᵀ + b₁, act = GELU; "
                                                   "d_ff = 64 units")));
        // The strongest unit of layer 1, with its z and activation.
        const arma::rowvec act = r.layers[0].ffnAct.row(1);
        const arma::uword u = arma::index_max(arma::abs(act));
        QVERIFY(hasLine(tiny_.lines, QString::number(u + 1) + u' ' +
                                         fixed(r.layers[0].ffnPre(1, u), 3) + u' ' +
                                         fixed(act(u), 3)));
        // The grid's first row: units 1–8 at 2 decimals.
        QString first = QStringLiteral("1–8");
        for (int k = 0; k < 8; ++k) {
            first += u' ' + fixed(act(arma::uword(k)), 2);
        }
        QVERIFY2(hasLine(tiny_.lines, first), qPrintable(first));
    }

    void generationAndCache() {
        const TransformerResult& r = *tiny_.result;
        const GenerationResult& g = r.generation;
        QVERIFY(g.ran);
        QCOMPARE(g.steps.size(), size_t(3));
        for (size_t i = 0; i < g.steps.size(); ++i) {
            const GenerationStep& s = g.steps[i];
            const QString row =
                QStringLiteral("%1 %2 %3 %4 %5")
                    .arg(i + 1)
                    .arg(qs(s.label), fixed(s.prob, 4), qs(readableNumber(s.costCached, 4)),
                         qs(readableNumber(s.costFull, 4)));
            QVERIFY2(tiny_.lines.contains(row), qPrintable(row));
        }
        // n = 5, N = 3: 25, 6, 7 with the cache; 25, 36, 49 without.
        QVERIFY(tiny_.lines.contains(QStringLiteral("all 38 110")));
        QVERIFY(hasLine(tiny_.lines, QStringLiteral("the cat sat on the ") + qs(g.steps[0].label)));
        // L · h · (d_k + d_v) · (n + N − 1) = 2 · 2 · (8 + 8) · 7 = 448.
        QCOMPARE(g.cacheNumbers, 448.0);
        QVERIFY(tiny_.text.contains(QStringLiteral(
            "L · h · (d_k + d_v) · (n + N − 1) = 2 · 2 · (8 + 8) · 7 = 448 numbers")));
        QVERIFY(tiny_.text.contains(QStringLiteral("Query–key comparisons per head and layer")));
    }

    void blocksEndOnThePlainPath() {
        QVERIFY(tiny_.text.contains(QStringLiteral("Attention in blocks of 2 keys")));
        QVERIFY(tiny_.text.contains(QStringLiteral("Head 1 of layer 2, row 2 (cat)")));
        // Row 2 reads keys 1–2; the later blocks are masked for it.
        QVERIFY(tiny_.text.contains(QStringLiteral("3–4: sat, on (masked)")));
        QVERIFY(tiny_.text.contains(QStringLiteral("below 1e-12")));
        const AttentionResult& a = tiny_.result->layers[1].attention;
        const double o1 = a.head[0].context(1, 0);
        QVERIFY(hasLine(tiny_.lines, QStringLiteral("output o / ℓ ") + fixed(o1, 4)));
        QVERIFY(hasLine(tiny_.lines, QStringLiteral("plain path: softmax(S) V ") + fixed(o1, 4)));
    }

    void eachLayersAttentionAndTheGradientCheck() {
        QVERIFY(tiny_.text.contains(QStringLiteral("Layer 1 · Heatmap of the shares")));
        QVERIFY(tiny_.text.contains(QStringLiteral("Layer 2 · Shares of attention")));
        QVERIFY(tiny_.text.contains(QStringLiteral("Shares, head 2")));
        const GradientCheckReport& check = tiny_.result->gradcheck;
        QVERIFY(check.ran);
        QVERIFY(tiny_.text.contains(
            QStringLiteral("Gradient check against central differences: relative error %1")
                .arg(QString::number(check.maxRelError, 'e', 1))));
        QVERIFY(hasLine(tiny_.lines, QStringLiteral("layers[1].ffn.W_1 64 × 16")));
    }

    void nothingIsPrintedSmall() {
        // Every character at print size or larger: no table was scaled down to fit the page.
        for (const pdftools::Page& page : pdftools::pageChars(tiny_.file->path())) {
            for (const pdftools::Line& line : page.lines) {
                for (const pdftools::Char& c : line.chars) {
                    QVERIFY2(c.size >= 7.95 || c.c.isSpace(), qPrintable(line.text()));
                }
            }
        }
    }

    void nothingPrintsNotANumber() {
        static const QRegularExpression nan(QStringLiteral("\\bnan\\b|\\binf\\b|\\?"),
                                            QRegularExpression::CaseInsensitiveOption);
        QVERIFY2(!nan.match(tiny_.text).hasMatch(), qPrintable(nan.match(tiny_.text).captured()));
    }

    void aToyCellWithLongWordsAndNoFfn() {
        // A hand-sized cell: words longer than a column elided, no LayerNorm, no FFN, no
        // generation: the views say so rather than print empty tables.
        const QString markdown = QStringLiteral(
            "# Toy\n\n"
            "```transformer toy\n"
            "tokens: [supercalifragilisticexpialidocious, b, supercalifragilisticexpialidocious]\n"
            "vocab:\n"
            "  supercalifragilisticexpialidocious: [1, 0]\n"
            "  b: [0, 1]\n"
            "layers:\n"
            "  - attention: {heads: 1, mask: causal}\n"
            "    ln1: none\n"
            "    ffn: none\n"
            "    ln2: none\n"
            "final_ln: none\n"
            "views: [stream, ffn, next, generation, cache, blocks]\n"
            "```\n");
        Printed toy;
        QVERIFY(print(markdown, toy));
        QVERIFY(toy.text.contains(QStringLiteral("supercalifragilis…")));
        QVERIFY(!toy.text.contains(QStringLiteral("supercalifragilisticexpialidocious")));
        QVERIFY(toy.text.contains(QStringLiteral("No layer has an FFN")));
        QVERIFY(toy.text.contains(QStringLiteral("The cell asks for no generation")));
        QVERIFY(toy.text.contains(QStringLiteral("No generation ran")));
        QVERIFY(toy.text.contains(QStringLiteral("greedy pick")));
        static const QRegularExpression nan(QStringLiteral("\\bnan\\b"),
                                            QRegularExpression::CaseInsensitiveOption);
        QVERIFY(!nan.match(toy.text).hasMatch());
    }

  private:
    QTemporaryDir dir_;
    Printed tiny_;
};

QTEST_MAIN(TestPdfTransformer)
#include "test_pdf_transformer.moc"

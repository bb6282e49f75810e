// The notebook export (`attnbook export FILE --notebook`) in process: the nbformat JSON
// byte for byte, escaping of JSON, Python and Markdown, chart formulas in NumPy, and the cells
// of the shipped lesson. Executing the notebooks is notebook_numpy.py's job.
#include "exports/export_request.h"
#include "exports/notebook/lesson_notebook.h"
#include "exports/notebook/notebook_cells.h"
#include "exports/notebook/notebook_python.h"
#include "exports/notebook/notebook_writer.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QtTest>

using namespace attnbook;

namespace {

const std::string kLesson = ATTNBOOK_SOURCE_DIR "/documents/attention.md";

QByteArray notebookOf(const Lesson& lesson) {
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    QByteArray bytes;
    const ExportResult r = renderLessonNotebook(lesson, results, &bytes);
    return r.ok() ? bytes : QByteArray();
}

QJsonObject parsed(const QByteArray& bytes) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    return error.error == QJsonParseError::NoError ? doc.object() : QJsonObject();
}

QString sourceOf(const QJsonObject& cell) {
    QString text;
    for (const QJsonValue& line : cell.value(QStringLiteral("source")).toArray()) {
        text += line.toString();
    }
    return text;
}

QJsonObject cellWithId(const QJsonObject& notebook, const QString& id) {
    for (const QJsonValue& cell : notebook.value(QStringLiteral("cells")).toArray()) {
        if (cell.toObject().value(QStringLiteral("id")).toString() == id) {
            return cell.toObject();
        }
    }
    return {};
}

} // namespace

class TestNotebook : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    // nbformat.writes' form exactly: sorted keys, one-space indent, sources as lines.
    void theWriterWritesWhatNbformatWrites() {
        NotebookMetadata metadata{"T", {"A"}, "1.0"};
        NotebookCell prose{NotebookCell::Kind::Markdown, "a", "# Hi\nthere", false, {}};
        NotebookCell code{NotebookCell::Kind::Code, "b", "x = 1\n", true, {"t"}};
        const QByteArray expected = R"({
 "cells": [
  {
   "cell_type": "markdown",
   "id": "a",
   "metadata": {},
   "source": [
    "# Hi\n",
    "there"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": null,
   "id": "b",
   "metadata": {
    "jupyter": {
     "source_hidden": true
    },
    "tags": [
     "t"
    ]
   },
   "outputs": [],
   "source": [
    "x = 1\n"
   ]
  }
 ],
 "metadata": {
  "attnbook": {
   "app_version": "1.0"
  },
  "authors": [
   {
    "name": "A"
   }
  ],
  "kernelspec": {
   "display_name": "Python 3",
   "language": "python",
   "name": "python3"
  },
  "language_info": {
   "name": "python"
  },
  "title": "T"
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
)";
        QCOMPARE(notebookBytes(metadata, {prose, code}), expected);
        QCOMPARE(notebookBytes(metadata, {}).count("\"cells\": []"), 1);
    }

    // Python's json.dumps(ensure_ascii=False) and str.splitlines(True), which nbformat uses.
    void stringsAndLinesAsPythonWritesThem() {
        NotebookCell odd;
        odd.id = "odd";
        odd.source = "a\"b\\c\b\t\x01\x1f\x7f é ∞\n"; // one line: none of these ends a line
        QVERIFY(notebookBytes({}, {odd}).contains(
            "   \"a\\\"b\\\\c\\b\\t\\u0001\\u001f\x7f é ∞\\n\"\n"));
        const std::vector<std::string> lines = splitSourceLines("a\r\nb\rc\nd\u2028e\x0b"
                                                                "f\x0c"
                                                                "g\u0085h\x1ci");
        const std::vector<std::string> expected = {"a\r\n", "b\r",     "c\n",   "d\u2028", "e\x0b",
                                                   "f\x0c", "g\u0085", "h\x1c", "i"};
        QCOMPARE(lines, expected);
        QVERIFY(splitSourceLines("").empty());
        QCOMPARE(splitSourceLines("one\n"), std::vector<std::string>{"one\n"});
    }

    void cellIdsAreWhatNbformatAccepts() {
        QCOMPARE(notebookCellId("colour"), std::string("colour"));
        QCOMPARE(notebookCellId("a.b c/ü"), std::string("a-b-c---"));
        QCOMPARE(notebookCellId(""), std::string("cell"));
        QCOMPARE(notebookCellId(std::string(70, 'x')).size(), size_t(64));
    }

    void pythonLiteralsReadBackExactly() {
        QCOMPARE(pythonString("say \"hi\"\\ok\n\x01 é"),
                 std::string("\"say \\\"hi\\\"\\\\ok\\n\\x01 é\""));
        QCOMPARE(pythonStrings({"red", "blue"}), std::string("[\"red\", \"blue\"]"));
        QCOMPARE(pythonNumber(0.1), std::string("0.1"));
        QCOMPARE(pythonNumber(1e-5), std::string("1e-05"));
        QCOMPARE(pythonNumber(0.38365173119055074), std::string("0.38365173119055074"));
        QCOMPARE(pythonNumber(3.0), std::string("3"));
        QCOMPARE(pythonVector(arma::rowvec{1, -0.5}), std::string("[1, -0.5]"));
        QCOMPARE(pythonMatrix(arma::mat{{1, 2}, {3, 4}}, 4),
                 std::string("[\n        [1, 2],\n        [3, 4],\n    ]"));
        QCOMPARE(pythonFlags({true, false}), std::string("[True, False]"));
        QCOMPARE(pythonVariable("n"), std::string("n"));
        QCOMPARE(pythonVariable("np"), std::string("np_"));
        QCOMPARE(pythonVariable("lambda"), std::string("lambda_"));
        QCOMPARE(pythonVariable("9 lives"), std::string("v_9_lives"));
    }

    // muParser's syntax and functions as NumPy; ^ binds tighter than unary minus in both.
    void chartFormulasBecomeNumpy() {
        QCOMPARE(numpyFormula("n^2/2", "n", "n"), std::string("n**2/2"));
        QCOMPARE(numpyFormula("-2^-n^0.5", "n", "x"), std::string("-2**-x**0.5"));
        QCOMPARE(numpyFormula("sqrt(n)*exp(-n)+log(n)+ln(n)+log10(n)", "n", "n"),
                 std::string("np.sqrt(n)*np.exp(-n)+np.log(n)+np.log(n)+np.log10(n)"));
        QCOMPARE(numpyFormula("min(n, 3, 1e3) + max(nn, 007)", "n", "n"),
                 std::string("formula_min(n, 3, 1000) + formula_max(nn, 7)"));
        QCOMPARE(numpyFormula("np * 2", "np", "np_"), std::string("np_ * 2"));
    }

    // The same lesson gives the same bytes, through renderExport (the CLI's and the window's
    // route) as directly.
    void theLessonsNotebookIsDeterministic() {
        const Lesson lesson = loadLesson(kLesson);
        QVERIFY(!hasErrors(lesson.diagnostics));
        const QByteArray first = notebookOf(lesson);
        QVERIFY(!first.isEmpty());
        QCOMPARE(notebookOf(loadLesson(kLesson)), first);

        ExportRequest request;
        request.notebook = true;
        QVERIFY(request.problem().isEmpty());
        RenderedExport rendered;
        QVERIFY(renderExport(lesson, request, &rendered).ok());
        QVERIFY(rendered.part(QStringLiteral("notebook")));
        QCOMPARE(rendered.part(QStringLiteral("notebook"))->bytes, first);
        ExportTargets targets;
        targets.notebook = QStringLiteral("out.ipynb");
        QCOMPARE(targets.of(QStringLiteral("notebook")), QStringLiteral("out.ipynb"));
    }

    void theLessonsNotebookHasOneCellPerPart() {
        const QJsonObject notebook = parsed(notebookOf(loadLesson(kLesson)));
        QCOMPARE(notebook.value(QStringLiteral("nbformat")).toInt(), 4);
        QCOMPARE(notebook.value(QStringLiteral("nbformat_minor")).toInt(), 5);
        const QJsonObject metadata = notebook.value(QStringLiteral("metadata")).toObject();
        QCOMPARE(metadata.value(QStringLiteral("kernelspec"))
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("python3"));
        QCOMPARE(metadata.value(QStringLiteral("title")).toString(), QStringLiteral("Attention"));

        const QJsonArray cells = notebook.value(QStringLiteral("cells")).toArray();
        QSet<QString> ids;
        const QRegularExpression validId(QStringLiteral("^[A-Za-z0-9_-]{1,64}$"));
        int attention = 0, quizzes = 0, samples = 0, prose = 0;
        for (const QJsonValue& value : cells) {
            const QJsonObject cell = value.toObject();
            const QString id = cell.value(QStringLiteral("id")).toString();
            QVERIFY2(validId.match(id).hasMatch(), qPrintable(id));
            QVERIFY2(!ids.contains(id), qPrintable(id));
            ids.insert(id);
            const QString source = sourceOf(cell);
            if (cell.value(QStringLiteral("cell_type")).toString() == QStringLiteral("code")) {
                QVERIFY(cell.value(QStringLiteral("outputs")).toArray().isEmpty());
                QVERIFY(cell.value(QStringLiteral("execution_count")).isNull());
                attention += source.contains(QStringLiteral("head, C = attention_heads("));
                const QJsonObject meta = cell.value(QStringLiteral("metadata")).toObject();
                if (meta.value(QStringLiteral("tags"))
                        .toArray()
                        .contains(QStringLiteral("sample-answer"))) {
                    ++samples;
                    QVERIFY(meta.value(QStringLiteral("jupyter"))
                                .toObject()
                                .value(QStringLiteral("source_hidden"))
                                .toBool());
                    QVERIFY(source.startsWith(QStringLiteral("import math\n")));
                }
            } else {
                quizzes += source.contains(QStringLiteral("<details><summary>Answer"));
                prose += source.contains(QStringLiteral("computed by attnbook"));
                // Every binding is replaced (the lesson has none inside code).
                QVERIFY2(!source.contains(QStringLiteral("{{")), qPrintable(source));
            }
        }
        QCOMPARE(attention, 11); // the attention cells of documents/attention.md
        QCOMPARE(quizzes, 10);
        QCOMPARE(samples, 3); // the coding challenges' sample answers, folded away
        QVERIFY(prose >= 5);

        QCOMPARE(cells.at(0).toObject().value(QStringLiteral("id")).toString(),
                 QStringLiteral("title"));
        const QString functions = sourceOf(cellWithId(notebook, QStringLiteral("functions")));
        for (const char* name :
             {"def masked_softmax(S)", "S[r, readable].max()", "def blocked_entries(",
              "def sinusoidal_positions(n, d)", "def columns(M, i, width)",
              "def attention_backward(", "attnbook_results = {}"}) {
            QVERIFY2(functions.contains(QLatin1String(name)), name);
        }
        const QString colour = sourceOf(cellWithId(notebook, QStringLiteral("colour")));
        QVERIFY(colour.contains(QStringLiteral("tokens = [\"red\", \"blue\", \"red\"]")));
        QVERIFY(colour.contains(QStringLiteral("    \"red\": [1, 0, 0, 0],\n")));
        QVERIFY(colour.contains(QStringLiteral("attnbook_results[\"colour\"] = {")));
        QVERIFY(colour.contains(QStringLiteral("scale = 1 / np.sqrt(d_k)")));
        // The prose says what the window says: colour.head[0].weights[0][1] to 4 digits.
        bool bound = false;
        for (const QJsonValue& value : cells) {
            bound = bound || sourceOf(value.toObject()).contains(QStringLiteral("0.2327"));
        }
        QVERIFY(bound);
        const QString settings = sourceOf(cellWithId(notebook, QStringLiteral("colour-settings")));
        QVERIFY2(settings.contains(QStringLiteral("Tokens (n = 3): red, blue, red")),
                 qPrintable(settings));
    }

    // Values read from files are written out: the notebook needs no file beside it.
    void loadedValuesAreWrittenOut() {
        const Lesson lesson = loadLesson(ATTNBOOK_SOURCE_DIR "/documents/real-head.md");
        QVERIFY(!hasErrors(lesson.diagnostics));
        const QJsonObject notebook = parsed(notebookOf(lesson));
        const QString settings = sourceOf(cellWithId(notebook, QStringLiteral("head-settings")));
        QVERIFY2(settings.contains(QStringLiteral("W_Q from `data/real-head/c_attn.npy, shape "
                                                  "16×24, cols: [0, 8], transposed`")),
                 qPrintable(settings));
        const QString code = sourceOf(cellWithId(notebook, QStringLiteral("head")));
        QVERIFY(code.contains(
            QStringLiteral("# W_O was read from \"data/real-head/w_o.csv, shape 16×8\"")));
        QVERIFY(code.contains(QStringLiteral("W_O = matrix([\n    [")));
        QVERIFY(code.contains(QStringLiteral("causal=True")));
        QVERIFY(!code.contains(QStringLiteral("np.load")) &&
                !code.contains(QStringLiteral("open(")));
        // Every vocab row a token uses, and no other.
        QVERIFY(code.contains(QStringLiteral("    \"slept\": [")));
        QCOMPARE(code.count(QRegularExpression(QStringLiteral("^    \"\\w+\": \\[-?\\d"),
                                               QRegularExpression::MultilineOption)),
                 7);
    }

    // A weight kept after an edit in the window ({file: ..., set: [[row, col, value]]}, issue
    // 25): the notebook holds the set number where the file's was, and says so in the note of
    // where it was read, a Python string like every text of the lesson.
    void keptEntriesOfALoadedValueAreWrittenOut() {
        QFile file(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/real-head.md"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::string reference =
            "W_O: {file: data/real-head/w_o.csv"; // (16 × 8), one output unit per row
        std::string text = file.readAll().toStdString();
        const size_t at = text.find(reference + "}\n");
        QVERIFY(at != std::string::npos);
        text.insert(at + reference.size(), ", set: [[0, 1, 0.125]]");
        const Lesson lesson = parseLesson(text, ATTNBOOK_SOURCE_DIR "/documents/real-head.md");
        QVERIFY(!hasErrors(lesson.diagnostics));
        const QString code =
            sourceOf(cellWithId(parsed(notebookOf(lesson)), QStringLiteral("head")));
        QVERIFY2(code.contains(QStringLiteral("# W_O was read from \"data/real-head/w_o.csv, "
                                              "shape 16×8, 1 entry set\"\n")),
                 qPrintable(code));
        QVERIFY2(code.contains(QRegularExpression(
                     QStringLiteral("W_O = matrix\\(\\[\n    \\[-?[0-9.e-]+, 0\\.125, "))),
                 qPrintable(code));
    }

    // Labels that are not plain words reach Python and Markdown escaped.
    void labelsAreEscaped() {
        const std::string text = "# Odd labels\n\n"
                                 "```attention odd\n"
                                 "tokens: ['say \"hi\"', 'back\\slash', '*star*']\n"
                                 "X: [[1, 0], [0, 1], [1, 1]]\n"
                                 "padding: [false, true, false]\n"
                                 "```\n";
        const Lesson lesson = parseLesson(text, "odd.md");
        QVERIFY(!hasErrors(lesson.diagnostics));
        const QJsonObject notebook = parsed(notebookOf(lesson));
        const QString code = sourceOf(cellWithId(notebook, QStringLiteral("odd")));
        QVERIFY2(code.contains(QStringLiteral(
                     "tokens = [\"say \\\"hi\\\"\", \"back\\\\slash\", \"*star*\"]")),
                 qPrintable(code));
        QVERIFY(code.contains(QStringLiteral("padding=[False, True, False]")));
        const QString settings = sourceOf(cellWithId(notebook, QStringLiteral("odd-settings")));
        QVERIFY2(settings.contains(QStringLiteral("back\\\\slash, \\*star\\*")),
                 qPrintable(settings));
        QVERIFY(settings.contains(QStringLiteral("Padding: back\\\\slash never read")));
    }
};

QTEST_GUILESS_MAIN(TestNotebook)
#include "test_notebook.moc"

// The document model: parse, validate with file positions, bindings, and
// writing back byte for byte (document-format.md, reliability.md §1–9).
#include "core/document/bindings.h"
#include "core/document/cell_editor.h"
#include "core/document/lesson.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnbook;

namespace {

std::string readAll(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll().toStdString();
}

// Every problem of a lesson: reading, computing and checking.
std::vector<Diagnostic> everyProblem(const Lesson& lesson) {
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    std::vector<Diagnostic> all = lesson.diagnostics;
    all.insert(all.end(), results.diagnostics.begin(), results.diagnostics.end());
    const std::vector<Diagnostic> lint = checkLesson(lesson, results);
    all.insert(all.end(), lint.begin(), lint.end());
    return all;
}

std::string describe(const std::vector<Diagnostic>& all) {
    std::string out;
    for (const Diagnostic& d : all) {
        out += formatDiagnostic("f", d) + "\n";
    }
    return out;
}

const char* kColour = "---\ntitle: Colours\n---\n\n# Colours\n\n"
                      "```attention colour\n"
                      "tokens: [red, blue, red]\n"
                      "vocab:\n"
                      "  red:  [1, 0, 0, 0]\n"
                      "  blue: [0, 1, 0, 0]\n"
                      "heads: 1   # try 2\n"
                      "mask: none\n"
                      "```\n\n"
                      "Red gives {{colour.head[0].weights[0][1]:4}} to blue, "
                      "`{{colour.n}}` stays code.\n";

struct Expected {
    const char* fixture;
    Severity severity;
    int line;
    int column;
    const char* message;
};

} // namespace

class TestDocument : public QObject {
    Q_OBJECT
  private Q_SLOTS:
    void errorFixtures_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("severity");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        const Expected table[] = {
            {"alias_cycle", Severity::Error, 8, 4, "anchors (&name) are not allowed in a lesson"},
            {"anchor", Severity::Error, 4, 9, "anchors (&name) are not allowed in a lesson"},
            {"binding_unknown_cell", Severity::Error, 10, 10,
             "binding {{nope.output[0][0]}}: no cell 'nope' to bind to"},
            {"binding_unknown_path", Severity::Error, 10, 10,
             "binding {{c.head[3].weights[0][0]}}: c.head has 1 entries, so [3] is o"},
            {"broken_yaml", Severity::Error, 5, 6, "end of sequence flow not found"},
            {"chart_formula", Severity::Error, 7, 22,
             "in the formula n^^2: Unexpected operator \"^\" found at position 2"},
            {"chart_not_finite", Severity::Error, 7, 19, "the formula 1/n is not finite at n = 0"},
            {"decimal_comma", Severity::Error, 7, 7,
             "the vector of 'red' [0]: expected a number, found '1,5' (write decimal"},
            {"deep_nesting", Severity::Error, 8, 67, "nesting too deep (more than 64 levels)"},
            {"direct_with_projection", Severity::Error, 7, 1,
             "'W_Q' has no meaning in direct mode (queries, keys, values are given a"},
            {"duplicate_id", Severity::Error, 10, 1, "duplicate cell id 'c' (also at line 3)"},
            {"duplicate_key", Severity::Error, 9, 1, "duplicate key 'heads' (also at line 8)"},
            {"empty_matrix", Severity::Error, 5, 4,
             "X must be a matrix: a non-empty list of rows, like [[1, 0], [0, 1]], n"},
            {"empty_tokens", Severity::Error, 4, 9,
             "a cell needs at least one token: tokens is empty"},
            {"focus_out_of_range", Severity::Error, 8, 8, "focus must be a row from 0 to 1, not 5"},
            {"front_matter_unclosed", Severity::Error, 1, 1,
             "the front matter opened here is never closed with '---'"},
            {"heads_do_not_divide", Severity::Error, 8, 8,
             "3 heads do not divide the model width 4"},
            {"identity_not_square", Severity::Error, 8, 6,
             "W_Q: identity needs a square projection, but it maps 4 to 1"},
            {"invalid_id", Severity::Error, 3, 14,
             "'9lives' is not a valid cell id: start with a letter or _, then letter"},
            {"nan", Severity::Error, 7, 10,
             "the vector of 'blue' [0]: the number .nan is not finite"},
            {"number_not_finite", Severity::Error, 6, 15,
             "the vector of 'red' [2]: the number .inf is not finite"},
            {"number_overflow", Severity::Error, 6, 15,
             "the vector of 'red' [2]: the number 1e400 is not finite (too large for"},
            {"padding_length", Severity::Error, 8, 10,
             "padding needs 2 flags, one per token, not 1"},
            {"quiz_choice_range", Severity::Error, 6, 9,
             "answer must be the index of a choice, from 0 to 1"},
            {"quiz_no_answer", Severity::Error, 4, 1, "a quiz needs an answer"},
            {"ragged_rows", Severity::Error, 5, 19,
             "X row 1 has 3 numbers, but row 0 has 4 (a matrix needs rows of one len"},
            {"scale_divisor", Severity::Error, 8, 8, "a scale divisor must be > 0, not -2"},
            {"stale_number_warning", Severity::Warning, 10, 20,
             "0.5000 is typed by hand but equals c.scale: write {{c.scale:4}} so it "},
            {"string_for_number", Severity::Error, 6, 12,
             "the vector of 'red' [1]: expected a number, found 'abc'"},
            {"token_missing_from_vocab", Severity::Error, 4, 15,
             "the token 'green' is not in the vocab"},
            {"unclosed_binding_warning", Severity::Warning, 10, 8,
             "'{{' is never closed with '}}', so it shows as typed (write {{{{ for l"},
            {"unclosed_fence", Severity::Error, 3, 1, "this cell's fence is never closed"},
            {"unknown_key_warning", Severity::Warning, 8, 1,
             "unknown key 'head' — did you mean 'heads'?"},
            {"vector_wrong_length", Severity::Error, 7, 9,
             "the vector of 'blue' has 3 numbers, but 'red' has 4 (every vector need"},
            {"vocab_and_x", Severity::Error, 8, 4,
             "give the token vectors either as vocab or as X, not both"},
        };
        for (const Expected& e : table) {
            QTest::newRow(e.fixture) << QString::fromLatin1(e.fixture) << int(e.severity) << e.line
                                     << e.column << QString::fromUtf8(e.message);
        }
        // Every fixture file has an expectation.
        const QDir dir(QStringLiteral(ATTNBOOK_FIXTURES "/errors"));
        QCOMPARE(dir.entryList({QStringLiteral("*.md")}).size(), int(std::size(table)));
    }

    void errorFixtures() {
        QFETCH(QString, fixture);
        QFETCH(int, severity);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const QString path = QStringLiteral(ATTNBOOK_FIXTURES "/errors/") + fixture + ".md";
        const Lesson lesson = loadLesson(path.toStdString());
        const std::vector<Diagnostic> all = everyProblem(lesson);
        const bool found = std::any_of(all.begin(), all.end(), [&](const Diagnostic& d) {
            return int(d.severity) == severity && d.line == line && d.column == column &&
                   QString::fromStdString(d.message).contains(message);
        });
        if (!found) {
            QFAIL(qPrintable(QStringLiteral("expected %1:%2 %3, got:\n%4")
                                 .arg(line)
                                 .arg(column)
                                 .arg(message, QString::fromStdString(describe(all)))));
        }
        // An error fixture is an error, and nothing else in it is a surprise
        // crash: the warning fixtures have no error at all.
        QCOMPARE(hasErrors(all), severity == int(Severity::Error));
    }

    void shippedDocumentsRoundTripByteForByte() {
        const QDir dir(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents"));
        const QStringList files = dir.entryList({QStringLiteral("*.md")});
        QVERIFY(files.size() >= 3);
        for (const QString& name : files) {
            const std::string bytes = readAll(dir.filePath(name));
            // The full path: real-head.md reads files from data/ beside it.
            const Lesson lesson = parseLesson(bytes, dir.filePath(name).toStdString());
            QVERIFY2(!hasErrors(lesson.diagnostics), qPrintable(name));
            QVERIFY2(lesson.document.serialize() == bytes, qPrintable(name));
            QVERIFY(!lesson.cells.empty());
        }
    }

    void byteOrderMarkAndCrLfRoundTripAndKeepLines() {
        std::string text = kColour;
        std::string crlf;
        for (char c : text) {
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        }
        const std::string bytes = "\xEF\xBB\xBF" + crlf;
        Lesson lesson = parseLesson(bytes, "crlf.md");
        QVERIFY2(!hasErrors(lesson.diagnostics), describe(lesson.diagnostics).c_str());
        QCOMPARE(lesson.document.serialize(), bytes);
        QCOMPARE(lesson.cells.front().openLine, 7);
        // An error in a CRLF file still points at the right line and column.
        Document edited = lesson.document;
        QVERIFY(!setCellKey(edited, "colour", "heads", "3"));
        const std::string editedBytes = edited.serialize();
        QVERIFY(editedBytes.find("heads: 3\r\n") != std::string::npos);
        const std::vector<Diagnostic> all = everyProblem(parseLesson(editedBytes, "crlf.md"));
        QCOMPARE(all.size(), size_t(1));
        QCOMPARE(all.front().line, 12);
        QCOMPARE(all.front().column, 8);
    }

    void editingOneKeyChangesOnlyItsLine() {
        Lesson lesson = parseLesson(kColour, "colour.md");
        Document doc = lesson.document;
        QVERIFY(!setCellKey(doc, "colour", "heads", "2"));
        QVERIFY(!setCellKey(doc, "colour", "positional", "sinusoidal"));
        const QStringList before = QString::fromStdString(kColour).split('\n');
        QStringList after = QString::fromStdString(doc.serialize()).split('\n');
        QCOMPARE(after.size(), before.size() + 1); // positional was added, at the cell's end
        QCOMPARE(after[13], QStringLiteral("positional: sinusoidal"));
        after.removeAt(13);
        int changed = 0;
        for (int i = 0; i < before.size(); ++i) {
            if (before[i] != after[i]) {
                ++changed;
                QCOMPARE(after[i], QStringLiteral("heads: 2"));
            }
        }
        QCOMPARE(changed, 1);
        // Removing it again restores the exact bytes of the authored cell
        // apart from the heads line.
        QVERIFY(!removeCellKey(doc, "colour", "positional"));
        QVERIFY(!setCellKey(doc, "colour", "heads", "1   # try 2"));
        QCOMPARE(doc.serialize(), std::string(kColour));
    }

    void unknownKeysAndCommentsAreKept() {
        const std::string text = "```attention c\ntokens: [a]\n# a comment\nvocab: {a: [1]}\n"
                                 "colour_scheme: warm\n```\n";
        Lesson lesson = parseLesson(text, "u.md");
        QCOMPARE(lesson.diagnostics.size(), size_t(1));
        QCOMPARE(lesson.diagnostics.front().severity, Severity::Warning);
        Document doc = lesson.document;
        QVERIFY(!setCellKey(doc, "c", "tokens", "[a, a]"));
        QCOMPARE(doc.serialize(), std::string("```attention c\ntokens: [a, a]\n# a comment\n"
                                              "vocab: {a: [1]}\ncolour_scheme: warm\n```\n"));
    }

    void bindingsResolveFormatAndSkipCode() {
        const Lesson lesson = parseLesson(kColour, "colour.md");
        AttentionEngine engine;
        const LessonResults results = computeLesson(lesson, engine);
        const ProseBlock& prose = lesson.document.segments.back().prose();
        const auto pieces = scanProse(prose.text, prose.firstLine, 1, lesson.document.codeBlocks);
        const std::string shown = substituteBindings(
            prose.text, pieces, [&](const Binding& b) { return results.boundText(b); });
        QVERIFY2(shown.find("Red gives 0.2327 to blue, `{{colour.n}}` stays code.") !=
                     std::string::npos,
                 shown.c_str());
        std::string error;
        const auto path = parseBinding("colour.output[0]:2", error);
        QVERIFY(path);
        QCOMPARE(*results.boundText(*path), std::string("[0.77, 0.23, 0.00, 0.00]"));
        const auto literal = scanProse("a {{{{b}} c", 1);
        QCOMPARE(substituteBindings("a {{{{b}} c", literal,
                                    [](const Binding&) { return std::nullopt; }),
                 std::string("a {{b}} c"));
        QVERIFY(!parseBinding("colour", error));
        QVERIFY(!parseBinding("colour.output[x]", error));
        QVERIFY(!parseBinding("colour.output:99", error));
    }

    void yesAndNoAreTokenLabels() {
        const Lesson lesson = parseLesson(
            "```attention c\ntokens: [yes, no, on]\nvocab: {yes: [1, 0], no: [0, 1], on: [1, 1]}\n"
            "padding: [false, false, true]\n```\n",
            "yes.md");
        QVERIFY2(!hasErrors(lesson.diagnostics), describe(lesson.diagnostics).c_str());
        QCOMPARE(lesson.cells.front().attention()->config.tokens.front(), std::string("yes"));
        // `yes` is not a boolean in YAML 1.2.
        const Lesson bad = parseLesson(
            "```attention c\ntokens: [a]\nvocab: {a: [1]}\npadding: [yes]\n```\n", "b.md");
        QVERIFY(hasErrors(bad.diagnostics));
        QCOMPARE(bad.diagnostics.front().line, 4);
        QCOMPARE(bad.diagnostics.front().column, 11);
    }

    void unreadableFilesSayWhy() {
        QTemporaryDir dir;
        const auto problem = [](const std::string& path) {
            const Lesson lesson = loadLesson(path);
            return lesson.diagnostics.empty() ? std::string() : lesson.diagnostics.front().message;
        };
        QCOMPARE(problem(dir.filePath("missing.md").toStdString()), std::string("no such file"));
        QVERIFY(problem(dir.path().toStdString()).find("is a folder") != std::string::npos);
        const auto write = [&](const char* name, const std::string& bytes) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(bytes.data(), qint64(bytes.size()));
            return dir.filePath(name).toStdString();
        };
        QVERIFY(problem(write("empty.md", "")).find("empty") != std::string::npos);
        const Lesson nul = loadLesson(write("nul.md", std::string("# a\n\nb\0c\n", 10)));
        QCOMPARE(nul.diagnostics.front().line, 3);
        QCOMPARE(nul.diagnostics.front().column, 2);
        QVERIFY(nul.diagnostics.front().message.find("NUL") != std::string::npos);
        const Lesson latin1 = loadLesson(write("latin1.md", "# caf\xE9\n"));
        QCOMPARE(latin1.diagnostics.front().line, 1);
        QCOMPARE(latin1.diagnostics.front().column, 6);
        QVERIFY(latin1.diagnostics.front().message.find("UTF-8") != std::string::npos);
    }

    void fencesFollowCommonMark() {
        // A cell shown inside a longer fence is prose; ~~~ fences are cells too.
        const std::string text = "````markdown\n```attention shown\ntokens: [\n```\n````\n\n"
                                 "~~~quiz q\nquestion: Two?\nanswer: 2\n~~~\n";
        const Lesson lesson = parseLesson(text, "f.md");
        QVERIFY2(!hasErrors(lesson.diagnostics), describe(lesson.diagnostics).c_str());
        QCOMPARE(lesson.cells.size(), size_t(1));
        QCOMPARE(lesson.cells.front().id, std::string("q"));
        QCOMPARE(lesson.document.serialize(), text);
        QCOMPARE(lesson.title(), std::string("f")); // no front matter, no heading
    }

    void titleComesFromFrontMatterThenHeading() {
        QCOMPARE(parseLesson(kColour, "x.md").title(), std::string("Colours"));
        QCOMPARE(parseLesson("# First *one*\n\n# Second\n", "x.md").title(),
                 std::string("First one"));
    }

    void directModeComputesThePronounExample() {
        const Lesson lesson = parseLesson(
            "```attention soup\ntokens: [Sam, made, soup, and, ate, it]\nquery_tokens: [it]\n"
            "queries: [[2, -1]]\nkeys: [[0, 2], [0.5, 0], [2, 0], [0, 0], [1, 0], [0.5, 0]]\n"
            "values: [[0, 1], [0, 0], [1, 0], [0, 0], [0.5, 0], [0, 0]]\nscale: false\n```\n",
            "soup.md");
        QVERIFY2(!hasErrors(lesson.diagnostics), describe(lesson.diagnostics).c_str());
        AttentionEngine engine;
        const LessonResults results = computeLesson(lesson, engine);
        const Json& json = results.cells.front().json;
        QVERIFY(json.find("X0")->isNull());
        const Json& output = *json.find("output")->at(0);
        QVERIFY(std::abs(output.at(0)->number() - 0.85) < 0.005);
        QVERIFY(std::abs(output.at(1)->number()) < 0.005);
        QVERIFY(json.find("grad")->find("queries"));
        QVERIFY(!json.find("grad")->find("W_Q"));
    }

    void jsonNumbersRoundTripAndBlockedScoresAreNull() {
        Lesson lesson = parseLesson(kColour, "colour.md");
        QVERIFY(!setCellKey(lesson.document, "colour", "mask", "causal"));
        lesson = parseLesson(lesson.document.serialize(), "colour.md");
        AttentionEngine engine;
        const LessonResults results = computeLesson(lesson, engine);
        const std::string text = results.cells.front().json.dump();
        QVERIFY(text.find("\"scores\": [\n") != std::string::npos);
        QVERIFY(text.find("[0.5, null, null]") != std::string::npos);
        // Shortest round-trip form.
        for (double v : {0.1, 1.0 / 3.0, 1e-300, 123456789.0, -2.5e-7, 0.38365173119055074}) {
            QCOMPARE(std::strtod(shortestDouble(v).c_str(), nullptr), v);
        }
        QCOMPARE(shortestDouble(0.5), std::string("0.5"));
        QCOMPARE(shortestDouble(3.0), std::string("3"));
    }
};

QTEST_GUILESS_MAIN(TestDocument)
#include "test_document.moc"

// Structural edits keep every untouched byte and give a lesson that reads
// back with the intended cells in the intended order.
#include "core/document/document_edits.h"
#include "core/document/lesson.h"

#include <QtTest>

using namespace attnbook;

namespace {

const char* kLesson = "---\ntitle: T\n---\n\n# T\n\nIntro.\n\n```quiz q1\nquestion: One?\n"
                      "answer: 1\n```\n\nMiddle.\n\n```quiz q2\nquestion: Two?\nanswer: 2\n```\n\n"
                      "End.\n";

std::vector<std::string> cellIds(const std::string& bytes) {
    const Lesson lesson = parseLesson(bytes, "t.md");
    if (hasErrors(lesson.diagnostics)) {
        return {"<errors>"};
    }
    std::vector<std::string> ids;
    for (const LessonCell& c : lesson.cells) {
        ids.push_back(c.id);
    }
    return ids;
}

Document parsed(const std::string& bytes) {
    return parseLesson(bytes, "t.md").document;
}

} // namespace

class TestDocumentEdits : public QObject {
    Q_OBJECT
  private Q_SLOTS:
    void insertDuplicateDeleteMove() {
        Document doc = parsed(kLesson);
        QVERIFY(!insertCell(doc, 0, CellKind::Quiz, "q0", "question: Zero?\nanswer: 0\n"));
        QCOMPARE(cellIds(doc.serialize()), (std::vector<std::string>{"q0", "q1", "q2"}));
        QVERIFY(insertCell(doc, 0, CellKind::Quiz, "q1", "question: Dup?\nanswer: 0\n"));
        QVERIFY(insertCell(doc, 0, CellKind::Quiz, "9x", ""));

        doc = parsed(doc.serialize());
        QVERIFY(!duplicateCell(doc, "q2", "q3"));
        QCOMPARE(cellIds(doc.serialize()), (std::vector<std::string>{"q0", "q1", "q2", "q3"}));

        doc = parsed(doc.serialize());
        QVERIFY(!moveCell(doc, "q3", -1));
        QCOMPARE(cellIds(doc.serialize()), (std::vector<std::string>{"q0", "q1", "q3", "q2"}));
        doc = parsed(doc.serialize());
        QVERIFY(!moveCell(doc, "q0", -1)); // above the intro paragraph
        doc = parsed(doc.serialize());
        QVERIFY(moveCell(doc, "q0", -1).has_value()); // already at the top

        QVERIFY(!deleteCell(doc, "q3"));
        QVERIFY(!deleteCell(doc, "q0"));
        QVERIFY(deleteCell(doc, "nope").has_value());
        QCOMPARE(cellIds(doc.serialize()), (std::vector<std::string>{"q1", "q2"}));
    }

    void deletingWhatWasInsertedGivesTheOriginalBytes() {
        Document doc = parsed(kLesson);
        QVERIFY(
            !insertCell(doc, 2, CellKind::Attention, "fresh", "tokens: [a]\nvocab: {a: [1]}\n"));
        const std::string withCell = doc.serialize();
        QVERIFY(withCell.find("```attention fresh\ntokens: [a]\nvocab: {a: [1]}\n```\n") !=
                std::string::npos);
        doc = parsed(withCell);
        QVERIFY(!deleteCell(doc, "fresh"));
        QCOMPARE(doc.serialize(), std::string(kLesson));
    }

    void movesKeepEveryLine() {
        const auto sortedLines = [](const std::string& bytes) {
            QStringList lines = QString::fromStdString(bytes).split('\n');
            lines.sort();
            return lines;
        };
        Document doc = parsed(kLesson);
        QVERIFY(!moveCell(doc, "q1", +1));
        const std::string moved = doc.serialize();
        QCOMPARE(cellIds(moved), (std::vector<std::string>{"q1", "q2"})); // past "Middle."
        QVERIFY(moved.find("Middle.") < moved.find("```quiz q1"));
        QCOMPARE(sortedLines(moved), sortedLines(kLesson));
        doc = parsed(moved);
        QVERIFY(!moveCell(doc, "q2", -1));
        QCOMPARE(cellIds(doc.serialize()), (std::vector<std::string>{"q2", "q1"}));
        QCOMPARE(sortedLines(doc.serialize()), sortedLines(kLesson));
    }

    void proseEditsKeepLineEndings() {
        std::string crlf;
        for (const char* c = kLesson; *c; ++c) {
            crlf += *c == '\n' ? std::string("\r\n") : std::string(1, *c);
        }
        Document doc = parsed(crlf);
        int intro = -1;
        for (size_t i = 0; i < doc.segments.size(); ++i) {
            if (!doc.segments[i].isCell() &&
                doc.segments[i].prose().text.find("Intro.") != std::string::npos) {
                intro = int(i);
            }
        }
        QVERIFY(intro >= 0);
        QVERIFY(!setProseText(doc, intro, "\r\n# T\n\nA new intro,\non two lines.\n\n"));
        const std::string bytes = doc.serialize();
        QVERIFY(bytes.find("A new intro,\r\non two lines.\r\n\r\n```quiz q1") != std::string::npos);
        QVERIFY(bytes.find("\n\n") == std::string::npos ||
                bytes.find("\r\n\r\n") != std::string::npos);
        QCOMPARE(cellIds(bytes), (std::vector<std::string>{"q1", "q2"}));
        QCOMPARE(unusedCellId(doc, "quiz"), std::string("quiz1"));
    }
};

QTEST_GUILESS_MAIN(TestDocumentEdits)
#include "test_document_edits.moc"

// Prose layout in time linear in its length: formatProse imports and styles a
// document that a TextEdit shows. Every change it announced made the TextEdit lay out and
// resize again, so a 64 KB paragraph-only lesson took 145 s in `shot`; now the import and the
// styling are one edit block, announced once, and tables are still styled.
#include "app/window/prose_format.h"

#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <QtTest>

using namespace attnbook;

class TestProseLayout : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void aLongProseBlockIsAnnouncedOnce() {
        QString markdown = QStringLiteral("# Prose\n\n");
        for (int i = 0; i < 400; ++i) {
            markdown += QStringLiteral("Paragraph %1 with *some* words and `code`.\n\n").arg(i);
        }
        QTextDocument document;
        // Laid out, as a shown document is: a document without a layout announces nothing.
        QVERIFY(document.documentLayout());
        int changes = 0;
        connect(&document, &QTextDocument::contentsChange, this, [&changes] { ++changes; });
        formatProse(document, markdown, ProseStyle{});
        QVERIFY(document.blockCount() >= 400);
        QVERIFY2(changes <= 2, qPrintable(QString::number(changes)));
    }

    // A table's styling (its format and every cell's) is announced once too, however many
    // cells it has: cell by cell, a 7-row table made the TextEdit lay out its prose again 27
    // times (130 ms for one row of transformers.md). The import, the styling, the tables:
    // three announcements.
    void aTableIsAnnouncedOnce() {
        QString markdown = QStringLiteral("Words.\n\n| token | key | value |\n|---|---|---|\n");
        for (int i = 0; i < 7; ++i) {
            markdown += QStringLiteral("| t%1 | [0, 1] | [1, 0] |\n").arg(i);
        }
        QTextDocument document;
        QVERIFY(document.documentLayout());
        int changes = 0;
        connect(&document, &QTextDocument::contentsChange, this, [&changes] { ++changes; });
        formatProse(document, markdown, ProseStyle{});
        QVERIFY2(changes <= 3, qPrintable(QString::number(changes)));
        const auto* table = qobject_cast<QTextTable*>(document.rootFrame()->childFrames().front());
        QVERIFY(table);
        QCOMPARE(table->rows(), 8);
        QVERIFY(table->format().borderCollapse());
        const QTextTableCellFormat cell = table->cellAt(3, 1).format().toTableCellFormat();
        QCOMPARE(cell.leftPadding(), 14.0);
        QCOMPARE(cell.bottomBorder(), 1.0);
    }

    void tablesAreStyledAfterTheBlock() {
        QTextDocument document;
        formatProse(document, QStringLiteral("| a | b |\n|---|---|\n| 1 | 2 |\n"), ProseStyle{});
        const QList<QTextFrame*> frames = document.rootFrame()->childFrames();
        QCOMPARE(frames.size(), 1);
        const auto* table = qobject_cast<QTextTable*>(frames.front());
        QVERIFY(table);
        QVERIFY(table->format().borderCollapse());
    }

    // A code block's long line wraps within the width the prose is given (the Markdown import
    // made code lines unbreakable: at a window 900 pixels wide they ran past its edge), and
    // keeps its text, monospaced on its band.
    void longCodeLinesWrapWithinTheWidth() {
        QTextDocument document;
        const QString line = QStringLiteral(
            "const scores = keys.map(key => key.reduce((acc, k, i) => acc + k * query[i], 0));");
        formatProse(document,
                    QStringLiteral("Before.\n\n```js\n") + line + QStringLiteral("\n```\n"),
                    ProseStyle{});
        document.setTextWidth(300);
        QVERIFY2(document.idealWidth() <= 300, qPrintable(QString::number(document.idealWidth())));
        const QTextBlock code = document.findBlock(document.toPlainText().indexOf(line));
        QVERIFY(code.isValid());
        QCOMPARE(code.text(), line);
        QVERIFY(code.layout()->lineCount() > 1);
        QCOMPARE(code.blockFormat().background().color(), ProseStyle{}.codeBackground);
    }
};

QTEST_MAIN(TestProseLayout)
#include "test_prose_layout.moc"

// Prose layout in time linear in its length (issue 11): formatProse imports and styles a
// document that a TextEdit shows. Every change it announced made the TextEdit lay out and
// resize again, so a 64 KB paragraph-only lesson took 145 s in `shot`; now the import and the
// styling are one edit block, announced once, and tables are still styled.
#include "app/models/prose_format.h"

#include <QTextDocument>
#include <QTextFrame>
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

    void tablesAreStyledAfterTheBlock() {
        QTextDocument document;
        formatProse(document, QStringLiteral("| a | b |\n|---|---|\n| 1 | 2 |\n"), ProseStyle{});
        const QList<QTextFrame*> frames = document.rootFrame()->childFrames();
        QCOMPARE(frames.size(), 1);
        const auto* table = qobject_cast<QTextTable*>(frames.front());
        QVERIFY(table);
        QVERIFY(table->format().borderCollapse());
    }
};

QTEST_MAIN(TestProseLayout)
#include "test_prose_layout.moc"

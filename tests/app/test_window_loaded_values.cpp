// The window on a cell whose matrices are read from files ({file: PATH}):
// what-if edits of a loaded matrix recompute like any other, Keep writes the
// edit beside the file reference as `set:` entries (its file is never
// written), a second Keep adds to them, and an edit of most
// of a loaded matrix too large to type out stays a what-if with a reason.
#include "tests/test_files.h"

#include "app/models/attention_cell_model.h"
#include "app/models/lesson_session.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnbook;

namespace {

// `m` as a float64 .npy file in C order (format 1.0), as numpy.save writes it.
QByteArray npyBytes(const arma::mat& m) {
    QByteArray header = QStringLiteral("{'descr': '<f8', 'fortran_order': False, 'shape': (%1, "
                                       "%2), }")
                            .arg(m.n_rows)
                            .arg(m.n_cols)
                            .toLatin1();
    header.append(QByteArray(int(63 - (10 + header.size()) % 64), ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(header.size() & 0xff)).append(char(header.size() >> 8)).append(header);
    const arma::mat rowMajor = m.t(); // memory order of the transpose = C order of m
    bytes.append(reinterpret_cast<const char*>(rowMajor.memptr()),
                 qsizetype(rowMajor.n_elem * sizeof(double)));
    return bytes;
}

} // namespace

class TestWindowLoadedValues : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void editAndKeepALoadedMatrix() {
        QTemporaryDir dir;
        const arma::mat w = {{1, 2}, {3, 4}};
        const QByteArray original = npyBytes(w);
        QVERIFY(writeAll(dir.filePath(QStringLiteral("w.npy")), original));
        LessonSession session;
        session.openText(dir.filePath(QStringLiteral("t.md")),
                         "# T\n\n```attention a\ntokens: [x, y]\nX: [[1, 0], [0, 1]]\n"
                         "W_Q: {file: w.npy}\nW_K: {file: w.npy, transpose: true}\n```\n");
        auto* cell = qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("a")));
        QVERIFY(cell);
        const arma::mat before = cell->result().Q;
        QVERIFY(approx_equal(before, arma::mat{{1, 3}, {2, 4}}, "absdiff", 0)); // X W_Qᵀ
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("W_Q"), 0, 1, QStringLiteral("5")), QString());
        QVERIFY(approx_equal(cell->result().Q, arma::mat{{1, 3}, {5, 4}}, "absdiff", 0));
        QCOMPARE(cell->keep(), QString());
        QString text = session.documentText();
        QVERIFY2(text.contains(QStringLiteral("W_Q: {file: w.npy, set: [[0, 1, 5]]}\n")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("W_K: {file: w.npy, transpose: true}")),
                 qPrintable(text));
        // A second Keep of the same matrix adds its entry to the first one's.
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("W_Q"), 1, 0, QStringLiteral("-0.25")),
                 QString());
        QCOMPARE(cell->keep(), QString());
        text = session.documentText();
        QVERIFY2(
            text.contains(QStringLiteral("W_Q: {file: w.npy, set: [[0, 1, 5], [1, 0, -0.25]]}\n")),
            qPrintable(text));
        QFile file(dir.filePath(QStringLiteral("w.npy")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), original);
    }

    // One entry of a 128 × 128 matrix is one `set:` entry; rewriting most of it would type out
    // 16384 numbers, too many for a lesson one reads: that stays a what-if, with the reason.
    void aHugeLoadedMatrixKeepsItsReference() {
        QTemporaryDir dir;
        arma::arma_rng::set_seed(3);
        QVERIFY(writeAll(dir.filePath(QStringLiteral("w.npy")), npyBytes(arma::randn(128, 128))));
        LessonSession session;
        const std::string text =
            "# T\n\n```attention a\ntokens: [x]\nX: {file: w.npy, rows: [0, 1]}\n"
            "W_Q: {file: w.npy}\n```\n";
        session.openText(dir.filePath(QStringLiteral("t.md")), text);
        auto* cell = qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("a")));
        QVERIFY(cell);
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("W_Q"), 0, 0, QStringLiteral("0.5")),
                 QString());
        QCOMPARE(cell->inputMatrix("W_Q")(0, 0), 0.5);
        const double q = arma::dot(cell->inputMatrix("W_Q").row(0), cell->result().X.row(0));
        QVERIFY(std::abs(cell->result().Q(0, 0) - q) <= 1e-12 * std::max(1.0, std::abs(q)));
        QCOMPARE(cell->keep(), QString());
        QVERIFY2(session.documentText().contains(
                     QStringLiteral("W_Q: {file: w.npy, set: [[0, 0, 0.5]]}\n")),
                 qPrintable(session.documentText()));
        const QString kept = session.documentText();
        // Rows 0 to 64 of W_Q rewritten: more than half of it, typed out it is ~190 KB + …
        for (int row = 0; row < 65; ++row) {
            for (int col = 0; col < 128; ++col) {
                QCOMPARE(cell->setMatrixEntry(QStringLiteral("W_Q"), row, col,
                                              QStringLiteral("0.123456789012345")),
                         QString());
            }
        }
        const QString refusal = cell->keep();
        QVERIFY2(refusal.startsWith(QStringLiteral("W_Q is too large to write into the lesson")),
                 qPrintable(refusal));
        QCOMPARE(session.documentText(), kept);
    }
};

QTEST_MAIN(TestWindowLoadedValues)
#include "test_window_loaded_values.moc"

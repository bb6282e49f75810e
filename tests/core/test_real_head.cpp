// documents/real-head.md, the shipped lesson whose head is loaded from files
// in documents/data/real-head/: it checks clean (as `check --strict` would),
// and every matrix it computes matches an independent NumPy recomputation
// (real_head_numpy.py) to 1e-12.
#include "core/document/lesson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace attnbook;

namespace {

const std::string kLesson = ATTNBOOK_SOURCE_DIR "/documents/real-head.md";

} // namespace

class TestRealHead : public QObject {
    Q_OBJECT

    Lesson lesson_;
    LessonResults results_;
    AttentionEngine engine_;

  private Q_SLOTS:
    void initTestCase() {
        lesson_ = loadLesson(kLesson);
        results_ = computeLesson(lesson_, engine_);
    }

    void checksClean() {
        std::vector<Diagnostic> all = lesson_.diagnostics;
        all.insert(all.end(), results_.diagnostics.begin(), results_.diagnostics.end());
        const auto lint = checkLesson(lesson_, results_);
        all.insert(all.end(), lint.begin(), lint.end());
        std::string text;
        for (const Diagnostic& d : all) {
            text += formatDiagnostic("real-head.md", d) + "\n";
        }
        QVERIFY2(all.empty(), text.c_str()); // warnings too, as check --strict
        QCOMPARE(lessonDataFiles(lesson_),
                 (std::vector<std::string>{"data/real-head/emb.npy", "data/real-head/vocab.txt",
                                           "data/real-head/pos.npy", "data/real-head/c_attn.npy",
                                           "data/real-head/w_o.csv"}));
    }

    void matchesNumPy() {
        const ComputedCell* cell = results_.cell("head");
        QVERIFY(cell && cell->attention);
        const AttentionResult& r = *cell->attention;
        QStringList arguments{QStringLiteral(ATTNBOOK_SOURCE_DIR "/tests/core/real_head_numpy.py"),
                              QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/data/real-head")};
        for (const std::string& token : r.tokens) {
            arguments << QString::fromStdString(token);
        }
        QProcess python;
        python.start(QStringLiteral(ATTNBOOK_PYTHON3), arguments);
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        const QJsonObject numpy = QJsonDocument::fromJson(python.readAllStandardOutput()).object();
        const std::pair<const char*, arma::mat> matrices[] = {{"X", r.X},
                                                              {"Q", r.Q},
                                                              {"K", r.K},
                                                              {"V", r.V},
                                                              {"weights", r.head[0].weights()},
                                                              {"context", r.head[0].context},
                                                              {"output", r.output}};
        for (const auto& [name, ours] : matrices) {
            const QJsonArray rows = numpy.value(QLatin1String(name)).toArray();
            QCOMPARE(arma::uword(rows.size()), ours.n_rows);
            double worst = 0;
            for (arma::uword i = 0; i < ours.n_rows; ++i) {
                const QJsonArray row = rows[int(i)].toArray();
                QCOMPARE(arma::uword(row.size()), ours.n_cols);
                for (arma::uword j = 0; j < ours.n_cols; ++j) {
                    worst = std::max(worst, std::abs(row[int(j)].toDouble() - ours(i, j)));
                }
            }
            QVERIFY2(worst <= 1e-12, qPrintable(QStringLiteral("%1 differs from NumPy by %2")
                                                    .arg(QLatin1String(name))
                                                    .arg(worst)));
        }
        // The head does what the lesson says: each row from the second on puts
        // most of its share on the token just before it.
        for (arma::uword i = 1; i < r.head[0].weights().n_rows; ++i) {
            QVERIFY(r.head[0].weights()(i, i - 1) > 0.5);
        }
    }
};

QTEST_GUILESS_MAIN(TestRealHead)
#include "test_real_head.moc"

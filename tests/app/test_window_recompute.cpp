// Recompute on the worker: a large cell's edit is checked at once and computed off
// the GUI thread, the latest edit wins, a stale result is never shown, the numbers match a
// fresh computation, an overflow comes back as a refusal, a session can go away while its
// cell computes, and the shipped lessons keep computing inline (so the Qt Quick tests and the
// shots read their numbers right after an edit). The session's `edited` signal: bytes only.
#include "app/models/attention_cell_model.h"
#include "app/models/cell_list_model.h"
#include "app/models/document_editor.h"
#include "app/models/lesson_session.h"
#include "app/window/blas_threads.h"
#include "core/math/attention_engine.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <dlfcn.h>

#include <functional>
#include <random>
#include <sstream>
#include <thread>

using namespace attnbook;

namespace {

constexpr int kWait = 60000; // ms: a loaded machine computes a 384-token cell in far less

// A cell large enough to compute on the worker: n tokens of width 32, quoted by prose;
// `more` adds lines to the cell's body.
std::string largeLesson(int n, const std::string& more = {}) {
    std::mt19937 random(3);
    std::normal_distribution<double> value(0.0, 1.0);
    std::ostringstream out;
    out << "# Large\n\nThe first token gives {{big.head[0].weights[0][1]:6}} to the second.\n\n"
           "```attention big\ntokens: [";
    for (int i = 0; i < n; ++i) {
        out << (i ? ", " : "") << "t" << i;
    }
    out << "]\nX: [";
    for (int i = 0; i < n; ++i) {
        out << (i ? ", " : "") << "[";
        for (int k = 0; k < 32; ++k) {
            out << (k ? ", " : "") << value(random);
        }
        out << "]";
    }
    out << "]\nheads: 2\n" << more << "```\n";
    return out.str();
}

AttentionCellModel* bigCell(LessonSession& session) {
    return qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("big")));
}

// |a − b| ≤ 1e-12 · max(1, |b|), −∞ where the other has −∞.
bool close(const arma::mat& a, const arma::mat& b) {
    if (a.n_rows != b.n_rows || a.n_cols != b.n_cols) {
        return false;
    }
    for (arma::uword i = 0; i < a.n_elem; ++i) {
        if (std::isinf(a(i)) || std::isinf(b(i))
                ? a(i) != b(i)
                : !(std::abs(a(i) - b(i)) <= 1e-12 * std::max(1.0, std::abs(b(i))))) {
            return false;
        }
    }
    return true;
}

// The shown result equals a fresh computation of the cell's current state.
bool showsItsState(const AttentionCellModel& cell) {
    const AttentionResult fresh =
        AttentionEngine().compute(cell.state().config, GradientCheck::Skip);
    const AttentionResult& shown = cell.result();
    if (fresh.head.size() != shown.head.size() || !close(shown.output, fresh.output) ||
        !close(shown.Q, fresh.Q)) {
        return false;
    }
    for (size_t i = 0; i < fresh.head.size(); ++i) {
        if (!close(shown.head[i].weightsT, fresh.head[i].weightsT) ||
            !close(shown.head[i].scoresT, fresh.head[i].scoresT)) {
            return false;
        }
    }
    return true;
}

} // namespace

class WindowRecomputeTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void largeCellComputesOnTheWorker() {
        LessonSession session;
        session.openText(QStringLiteral("large.md"), largeLesson(384));
        AttentionCellModel* cell = bigCell(session);
        QVERIFY(cell);
        QVERIFY(!cell->computesInline());
        QSignalSpy recomputed(cell, &AttentionCellModel::recomputed);
        QSignalSpy sessionUpdating(&session, &LessonSession::updatingChanged);
        const QString before = session.cells()->row(0).markdown;
        const double x = cell->inputMatrix("X0")(0, 0);

        // Refused at once, as before; nothing starts.
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 0, 99, QStringLiteral("1")),
                 QStringLiteral("X0 has no entry at row 1, column 100"));
        QVERIFY(!cell->updating());

        // Accepted at once; the numbers follow.
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 0, 0, QStringLiteral("4.5")),
                 QString());
        QCOMPARE(cell->inputMatrix("X0")(0, 0), 4.5); // the state is the edit's
        QVERIFY(cell->updating());
        QVERIFY(session.updating());
        QCOMPARE(recomputed.count(), 0);
        QCOMPARE(cell->result().X0(0, 0), x); // the views still show the last complete result
        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
        QCOMPARE(recomputed.count(), 1);
        QVERIFY(!session.updating());
        QCOMPARE(sessionUpdating.count(), 2);
        QCOMPARE(cell->result().X0(0, 0), 4.5);
        QVERIFY(showsItsState(*cell));
        QVERIFY(cell->edited());
        // The prose that quotes the cell follows (through the JSON built on the worker).
        QVERIFY(session.cells()->row(0).markdown != before);
        const QString expected = QString::number(cell->weight(0, 0, 1), 'f', 6);
        QVERIFY2(session.cells()->row(0).markdown.contains(expected),
                 qPrintable(session.cells()->row(0).markdown));
    }

    void latestEditWins() {
        LessonSession session;
        session.openText(QStringLiteral("large.md"), largeLesson(384));
        AttentionCellModel* cell = bigCell(session);
        QVERIFY(cell);
        QSignalSpy recomputed(cell, &AttentionCellModel::recomputed);
        // Edits faster than the worker: only the last state is shown, once.
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 5, 3, QStringLiteral("2")), QString());
        QCOMPARE(cell->setHeads(4), QString());
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 7, 1, QStringLiteral("-1")), QString());
        QCOMPARE(cell->removeToken(2), QString());
        QCOMPARE(cell->setFocus(9), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
        QCOMPARE(recomputed.count(), 1);
        QCOMPARE(cell->heads(), 4);
        QCOMPARE(cell->n(), 383);
        QCOMPARE(cell->focus(), 9);
        QCOMPARE(cell->mask(), QStringLiteral("causal"));
        QVERIFY(showsItsState(*cell));

        // Token edits alone go the incremental way; the result is the same.
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 40 * i, i, QString::number(i)),
                     QString());
            QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
            QVERIFY(showsItsState(*cell));
        }
        // Reset goes the same route, back to the lesson's cell.
        cell->reset();
        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
        QVERIFY(!cell->edited());
        QCOMPARE(cell->n(), 384);
        QVERIFY(showsItsState(*cell));
    }

    // Undo on the worker's route: each step back gives the state before its edit (the weights
    // set aside, not copied), and the worker's copies of the state, reused from one edit to
    // the next, always compute the state shown.
    void undoStepsBackOnTheWorker() {
        LessonSession session;
        session.openText(QStringLiteral("large.md"), largeLesson(384));
        AttentionCellModel* cell = bigCell(session);
        QVERIFY(cell);
        QVERIFY(!cell->computesInline());
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("W_Q"), 2, 3, QStringLiteral("0.75")),
                 QString());
        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
        const arma::mat weightsAfterFirst = cell->inputMatrix("W_Q");
        QCOMPARE(weightsAfterFirst(2, 3), 0.75);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(cell->setMatrixEntry(QStringLiteral("W_Q"), i, i, QString::number(i + 2)),
                     QString());
            QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 10 * i, 1, QStringLiteral("3")),
                     QString());
            QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
            QVERIFY(showsItsState(*cell));
        }
        QCOMPARE(cell->setHeads(4), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
        for (int i = 0; i < 7; ++i) { // heads, then each X0 and W_Q entry
            QVERIFY(cell->undoWhatIf());
            QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
            QVERIFY(showsItsState(*cell));
        }
        QCOMPARE(cell->heads(), 2);
        QVERIFY(arma::approx_equal(cell->inputMatrix("W_Q"), weightsAfterFirst, "absdiff", 0.0));
        QVERIFY(cell->undoWhatIf()); // the first edit: W_Q is the identity again
        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
        QVERIFY(!cell->edited());
        QVERIFY(!cell->canUndoWhatIf());
        QVERIFY(showsItsState(*cell));
    }

    // A recompute starts from a copy of the last forward pass alone: a result holds the
    // gradients of its own state (when a view or the prose needs them) or none, never those
    // of an earlier state carried along by the copy.
    void aResultHoldsItsOwnGradientsOrNone() {
        LessonSession session;
        session.openText(QStringLiteral("large.md"), largeLesson(384));
        AttentionCellModel* cell = bigCell(session);
        QVERIFY(cell);
        QVERIFY(!cell->computesInline());
        QVERIFY(!cell->result().grad.X.is_empty()); // computeLesson computes them at open
        const std::vector<std::function<QString()>> edits = {
            [&] { return cell->setMatrixEntry(QStringLiteral("X0"), 3, 2, QStringLiteral("1")); },
            [&] { return cell->setMatrixEntry(QStringLiteral("W_K"), 1, 4, QStringLiteral("2")); },
            [&] { return cell->setMask(QStringLiteral("causal")); },
        };
        for (const auto& edit : edits) {
            QCOMPARE(edit(), QString());
            QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
            QVERIFY(showsItsState(*cell));
            QVERIFY(cell->result().grad.X.is_empty());
            QVERIFY(cell->result().grad.W_Q.is_empty());
            QCOMPARE(cell->result().gradcheck.checked, 0);
        }

        LessonSession withGradients;
        withGradients.openText(QStringLiteral("large.md"),
                               largeLesson(384, "views: [matrices, gradients]\n"));
        cell = bigCell(withGradients);
        QVERIFY(cell);
        QVERIFY(!cell->computesInline());
        for (const auto& edit : edits) {
            QCOMPARE(edit(), QString());
            QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
            const AttentionResult fresh =
                AttentionEngine().compute(cell->state().config, GradientCheck::Skip);
            QVERIFY(close(cell->result().grad.X, fresh.grad.X));
            QVERIFY(close(cell->result().grad.W_K, fresh.grad.W_K));
            QVERIFY(close(cell->result().grad.W_O, fresh.grad.W_O));
        }
    }

    // A large cell's JSON holds what prose quotes, at open as after an edit: the quoted
    // number resolves as in the whole JSON, the tables nobody quotes are left out.
    void aLargeCellsJsonHoldsWhatProseQuotes() {
        LessonSession session;
        session.openText(QStringLiteral("large.md"), largeLesson(384));
        AttentionCellModel* cell = bigCell(session);
        QVERIFY(cell);
        const auto checkJson = [&] {
            const ComputedCell* computed = session.results().cell("big");
            QVERIFY(computed && computed->json.isObject());
            QVERIFY(!computed->json.find("K"));
            QVERIFY(!computed->json.find("output"));
            const Json* weights = computed->json.find("head")->at(0)->find("weights");
            QVERIFY(weights);
            QCOMPARE(weights->at(0)->at(1)->number(), cell->weight(0, 0, 1));
            QVERIFY(weights->at(1)->isNull()); // a row no path reads
        };
        checkJson();
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 1, 0, QStringLiteral("3")), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
        checkJson();

        // A small cell keeps its whole JSON, quoted or not.
        LessonSession small;
        small.openText(QStringLiteral("small.md"), largeLesson(8));
        const ComputedCell* computed = small.results().cell("big");
        QVERIFY(computed && computed->json.find("K") && computed->json.find("output"));
        QVERIFY(computed->json.find("head")->at(0)->find("weights")->at(1)->isArray());
    }

    // The window's BLAS leaves a core to the GUI thread (blas_threads.h).
    void theWindowLeavesACoreToTheGuiThread() {
        using GetThreads = int (*)();
        const auto threads =
            reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
        if (!threads || qEnvironmentVariableIsSet("OPENBLAS_NUM_THREADS")) {
            QSKIP("not OpenBLAS, or its threads set by OPENBLAS_NUM_THREADS");
        }
        const int cores = int(std::thread::hardware_concurrency());
        leaveOneCoreToTheGuiThread();
        QCOMPARE(threads(), std::max(1, cores - 1));
    }

    void overflowIsRefusedAfterTheFact() {
        LessonSession session;
        session.openText(QStringLiteral("large.md"), largeLesson(384));
        AttentionCellModel* cell = bigCell(session);
        QVERIFY(cell);
        QSignalSpy refused(cell, &AttentionCellModel::refused);
        const arma::mat before = cell->inputMatrix("X0");
        // Finite, but its scores overflow: known only once computed.
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 3, 0, QStringLiteral("1e300")),
                 QString());
        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), kWait);
        QCOMPARE(refused.count(), 1);
        QVERIFY(refused.at(0).at(0).toString().contains(QStringLiteral("overflowed")));
        QVERIFY(arma::approx_equal(cell->inputMatrix("X0"), before, "absdiff", 0));
        QVERIFY(!cell->edited());
        QVERIFY(cell->result().output.is_finite());
        QVERIFY(showsItsState(*cell));
    }

    void sessionGoesAwayWhileItsCellComputes() {
        for (int i = 0; i < 3; ++i) {
            auto* session = new LessonSession;
            session->openText(QStringLiteral("large.md"), largeLesson(384));
            AttentionCellModel* cell = bigCell(*session);
            QVERIFY(cell);
            QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
            QVERIFY(cell->updating());
            if (i == 1) {
                session->openText(QStringLiteral("small.md"), "# Small\n"); // cells replaced
                QCoreApplication::processEvents();
            }
            delete session; // the job finishes on its own; its outcome goes nowhere
        }
        QVERIFY(QThreadPool::globalInstance()->waitForDone(kWait));
        QCoreApplication::processEvents();
    }

    // Every shipped lesson's cells compute inline: their edits show at once, as the Qt Quick
    // tests and `shot` expect, and never set `updating`.
    void shippedLessonsComputeInline() {
        const QDir documents(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents"));
        int cells = 0;
        for (const QString& name : documents.entryList({QStringLiteral("*.md")}, QDir::Files)) {
            LessonSession session;
            session.open(documents.filePath(name));
            for (int row = 0; row < session.cells()->count(); ++row) {
                if (auto* cell =
                        qobject_cast<AttentionCellModel*>(session.cells()->row(row).cell)) {
                    QVERIFY2(cell->computesInline(), qPrintable(name + ": " + cell->cellId()));
                    ++cells;
                }
            }
        }
        QVERIFY(cells >= 5);
        LessonSession session;
        QVERIFY(session.open(QString()));
        auto* colour = qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("colour")));
        QVERIFY(colour);
        QSignalSpy updating(colour, &AttentionCellModel::updatingChanged);
        const int revision = colour->revision();
        QCOMPARE(colour->setHeads(2), QString());
        QCOMPARE(colour->revision(), revision + 1);
        QCOMPARE(colour->heads(), 2);
        QCOMPARE(updating.count(), 0);
    }

    // `edited` is about the document's bytes: Keep, an edit, undo. Never a what-if.
    void editedMeansTheBytesChanged() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        QSignalSpy edited(&session, &LessonSession::edited);
        auto* colour = qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("colour")));
        QVERIFY(colour);
        QCOMPARE(colour->setMask(QStringLiteral("causal")), QString());
        QCOMPARE(edited.count(), 0);
        QCOMPARE(colour->keep(), QString());
        QCOMPARE(edited.count(), 1);
        session.editor()->undo();
        QCOMPARE(edited.count(), 2);
        QCOMPARE(session.editor()->setProse(0, QStringLiteral("# Changed")), QString());
        QCOMPARE(edited.count(), 3);
    }
};

QTEST_MAIN(WindowRecomputeTest)
#include "test_window_recompute.moc"

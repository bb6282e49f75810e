// A transformer cell in the window: the session gives it a model that starts from what
// computeLesson computed; each what-if recomputes it and the prose that quotes it follows;
// Undo brings the sentence back; Keep writes the lesson's keys into the document (an unsaved
// change) and names what it leaves out; and every view draws in the real window (`shot`,
// each view first in turn), without a QML error.
#include "app/models/cell_list_model.h"
#include "app/models/document_editor.h"
#include "app/models/document_saver.h"
#include "app/models/lesson_session.h"
#include "app/models/transformer_cell_model.h"
#include "core/document/lesson.h"
#include "core/math/transformer_training.h"
#include "tests/test_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace attnbook;

namespace {

const char* kLesson = R"(# A small decoder

```transformer t
tokens: [red, blue, red]
vocab: {red: [1, 0, 0, 0], blue: [0, 1, 0, 0], green: [0, 0, 1, 0], gold: [0, 0, 0, 1]}
positional: sinusoidal
layers:
  - attention: {heads: 2, mask: causal}
    ln1: {gamma: [1, 2, 1, 1]}
    ffn: {W_1: [[1, 0, 0, 0], [0, 1, 0, 0]], W_2: [[1, 0], [0, 1], [1, 1], [0, 0]]}
  - attention: {heads: 1, mask: causal}
    ffn: none
targets: [blue, red, ~]
generate: {steps: 3, pick: greedy}
views: [VIEWS]
```

The next word is {{t.next[0].word}} at {{t.next[0].prob:4}}; the first token is {{t.tokens[0]}}.

The second block leaves {{t.layers[1].resid2[0][0]:2}} in the first entry.{{? t.layers_run == 2}}
)";

QString writeLesson(const QTemporaryDir& dir, const QString& views) {
    const QString path = dir.filePath(QStringLiteral("decoder.md"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write(QByteArray(kLesson).replace("VIEWS", views.toUtf8()));
    return path;
}

QString allProse(const LessonSession& session) {
    QString text;
    const CellListModel* cells = session.cells();
    for (int row = 0; row < cells->count(); ++row) {
        if (cells->row(row).kind == QLatin1String("prose")) {
            text += cells->row(row).markdown;
        }
    }
    return text;
}

} // namespace

class TransformerWindowTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void whatIfsRecomputeAndProseFollows() {
        QTemporaryDir dir;
        LessonSession session;
        QVERIFY(session.open(writeLesson(dir, QStringLiteral("stream, next"))));
        auto* cell = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("t")));
        QVERIFY(cell);
        QCOMPARE(cell->n(), 3);
        QCOMPARE(cell->layerCount(), 2);
        QVERIFY(cell->gradientCheckPassed());
        QVERIFY(allProse(session).contains(QLatin1String("the first token is red")));

        QSignalSpy recomputed(cell, &TransformerCellModel::recomputed);
        QCOMPARE(cell->replaceToken(0, QStringLiteral("gold")), QString());
        QCOMPARE(recomputed.count(), 1); // a small cell computes at once
        QCOMPARE(cell->tokens().front(), QStringLiteral("gold"));
        QVERIFY(cell->edited());
        QVERIFY(allProse(session).contains(QLatin1String("the first token is gold")));

        // Refused: nothing changes, the reason is given.
        QCOMPARE(cell->replaceToken(0, QStringLiteral("purple")),
                 QStringLiteral("'purple' is not in the vocab"));
        QCOMPARE(recomputed.count(), 1);

        // The views' numbers: one stage per layer's attention and FFN, plus the ends.
        QCOMPARE(cell->stageNames().size(), 1 + 2 * 2 + 1);
        TransformerShownViews& shown = *cell->shown();
        QCOMPARE(shown.stageRows().size(), 3);
        QCOMPARE(shown.nextWords().size(), 4); // every word of the vocabulary, at most 8
        QCOMPARE(shown.generation().size(), 3);
        shown.setBlocksLayer(0);
        shown.setBlocksHead(1);
        shown.setBlocksRow(2);
        shown.setBlockSize(2);
        const QVariantMap blocks = shown.blocks();
        QVERIFY(blocks.value(QStringLiteral("difference")).toDouble() < 1e-12);
        QCOMPARE(blocks.value(QStringLiteral("steps")).toList().size(), 2);
        QVERIFY(cell->layerAttention(1) != nullptr);

        // One layer: its stages go, and so does the second layer's attention. The sentence about
        // the second block has no value now: a dash and the mark of a false sentence, never the
        // binding's raw text.
        QVERIFY(!allProse(session).contains(QStringLiteral("⚠")));
        QCOMPARE(cell->setLayersRun(1), QString());
        QCOMPARE(cell->stageNames().size(), 1 + 2 + 1);
        QVERIFY(cell->layerAttention(1) == nullptr);
        const QString prose = allProse(session);
        QVERIFY2(prose.contains(QStringLiteral("leaves — [**⚠ not true for your edit**]")),
                 qPrintable(prose));
        QVERIFY(!prose.contains(QLatin1String("{{")));

        // The mask off: generation is refused with its reason, the rest still computes.
        QCOMPARE(cell->setMask(QStringLiteral("none")), QString());
        QVERIFY(cell->generationRefused().contains(QLatin1String("causal mask")));
        QVERIFY(shown.generation().isEmpty());

        // Undo, one what-if at a time, back to the sentence the lesson wrote.
        QVERIFY(cell->undoWhatIf());
        QVERIFY(cell->undoWhatIf());
        QVERIFY(cell->undoWhatIf());
        QVERIFY(!cell->edited());
        QVERIFY(allProse(session).contains(QLatin1String("the first token is red")));
        QVERIFY(!allProse(session).contains(QStringLiteral("⚠")));
        QVERIFY(!cell->canUndoWhatIf());
    }

    // transformer.md's `tiny`: its forward pass is tiny, its gradient check is not. A what-if
    // shows the new chances in the call; the gradients follow from the worker, and until they
    // do, the sentence quoting their check waits ("…") with no false mark.
    void chancesFirstGradientsAfter() {
        LessonSession session;
        QVERIFY(session.open(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/transformer.md")));
        auto* cell = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("tiny")));
        QVERIFY(cell);
        QVERIFY(cell->complete());
        const QString checked = QStringLiteral("the error is below one in\na million.");
        QVERIFY2(allProse(session).contains(checked), qPrintable(allProse(session)));
        const QVariant before =
            cell->shown()->nextWords().value(0).toMap().value(QStringLiteral("prob"));

        QSignalSpy recomputed(cell, &TransformerCellModel::recomputed);
        QCOMPARE(cell->setTemperature(0.5), QString());
        QCOMPARE(recomputed.count(), 1); // the forward step, in the call
        QVERIFY(cell->chancesCurrent());
        QVERIFY(!cell->complete());
        QVERIFY(cell->updating());
        QVERIFY(cell->shown()->nextWords().value(0).toMap().value(QStringLiteral("prob")) !=
                before);
        QCOMPARE(cell->gradientCheckText(),
                 QStringLiteral("Checking the gradients of this what-if…"));
        QVERIFY(!allProse(session).contains(QStringLiteral("⚠")));

        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), 20000);
        QCOMPARE(recomputed.count(), 2); // the rest: generation, gradients, their check
        QVERIFY(cell->complete());
        QVERIFY(cell->gradientCheckPassed());
        QVERIFY(cell->gradientCheckText().startsWith(
            QLatin1String("Gradient check against central differences: relative error ")));
        QVERIFY(cell->gradientCheckText().contains(QLatin1String(", passed (below 1e-6 passes).")));
        QVERIFY(allProse(session).contains(checked));
        QVERIFY(!allProse(session).contains(QStringLiteral("⚠")));

        // Two what-ifs in a row: the first's gradients never show over the second's chances.
        QCOMPARE(cell->setTemperature(2.0), QString());
        QCOMPARE(cell->setNorm(false), QString());
        QVERIFY(cell->chancesCurrent());
        QTRY_VERIFY_WITH_TIMEOUT(!cell->updating(), 20000);
        QVERIFY(cell->complete());
        QCOMPARE(cell->temperature(), 2.0);
        QVERIFY(!cell->norm());
        QCOMPARE(cell->result().gradcheck.ran, true);
        QCOMPARE(cell->result().grad.layers.size(), size_t(cell->layersRun()));
    }

    // documents/training.md's `learner` trains when the lesson opens; a reader's what-if starts
    // from its trained weights and keeps its training: the loss curve stays, prose quoting
    // training.* still reads it, and the chances are the trained model's at the new setting.
    void aTrainedCellKeepsItsTrainingUnderWhatIfs() {
        LessonSession session;
        QVERIFY(session.open(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/training.md")));
        auto* cell = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("learner")));
        QVERIFY(cell);
        QTRY_VERIFY(cell->complete());
        const QVariantMap curve = cell->shown()->training();
        QCOMPARE(curve.value(QStringLiteral("loss")).toList().size(), 151);
        const QString before = allProse(session);
        QVERIFY2(before.contains(QStringLiteral("After\n150 steps the loss is")),
                 qPrintable(before));
        QVERIFY(!before.contains(QStringLiteral("—")));
        const double mat = cell->result().probs(4, 7); // the trained model's chance of mat

        QCOMPARE(cell->setTemperature(2.0), QString());
        QTRY_VERIFY_WITH_TIMEOUT(cell->complete(), 20000);
        QCOMPARE(cell->shown()->training().value(QStringLiteral("loss")).toList().size(), 151);
        QVERIFY(cell->result().training != nullptr);
        const QString after = allProse(session);
        QVERIFY2(after.contains(QStringLiteral("After\n150 steps the loss is")), qPrintable(after));
        QVERIFY2(!after.contains(QStringLiteral("—")), qPrintable(after));
        // Hotter, the trained model is less sure of mat, but still gives it the most.
        QVERIFY(cell->result().probs(4, 7) < mat);
        QCOMPARE(
            cell->shown()->nextWords().value(0).toMap().value(QStringLiteral("word")).toString(),
            QStringLiteral("mat"));
    }

    // docs/training.md "In the window": the Show step slider moves every view to the model at
    // that step, exactly as compute shows that step; Train runs again with the reader's settings
    // and shows what trainTransformer gives; Cancel keeps the run on show; Reset goes back.
    void theShownStepAndANewRunMoveEveryView() {
        const QString path = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/training.md");
        LessonSession session;
        QVERIFY(session.open(path));
        auto* cell = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("learner")));
        auto* start =
            qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("learner_start")));
        QVERIFY(cell && start);
        QTRY_VERIFY(cell->complete());
        QTRY_VERIFY(start->complete());
        QVERIFY(cell->trains());
        QCOMPARE(cell->shownStep(), 150);
        QCOMPARE(cell->keptEvery(), 0); // nothing kept before the first move

        // Step 0: the first move trains once more, watched; then the views show the model
        // learner_start shows (the same cell with show: 0), to the last bit.
        QSignalSpy changed(cell, &TransformerCellModel::trainingChanged);
        QCOMPARE(cell->showStep(0), QString());
        QTRY_COMPARE_WITH_TIMEOUT(cell->shownStep(), 0, 20000);
        QTRY_VERIFY(cell->complete());
        QVERIFY(changed.count() >= 1);
        QCOMPARE(cell->keptEvery(), 1);
        QVERIFY2(cell->keptNote().startsWith(QStringLiteral("151 steps kept")),
                 qPrintable(cell->keptNote()));
        QVERIFY(arma::approx_equal(cell->result().probs, start->result().probs, "absdiff", 0.0));
        QCOMPARE(cell->shown()->training().value(QStringLiteral("shown")).toInt(), 0);
        QVERIFY(cell->edited());

        // Another step, at once (a forward pass from the kept weights).
        QCOMPARE(cell->showStep(30), QString());
        QCOMPARE(cell->shownStep(), 30);
        QTRY_VERIFY(cell->complete());

        // Train again: 40 steps of SGD at lr 0.5, what trainTransformer gives.
        QCOMPARE(cell->train(40, QStringLiteral("sgd"), 0.5, 7), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!cell->trainingRunning(), 20000);
        QTRY_COMPARE(cell->shownStep(), 40);
        QTRY_VERIFY(cell->complete());
        const Lesson lesson = loadLesson(path.toStdString());
        const TransformerCellSpec* spec = lesson.cell("learner")->transformer();
        QVERIFY(spec && spec->training);
        TrainingSpec sgd = *spec->training;
        sgd.steps = 40;
        sgd.show = 40;
        sgd.lr = 0.5;
        sgd.optimizer = TrainingSpec::Optimizer::Sgd;
        const TrainingResult expected = trainTransformer(spec->config, sgd);
        const QVariantList loss = cell->shown()->training().value(QStringLiteral("loss")).toList();
        QCOMPARE(loss.size(), 41);
        for (int i = 0; i < 41; ++i) {
            QCOMPARE(loss[i].toDouble(), expected.loss[size_t(i)]);
        }
        QCOMPARE(cell->trainingSteps(), 40);
        QCOMPARE(cell->trainingOptimizer(), QStringLiteral("sgd"));

        // A long run cancelled: the 40-step run stays on show.
        QCOMPARE(cell->train(5000, QStringLiteral("adam"), 0.01, 7), QString());
        cell->cancelTraining();
        cell->waitForTraining();
        QTRY_VERIFY(!cell->trainingRunning());
        QCOMPARE(cell->shownStep(), 40);
        QCOMPARE(cell->trainingSteps(), 40);

        // Keep says the training is the window's view, not the lesson's.
        QVERIFY2(cell->keep().contains(QLatin1String("the training on show (step 40 of 40)")),
                 qPrintable(cell->keep()));

        // Refusals change nothing.
        QVERIFY(!cell->train(-1, QStringLiteral("sgd"), 0.5, 7).isEmpty());
        QVERIFY(!cell->train(10, QStringLiteral("rmsprop"), 0.5, 7).isEmpty());
        QVERIFY(!cell->train(10, QStringLiteral("sgd"), 0.0, 7).isEmpty());
        QVERIFY(!start->train(10, QStringLiteral("sgd"), 0.5, 7).isEmpty()); // controls: []

        // Reset: the lesson's own training and step.
        cell->reset();
        QCOMPARE(cell->shownStep(), 150);
        QCOMPARE(cell->trainingSteps(), 150);
        QTRY_VERIFY(cell->complete());
        QVERIFY(!cell->edited());
        QCOMPARE(cell->shown()->training().value(QStringLiteral("loss")).toList().size(), 151);
    }

    void keepWritesTheLessonsKeys() {
        QTemporaryDir dir;
        LessonSession session;
        QVERIFY(session.open(writeLesson(dir, QStringLiteral("stream"))));
        auto* cell = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("t")));
        QVERIFY(cell);
        QCOMPARE(cell->replaceToken(2, QStringLiteral("green")), QString());
        QCOMPARE(cell->setTemperature(0.5), QString());
        QCOMPARE(cell->setFfn(false), QString());
        const QString said = cell->keep();
        QVERIFY2(said.contains(QLatin1String("Kept tokens, targets, temperature")),
                 qPrintable(said));
        QVERIFY2(said.contains(QLatin1String("the FFN off")), qPrintable(said));
        QVERIFY(session.unsavedChanges());
        const QString text = session.documentText();
        QVERIFY(text.contains(QLatin1String("tokens: [red, blue, green]")));
        QVERIFY(text.contains(QLatin1String("targets: [blue, red, ~]")));
        QVERIFY(text.contains(QLatin1String("temperature: 0.5")));
        QCOMPARE(text.count(QLatin1String("ffn: none")), 1); // the switch is not part of the lesson
    }

    // docs/training.md "Keep": the weights on show go into a file beside the lesson; the cell
    // reads them from there, trains no more and shows the same numbers, before and after the
    // lesson is saved and opened again; Undo brings the training back; an existing file is
    // replaced only when asked; a lesson with no folder cannot keep.
    void keepingTrainedWeightsWritesAFileTheCellReads() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("learn.md"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(R"(# Learn

```transformer l
tokens: [a, b]
vocab: {a: [0, 0, 0, 0], b: [0, 0, 0, 0], c: [0, 0, 0, 0]}
positional: sinusoidal
layers:
  - attention: {heads: 1, mask: causal}
    ffn: none
targets: [b, c]
views: [training, next]
train:
  data: [[a, b, c], [b, c, a]]
  steps: 20
  lr: 0.05
  init: {seed: 3, scale: 0.5}
  show: 15
```

After b the model says {{l.next[0].word}}.
)");
        }
        LessonSession session;
        QVERIFY(session.open(path));
        auto* cell = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("l")));
        QVERIFY(cell && cell->trains());
        QTRY_VERIFY(cell->complete());
        const arma::mat probs = cell->result().probs;
        QCOMPARE(cell->weightsFileName(), QStringLiteral("l.safetensors"));
        QVERIFY(!cell->weightsFileExists());

        QSignalSpy news(&session, &LessonSession::notice);
        QCOMPARE(cell->keepWeights(false), QString());
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("l.safetensors"))));
        QCOMPARE(news.count(), 1);
        QVERIFY2(news.first().first().toString().contains(QLatin1String("Wrote l.safetensors")),
                 qPrintable(news.first().first().toString()));
        QVERIFY(session.unsavedChanges());
        QVERIFY(!session.documentText().contains(QLatin1String("train:")));
        auto* kept = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("l")));
        QVERIFY(kept && !kept->trains());
        QTRY_VERIFY(kept->complete());
        QVERIFY(arma::approx_equal(kept->result().probs, probs, "absdiff", 0.0));
        QVERIFY(!kept->keepWeights(false).isEmpty()); // it trains no more

        // Saved and opened again: the same numbers, read from the file.
        QVERIFY(session.saver()->save());
        {
            LessonSession reopened;
            QVERIFY(reopened.open(path));
            auto* read = qobject_cast<TransformerCellModel*>(reopened.cell(QStringLiteral("l")));
            QVERIFY(read && !read->trains());
            QTRY_VERIFY(read->complete());
            QVERIFY(arma::approx_equal(read->result().probs, probs, "absdiff", 0.0));
        }

        // Undo: the cell trains again; its file is there now, so Keep asks first.
        session.editor()->undo();
        auto* again = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("l")));
        QVERIFY(again && again->trains());
        QTRY_VERIFY(again->complete());
        QVERIFY(again->weightsFileExists());
        QVERIFY2(again->keepWeights(false).contains(QLatin1String("already beside the lesson")),
                 qPrintable(again->keepWeights(false)));
        QVERIFY(session.documentText().contains(QLatin1String("train:")));
        // A FIFO of that name is refused, as every output of attnbook's, and left as it was.
        const QString weights = dir.filePath(QStringLiteral("l.safetensors"));
        QVERIFY(QFile::remove(weights));
        QCOMPARE(::mkfifo(QFile::encodeName(weights).constData(), 0600), 0);
        const QString fifo = again->keepWeights(true);
        QVERIFY2(fifo.contains(QLatin1String("FIFO")), qPrintable(fifo));
        QVERIFY(QFileInfo(weights).exists() && !QFileInfo(weights).isFile());
        QVERIFY(session.documentText().contains(QLatin1String("train:")));
        QVERIFY(QFile::remove(weights));
        QCOMPARE(again->keepWeights(true), QString());
        QVERIFY(!session.documentText().contains(QLatin1String("train:")));

        // The lesson shipped inside the program has no folder to write beside.
        LessonSession shipped;
        QVERIFY(shipped.open(QStringLiteral(":/documents/training.md"))); // its data files too
        auto* learner =
            qobject_cast<TransformerCellModel*>(shipped.cell(QStringLiteral("learner")));
        QVERIFY(learner);
        QTRY_VERIFY(learner->complete());
        QVERIFY2(learner->keepWeights(false).contains(QLatin1String("save the lesson as a file")),
                 qPrintable(learner->keepWeights(false)));
    }

    // Each view first in turn, drawn by the real window: no QML error, a page with ink.
    void everyViewDraws() {
        const QStringList views = {QStringLiteral("stream"), QStringLiteral("ffn"),
                                   QStringLiteral("next"),   QStringLiteral("generation"),
                                   QStringLiteral("cache"),  QStringLiteral("blocks"),
                                   QStringLiteral("heatmap")};
        for (const QString& view : views) {
            QTemporaryDir dir;
            const QString lesson = writeLesson(dir, view + QStringLiteral(", stream"));
            const QString out = dir.filePath(QStringLiteral("shot.png"));
            QProcess process;
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            process.setProcessEnvironment(environment);
            process.start(QStringLiteral(ATTNBOOK_EXECUTABLE),
                          {QStringLiteral("shot"), lesson, QStringLiteral("--out"), out,
                           QStringLiteral("--cell"), QStringLiteral("t")});
            QVERIFY(process.waitForFinished(120000));
            const QString errors = QString::fromUtf8(process.readAllStandardError());
            QVERIFY2(process.exitCode() == 0, qPrintable(view + QStringLiteral(": ") + errors));
            QVERIFY2(!errors.contains(QLatin1String("qml")),
                     qPrintable(view + QStringLiteral(": ") + errors));
            const QImage image(out);
            QVERIFY2(!image.isNull() && image.height() > 300, qPrintable(view));
            // For people to look at: shotPath (tests/test_files.h), never a fixed /tmp name.
            const QString kept =
                shotPath(QStringLiteral("transformer-shot-") + view + QStringLiteral(".png"));
            QFile::remove(kept); // QFile::copy writes no file over another
            QFile::copy(out, kept);
        }
    }
};

QTEST_MAIN(TransformerWindowTest)
#include "test_transformer_window.moc"

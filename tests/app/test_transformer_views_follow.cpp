// Every view of a transformer cell follows every control in the real window, without the
// reader switching views: transformer.md's `playground` cell, drawn offscreen. For each view,
// chosen once, each control's what-if is made and the numbers the view shows are read off its
// items and compared with numbers computed apart for the same settings: the engine run on the
// settings the reader chose, and where the control is a key of the cell (tokens, temperature,
// generate) `compute --set` (applyWhatIf) as well. Before the views read properties that say
// when they change, the next-word bars, the stream's lengths and the generated words kept an
// earlier what-if's numbers until the reader switched views and back.
#include "app/models/cell_list_model.h"
#include "app/models/lesson_session.h"
#include "app/models/number_text.h"
#include "app/models/transformer_cell_model.h"
#include "app/models/transformer_shown_views.h"
#include "app/window/window.h"
#include "core/live/transformer_live_cell.h"
#include "core/live/what_if.h"
#include "core/math/attention_engine.h"
#include "core/math/transformer_engine.h"
#include "files/lesson_source.h"
#include "tests/app/window_items.h"
#include "tests/test_files.h"

#include <QApplication>
#include <QPointer>
#include <QQmlApplicationEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QStandardPaths>
#include <QTest>
#include <QtQml/qqmlextensionplugin.h>

#include <functional>
#include <memory>

Q_IMPORT_QML_PLUGIN(AttnbookPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookModelsPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookWindowPlugin)

using namespace attnbook;

namespace {

const QString kLessonPath = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/transformer.md");
const char* kCell = "playground";

QObject* find(QObject* root, const QString& name) {
    auto* item = qobject_cast<QQuickItem*>(root);
    return item ? findItem(item, name) : nullptr;
}

// The text an item shows, "" when there is no such item or it is hidden.
QString shownText(QObject* root, const QString& name) {
    QObject* item = find(root, name);
    if (!item || !item->property("visible").toBool()) {
        return {};
    }
    return item->property("text").toString();
}

// One what-if, as the cell's control makes it, and the same settings for the engine.
struct Control {
    const char* name;
    std::function<QString(TransformerCellModel&)> inWindow;
    std::function<std::string(TransformerLiveCell&)> settings;
    // The same what-if as `compute --set` options, where the control is a key of the cell.
    std::vector<std::string> sets;
};

std::vector<Control> controls() {
    return {
        {"as written",
         [](TransformerCellModel&) { return QString(); },
         [](TransformerLiveCell&) { return std::string(); },
         {}},
        {"a prompt about a bird",
         [](TransformerCellModel& c) { return c.replaceToken(1, QStringLiteral("bird")); },
         [](TransformerLiveCell& c) { return c.replaceToken(1, "bird"); },
         {"playground.tokens=[a, bird]"}},
        {"a word added",
         [](TransformerCellModel& c) { return c.addToken(QStringLiteral("sat")); },
         [](TransformerLiveCell& c) { return c.addToken("sat"); },
         {"playground.tokens=[a, dog, sat]"}},
        {"a word removed",
         [](TransformerCellModel& c) { return c.removeToken(0); },
         [](TransformerLiveCell& c) { return c.removeToken(0); },
         {"playground.tokens=[dog]"}},
        {"one layer",
         [](TransformerCellModel& c) { return c.setLayersRun(1); },
         [](TransformerLiveCell& c) { return c.setLayersRun(1); },
         {}},
        {"LayerNorm off",
         [](TransformerCellModel& c) { return c.setNorm(false); },
         [](TransformerLiveCell& c) { return c.setNorm(false); },
         {}},
        {"FFN off",
         [](TransformerCellModel& c) { return c.setFfn(false); },
         [](TransformerLiveCell& c) { return c.setFeedForward(false); },
         {}},
        {"temperature 3",
         [](TransformerCellModel& c) { return c.setTemperature(3); },
         [](TransformerLiveCell& c) { return c.setTemperature(3); },
         {"playground.temperature=3"}},
        {"greedy, 3 words",
         [](TransformerCellModel& c) { return c.setGenerate(3, QStringLiteral("greedy"), 7); },
         [](TransformerLiveCell& c) { return c.setGenerate(3, PickKind::Greedy, 7); },
         {"playground.generate={steps: 3, pick: greedy}"}},
        {"another seed",
         [](TransformerCellModel& c) { return c.setGenerate(5, QStringLiteral("sample"), 11); },
         [](TransformerLiveCell& c) { return c.setGenerate(5, PickKind::Sample, 11); },
         {"playground.generate={steps: 5, pick: sample, seed: 11}"}},
    };
}

// The view a control is checked in: its tab's name, the choice it starts from, and the check
// of its shown items against the computed result.
struct View {
    const char* tab;
    std::function<void(TransformerShownViews&)> choose;
    std::function<void(QObject* card, const TransformerResult& expected)> check;
};

QString number(double value, int digits) {
    return displayNumber(value, digits);
}

void checkNext(QObject* card, const TransformerResult& r) {
    QString prompt;
    for (const std::string& token : r.tokens) {
        prompt += (prompt.isEmpty() ? "" : " ") + QString::fromStdString(token);
    }
    QVERIFY2(shownText(card, QStringLiteral("nextCaption")).contains(prompt),
             qPrintable(shownText(card, QStringLiteral("nextCaption"))));
    for (int i = 0; i < TransformerShownViews::kNextWords && i < int(r.next.size()); ++i) {
        QCOMPARE(shownText(card, QStringLiteral("nextWord_%1").arg(i)),
                 QString::fromStdString(r.next[size_t(i)].word));
        QVERIFY(shownText(card, QStringLiteral("nextProb_%1").arg(i))
                    .startsWith(number(r.next[size_t(i)].prob, 4)));
    }
}

// The stream at its last stage (the final LayerNorm): every control changes it.
void checkStream(QObject* card, const TransformerResult& r) {
    for (int i = 0; i < r.n; ++i) {
        QCOMPARE(shownText(card, QStringLiteral("streamToken_%1").arg(i)),
                 QString::fromStdString(r.tokens[size_t(i)]));
        // (1 × d) the token's row after the final LayerNorm
        const double length = arma::norm(r.finalLn.out.row(arma::uword(i)));
        QCOMPARE(shownText(card, QStringLiteral("streamLength_%1").arg(i)), number(length, 3));
    }
    QVERIFY(shownText(card, QStringLiteral("streamLength_%1").arg(r.n)).isEmpty());
}

void checkGeneration(QObject* card, const TransformerResult& r) {
    QCOMPARE(int(r.generation.steps.size()) > 0, true);
    for (size_t i = 0; i < r.generation.steps.size(); ++i) {
        QCOMPARE(shownText(card, QStringLiteral("generatedWord_%1").arg(i)),
                 QString::fromStdString(r.generation.steps[i].label));
    }
    QVERIFY(shownText(card, QStringLiteral("generatedWord_%1").arg(r.generation.steps.size()))
                .isEmpty());
}

void checkCache(QObject* card, const TransformerResult& r) {
    for (size_t i = 0; i < r.generation.steps.size(); ++i) {
        QCOMPARE(shownText(card, QStringLiteral("cache_%1_2").arg(i)),
                 QString::number(r.generation.steps[i].costCached));
        QCOMPARE(shownText(card, QStringLiteral("cache_%1_3").arg(i)),
                 QString::number(r.generation.steps[i].costFull));
    }
}

// Layer 1's FFN, when it runs: the grid's rows are its activations.
void checkFfn(QObject* card, const TransformerResult& r) {
    QObject* grid = find(card, QStringLiteral("ffnGrid"));
    QVERIFY(grid);
    const bool runs = !r.layers.front().ffnAct.is_empty();
    QCOMPARE(grid->property("visible").toBool(), runs);
    if (!runs) {
        return;
    }
    const QVariantList rows = grid->property("rows").toList();
    QCOMPARE(rows.size(), r.n);
    for (int i = 0; i < r.n; ++i) {
        const QVariantList values = rows[i].toMap().value(QStringLiteral("values")).toList();
        QVERIFY(!values.isEmpty());
        QCOMPARE(values[0].toDouble(), r.layers.front().ffnAct(arma::uword(i), 0));
    }
}

// Head 1 of the last layer run, the last row, every block read: o / ℓ beside the plain path.
void checkBlocks(QObject* card, const TransformerResult& r) {
    const arma::mat& context = r.layers[size_t(r.layersRun - 1)].attention.head[0].context;
    QStringList plain;
    for (arma::uword j = 0; j < context.n_cols; ++j) {
        plain << number(context(context.n_rows - 1, j), 4);
    }
    const QString text = shownText(card, QStringLiteral("blocksResult"));
    QVERIFY2(text.contains(QStringLiteral("the plain path gives [%1]").arg(plain.join(", "))),
             qPrintable(text));
}

// Layer 1's attention as an attention cell: the tokens it reads, and its input named as what it
// is (the stream normalized by LN₁, not token vectors with positions of their own).
void checkLayerAttention(QObject* card, const TransformerResult& r) {
    QObject* layer = find(card, QStringLiteral("attention_playground.layers[0]"));
    QVERIFY(layer);
    const QString summary = shownText(layer, QStringLiteral("summary"));
    QVERIFY2(summary.startsWith(QStringLiteral("%1 token").arg(r.n)), qPrintable(summary));
    const bool norm = !r.layers.front().ln1.xhat.is_empty();
    QVERIFY2(summary.contains(norm ? QStringLiteral("input: H = LN₁(X⁰)")
                                   : QStringLiteral("input: H = X⁰, the stream (LayerNorm off)")),
             qPrintable(summary));
    QVERIFY2(!summary.contains(QLatin1String("positional")), qPrintable(summary));
}

// The focus row's top word with each part removed: the bars in the engine's order (each layer's
// heads, its attention, its FFN, its block), each the word's chance in that knock-out pass.
void checkKnockout(QObject* card, const TransformerResult& r) {
    QVERIFY(r.knockouts.computed);
    const arma::rowvec whole = r.probs.row(arma::uword(r.focus)); // (V)
    const arma::uword word = whole.index_max();
    const QString caption = shownText(card, QStringLiteral("knockoutCaption"));
    QVERIFY2(
        caption.contains(QStringLiteral("“%1” a chance of %2")
                             .arg(QString::fromStdString(r.words[word]), number(whole(word), 4))),
        qPrintable(caption));
    std::vector<const KnockoutOutcome*> passes;
    for (size_t l = 0; l < r.knockouts.block.size(); ++l) {
        for (const KnockoutOutcome& head : r.knockouts.head[l]) {
            passes.push_back(&head);
        }
        passes.push_back(&r.knockouts.attention[l]);
        passes.push_back(&r.knockouts.ffn[l]);
        passes.push_back(&r.knockouts.block[l]);
    }
    for (size_t i = 0; i < passes.size(); ++i) {
        QObject* bar = find(card, QStringLiteral("knockoutBar_%1").arg(i));
        QVERIFY2(bar, qPrintable(QStringLiteral("bar %1").arg(i)));
        QCOMPARE(shownText(bar, QStringLiteral("knockoutProb")),
                 number(passes[i]->focusProbs(word), 4));
    }
    QVERIFY(!find(card, QStringLiteral("knockoutBar_%1").arg(passes.size())));
}

std::vector<View> views() {
    const auto lastStage = [](TransformerShownViews& s) { s.setStage(1000); };
    const auto lastBlock = [](TransformerShownViews& s) {
        s.setBlocksLayer(1000);
        s.setBlocksStep(1000);
    };
    const auto nothing = [](TransformerShownViews&) {};
    return {{"next", nothing, checkNext},
            {"stream", lastStage, checkStream},
            {"generation", nothing, checkGeneration},
            {"cache", nothing, checkCache},
            {"ffn", nothing, checkFfn},
            {"blocks", lastBlock, checkBlocks},
            {"knockout", nothing, checkKnockout},
            {"attention0", nothing, checkLayerAttention}};
}

// The cell's result for `control`, computed apart from the window: the engine on the settings
// the reader chose, checked against `compute --set` where the control is a key of the cell.
TransformerResult expectedResult(const Lesson& lesson, const Control& control) {
    const TransformerCellSpec* spec = nullptr;
    for (const LessonCell& cell : lesson.cells) {
        if (cell.id == kCell) {
            spec = cell.transformer();
        }
    }
    if (!spec) {
        qFatal("no transformer cell %s", kCell);
    }
    TransformerLiveCell live(*spec);
    if (const std::string refusal = control.settings(live); !refusal.empty()) {
        qFatal("%s: %s", control.name, refusal.c_str());
    }
    TransformerResult result = TransformerEngine().compute(live.config(), GradientCheck::Skip);
    if (!control.sets.empty()) {
        std::vector<SetOption> sets;
        for (const std::string& text : control.sets) {
            std::string error;
            sets.push_back(*parseSetOption(text, error));
        }
        AttentionEngine engine;
        const WhatIf whatIf = applyWhatIf(lesson, sets, engine);
        const ComputedCell* computed = whatIf.results.cell(kCell);
        if (!whatIf.errors.empty() || !computed || !computed->transformer) {
            qFatal("%s: compute --set refused it", control.name);
        }
        // (n × V) the same chances by both routes
        if (!arma::approx_equal(computed->transformer->probs, result.probs, "absdiff", 1e-14)) {
            qFatal("%s: compute --set and the reader's settings differ", control.name);
        }
    }
    return result;
}

} // namespace

// The playground's card, shown as the outline shows a cell (LessonView.showRow): at the top of
// the view, where it stays built.
QQuickItem* cellCard(QQuickWindow* window, QObject* lessonView) {
    auto* session = qvariant_cast<LessonSession*>(window->property("session"));
    if (!session) {
        return nullptr;
    }
    const int row = session->cells()->rowOfCell(QString::fromLatin1(kCell));
    QMetaObject::invokeMethod(lessonView, "showRow", Q_ARG(int, row));
    // The rows near the new place are built, those far from it let go, on the next frames.
    for (int i = 0; i < 10; ++i) {
        QTest::qWait(50);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    QQuickItem* card = nullptr;
    QMetaObject::invokeMethod(lessonView, "itemOfCell", Q_RETURN_ARG(QQuickItem*, card),
                              Q_ARG(QString, QString::fromLatin1(kCell)));
    return card;
}

class TransformerViewsFollowTest : public QObject {
    Q_OBJECT

    std::unique_ptr<QQmlApplicationEngine> engine_;
    QQuickWindow* window_ = nullptr;

    void settle(int ms) {
        QTest::qWait(ms);
        QCoreApplication::processEvents();
    }

  private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("attnbook-tests"));
        QStandardPaths::setTestModeEnabled(true);
        QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
        chooseControlsStyle();
        engine_ = std::make_unique<QQmlApplicationEngine>();
        addModuleImportPath(*engine_);
        engine_->setInitialProperties({{QStringLiteral("initialPath"), kLessonPath},
                                       {QStringLiteral("themeName"), QStringLiteral("light")}});
        engine_->load(QUrl(QStringLiteral("qrc:/qt/qml/Attnbook/Main.qml")));
        window_ = qobject_cast<QQuickWindow*>(engine_->rootObjects().value(0));
        QVERIFY(window_);
        window_->resize(1180, 900);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
    }

    void everyViewFollowsEveryControl() {
        QObject* lessonView = find(window_->contentItem(), QStringLiteral("lessonView"));
        QVERIFY(lessonView);
        QTRY_VERIFY(window_->findChild<LessonSession*>());
        const Lesson lesson = openLessonSource(kLessonPath.toStdString());

        for (const View& view : views()) {
            QPointer<QQuickItem> card = cellCard(window_, lessonView);
            QVERIFY(card);

            auto* cell = qvariant_cast<TransformerCellModel*>(card->property("cell"));
            QVERIFY(cell);
            // The reader picks the view once, with its button.
            auto* tab = find(card, QStringLiteral("view_%1").arg(view.tab));
            QVERIFY2(tab, view.tab);
            QVERIFY(QMetaObject::invokeMethod(tab, "toggle"));
            QVERIFY(QMetaObject::invokeMethod(tab, "toggled"));
            view.choose(*cell->shown());
            for (const Control& control : controls()) {
                cell->reset();
                QCOMPARE(control.inWindow(*cell), QString());
                QTRY_VERIFY(cell->complete());
                view.choose(*cell->shown()); // the last stage or block of the new settings
                settle(10);
                const TransformerResult expected = expectedResult(lesson, control);
                QVERIFY2(card, "the card was made again: it would forget its view");
                view.check(card, expected);
                if (control.sets.empty() && QByteArray(control.name) == "as written") {
                    QTest::qWait(100);
                    QVERIFY(window_->grabWindow().save(
                        shotPath(QStringLiteral("transformer-%1.png").arg(view.tab))));
                }
                if (QTest::currentTestFailed()) {
                    qWarning("the %s view, after %s", view.tab, control.name);
                    return;
                }
            }
            cell->reset();
        }
    }
};

QTEST_MAIN(TransformerViewsFollowTest)
#include "test_transformer_views_follow.moc"

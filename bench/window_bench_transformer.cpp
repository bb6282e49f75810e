// The transformer sections of attnbook-window-bench (window_bench_transformer.h): the bench
// lesson of a GPT-2-small-shaped cell, the views a window reads, the kinds of what-if, where a
// recompute's time goes, and sections 4 and 5.
#include "bench/window_bench_transformer.h"

#include "app/models/cell_list_model.h"
#include "app/models/lesson_session.h"
#include "app/models/problem_list_model.h"
#include "app/models/transformer_cell_model.h"
#include "bench/transformer_bench_cell.h"
#include "bench/window_bench_timing.h"
#include "core/document/lesson.h"
#include "core/math/transformer_engine.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <armadillo>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace attnbook::window_bench {

using attnbook::bench::TransformerShape;
using attnbook::bench::writeTransformerCell;

namespace {

// A lesson with one transformer cell `t` whose weights are .npy files in `folder`
// (transformer_bench_cell.h), a target on every row, and prose that quotes its next word and
// that word's chance. Every control (none named).
std::string writeTransformerLesson(const QString& folder, const TransformerShape& s,
                                   int generateSteps) {
    arma::arma_rng::set_seed(14);
    return "# Bench\n\nThe next word is {{t.next[0].word}}, with a chance of "
           "{{t.next[0].prob:4}}.\n\n" +
           writeTransformerCell(folder.toStdString(), "t", s, /*learnedPositions=*/false,
                                /*targets=*/true, generateSteps,
                                "views: [stream, next, generation]\n")
               .text;
}

// What a window's views read when the cell says `recomputed` (after the session, connected
// first, rewrote the quoting prose): the stream view's first stage, the next-word bars and the
// generation. It notes the GUI thread's CPU time from the timer's latest tick until it hears
// the signal (the result swapped in, the prose rewritten: no tick comes between) and what the
// reads took.
class TransformerViews {
  public:
    TransformerViews(TransformerCellModel* cell, const BlockMeter& meter) {
        QObject::connect(cell, &TransformerCellModel::recomputed, &context_, [this, cell, &meter] {
            const double heard = threadCpuMs();
            swapCpuMs_ = heard - meter.lastTickCpuMs();
            const TransformerShownViews& views = *cell->shown();
            shown_ = int(views.stageRows().size() + views.nextWords().size() +
                         views.generation().size());
            readCpuMs_ = threadCpuMs() - heard;
        });
    }
    double swapCpuMs() const { return swapCpuMs_; }
    double readCpuMs() const { return readCpuMs_; }

  private:
    QObject context_;
    int shown_ = 0;
    double swapCpuMs_ = 0, readCpuMs_ = 0;
};

struct TransformerEdit {
    const char* name;
    // Untimed, before each timed edit: brings the cell to where the edit changes something.
    std::function<void(TransformerCellModel*)> prepare;
    std::function<QString(TransformerCellModel*, int)> edit;
};

// Runs `edit` and waits for its numbers, only when `needed` (an edit that changes nothing
// computes nothing); a refusal is left to the timed edit to report.
void bringTo(TransformerCellModel* cell, bool needed, const std::function<QString()>& edit) {
    const int before = cell->revision();
    if (!needed || !edit().isEmpty()) {
        return;
    }
    while (cell->updating() || cell->revision() == before) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
}

std::vector<TransformerEdit> transformerEdits() {
    return {
        {"setTemperature",
         {},
         [](TransformerCellModel* c, int i) { return c->setTemperature(0.6 + 0.01 * i); }},
        {"replaceToken",
         {},
         [](TransformerCellModel* c, int i) {
             const QStringList vocab = c->vocabWords();
             const int index = (i * 7) % c->n();
             QString word = vocab[(i * 37 + 11) % vocab.size()];
             if (word == c->tokens()[index]) {
                 word = vocab[(i * 37 + 12) % vocab.size()];
             }
             return c->replaceToken(index, word);
         }},
        {"setNorm(false)",
         [](TransformerCellModel* c) { bringTo(c, !c->norm(), [c] { return c->setNorm(true); }); },
         [](TransformerCellModel* c, int) { return c->setNorm(false); }},
        {"setNorm(true)",
         [](TransformerCellModel* c) { bringTo(c, c->norm(), [c] { return c->setNorm(false); }); },
         [](TransformerCellModel* c, int) { return c->setNorm(true); }},
        {"setFfn(false ↔ true)",
         {},
         [](TransformerCellModel* c, int) { return c->setFfn(!c->ffn()); }},
        {"setLayersRun(1)",
         [](TransformerCellModel* c) {
             bringTo(c, c->layersRun() == 1, [c] { return c->setLayersRun(2); });
         },
         [](TransformerCellModel* c, int) { return c->setLayersRun(1); }},
        {"setLayersRun(2)",
         [](TransformerCellModel* c) {
             bringTo(c, c->layersRun() != 1, [c] { return c->setLayersRun(1); });
         },
         [](TransformerCellModel* c, int) { return c->setLayersRun(2); }},
        {"setGenerate(8 ↔ 4 greedy)",
         {},
         [](TransformerCellModel* c, int) {
             return c->setGenerate(c->generateSteps() == 8 ? 4 : 8, QStringLiteral("greedy"), 0);
         }},
    };
}

void resetTransformer(TransformerCellModel* cell) {
    bringTo(cell, cell->edited(), [cell] {
        cell->reset();
        return QString();
    });
}

// The sentence that quotes the cell, as the window shows it.
QString proseOf(const LessonSession& session) {
    for (int row = 0; row < session.cells()->count(); ++row) {
        const QString markdown = session.cells()->row(row).markdown.trimmed();
        if (const qsizetype at = markdown.indexOf(QLatin1String("The next word")); at >= 0) {
            return markdown.mid(at);
        }
    }
    return {};
}

// Where a recompute's time goes (TransformerEngine::compute, as the model runs it): the forward
// pass, the backward pass, the gradient check (backward with it less backward without), the
// generation; medians of `repetitions`, on this thread with the window's BLAS threads.
void transformerStages(const TransformerConfig& config, int repetitions) {
    TransformerEngine engine;
    std::vector<double> forward, backward, check, generate, compute;
    GradientCheckReport report;
    const auto ms = [](QElapsedTimer& timer) { return double(timer.nsecsElapsed()) / 1e6; };
    for (int i = 0; i < repetitions; ++i) {
        TransformerResult r;
        QElapsedTimer timer;
        timer.start();
        engine.forward(config, r);
        forward.push_back(ms(timer));
        timer.restart();
        engine.backward(config, r, GradientCheck::Skip);
        backward.push_back(ms(timer));
        timer.restart();
        engine.backward(config, r, GradientCheck::Run);
        // Two timings subtracted: when the check does not run, the difference is noise around
        // zero, and a negative time is never shown.
        check.push_back(std::max(0.0, ms(timer) - backward.back()));
        timer.restart();
        engine.generate(config, r);
        generate.push_back(ms(timer));
        report = r.gradcheck;
        timer.restart();
        const TransformerResult whole = engine.compute(config);
        compute.push_back(ms(timer));
    }
    std::printf("   where a recompute goes (medians of %d, one thread): forward %.1f ms, backward "
                "%.1f ms, gradient check %.1f ms (%s), generation %.1f ms; compute() %.1f ms\n",
                repetitions, stats(forward).median, stats(backward).median, stats(check).median,
                report.ran ? ("ran, " + std::to_string(report.checked) + " entries").c_str()
                           : report.skipped.c_str(),
                stats(generate).median, stats(compute).median);
}

// Writes the bench lesson (writeTransformerLesson) and the .npy files it reads into `folder`;
// the lesson's path.
QString writeTransformerBench(const QTemporaryDir& folder, const TransformerShape& s,
                              int generateSteps) {
    const QString lessonPath = folder.filePath(QStringLiteral("bench.md"));
    {
        std::ofstream((lessonPath).toStdString())
            << writeTransformerLesson(folder.path(), s, generateSteps);
    }
    return lessonPath;
}

// Opens the bench lesson in `session`, `openMs` the time it took: its cell `t`, or null with
// the lesson's problems printed.
TransformerCellModel* openTransformerBench(LessonSession& session, const QString& lessonPath,
                                           double& openMs) {
    QElapsedTimer opening;
    opening.start();
    session.open(lessonPath);
    openMs = double(opening.nsecsElapsed()) / 1e6;
    auto* cell = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("t")));
    if (!cell) {
        std::printf("the transformer bench lesson did not open:\n");
        for (int i = 0; i < session.problems()->rowCount(); ++i) {
            std::printf("  %s\n", qPrintable(session.problems()->problem(i).message));
        }
    }
    return cell;
}

// The first what-if after opening, alone: it also lets go of what the lesson computed.
void firstWhatIf(const LessonSession& session, TransformerCellModel* cell, BlockMeter& meter) {
    meter.start();
    QElapsedTimer timer;
    timer.start();
    editAndWait(cell, [cell] { return cell->setTemperature(0.9); });
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    meter.stop();
    std::printf("   first what-if after opening (setTemperature): updated in %.1f ms (compute "
                "%.1f ms), GUI busy %.2f ms (≤ 8 ms: %s), the timer %.2f ms late; the prose: "
                "\"%s\"\n",
                ms, cell->lastComputeMilliseconds(), meter.busy(),
                meter.busy() <= kBlockTargetMs ? "yes" : "no", meter.late(),
                qPrintable(proseOf(session)));
    resetTransformer(cell);
}

// One kind of what-if's times: when the new chances show (the forward step) and when everything
// has (generation, gradients and their check), the worker's compute, and the GUI thread.
struct EditRow {
    const char* name;
    Stats chances, complete, forward, rest;
    double busy = 0, late = 0;
    double call = 0, swap = 0, read = 0; // the GUI thread's CPU, worst of each part
};

// The time since the edit when the cell's new chances showed: at the first `recomputed` with
// its chances current (the forward step's), -1 before. Connected after the views, so heard
// after them.
class ChancesWatch {
  public:
    explicit ChancesWatch(TransformerCellModel* cell) {
        QObject::connect(cell, &TransformerCellModel::recomputed, &context_, [this, cell] {
            if (chancesAt_ < 0 && cell->chancesCurrent()) {
                chancesAt_ = double(sinceEdit_.nsecsElapsed()) / 1e6;
            }
        });
    }
    // Just before an edit.
    void start() {
        chancesAt_ = -1;
        sinceEdit_.start();
    }
    double chancesAt() const { return chancesAt_; }
    double sinceEditMs() const { return double(sinceEdit_.nsecsElapsed()) / 1e6; }

  private:
    QElapsedTimer sinceEdit_;
    double chancesAt_ = -1;
    const QObject context_; // last, so that it disconnects first
};

// `kind` `repetitions` times with the timer ticking, as in 2, into `row`; false when the cell
// refused it (editAndWait printed why).
bool timeWhatIf(TransformerCellModel* cell, const TransformerEdit& kind, int repetitions,
                BlockMeter& meter, const TransformerViews& views, ChancesWatch& watch,
                EditRow& row) {
    std::vector<double> chances, complete, forward, rest;
    for (int i = 0; i < repetitions; ++i) {
        if (kind.prepare) {
            kind.prepare(cell);
        }
        meter.start();
        double callStart = 0, callEnd = 0;
        watch.start();
        if (!editAndWait(cell, [&] {
                callStart = threadCpuMs();
                const QString refusal = kind.edit(cell, i);
                callEnd = threadCpuMs();
                return refusal;
            })) {
            return false;
        }
        complete.push_back(watch.sinceEditMs());
        chances.push_back(watch.chancesAt());
        meter.stop();
        forward.push_back(cell->lastComputeMilliseconds());
        rest.push_back(cell->lastCompletionMilliseconds());
        row.busy = std::max(row.busy, meter.busy());
        row.late = std::max(row.late, meter.late());
        row.call = std::max(row.call, callEnd - callStart);
        row.swap = std::max(row.swap, views.swapCpuMs());
        row.read = std::max(row.read, views.readCpuMs());
    }
    row.chances = stats(chances);
    row.complete = stats(complete);
    row.forward = stats(forward);
    row.rest = stats(rest);
    return true;
}

// The first table: each what-if's times to the new chances and to complete, against the target.
void printChancesTable(const std::vector<EditRow>& rows, int repetitions) {
    std::printf("   edit → the new chances shown (the forward step's `recomputed`: the result "
                "swapped in, the prose rewritten, the views read) and → complete (generation, "
                "gradients, their check), %d repetitions, the 1 ms timer ticking; forward and "
                "rest: the worker's compute\n",
                repetitions);
    std::printf("   %-28s %11s %11s %8s %11s %11s %11s %11s\n", "edit", "chances med",
                "chances max", "≤ 150 ms", "complete md", "complete mx", "forward med", "rest med");
    double worstChances = 0;
    for (const EditRow& row : rows) {
        worstChances = std::max(worstChances, row.chances.worst);
        std::printf("   %-28s %11.1f %11.1f %8s %11.1f %11.1f %11.1f %11.1f\n", row.name,
                    row.chances.median, row.chances.worst,
                    row.chances.worst <= kTransformerEditTargetMs    ? "yes"
                    : row.chances.median <= kTransformerEditTargetMs ? "median"
                                                                     : "no",
                    row.complete.median, row.complete.worst, row.forward.median, row.rest.median);
    }
    std::printf("   every what-if's chances shown ≤ %.0f ms: %s (worst %.1f ms)\n",
                kTransformerEditTargetMs, worstChances <= kTransformerEditTargetMs ? "yes" : "no",
                worstChances);
}

// The second table: the GUI thread through the same what-ifs, its longest block against the
// target.
void printGuiThreadTable(const std::vector<EditRow>& rows) {
    std::printf(
        "   GUI thread, the 1 ms timer ticking through the same repetitions: the longest it "
        "was busy and the timer late; its CPU time (worst) in the edit call, from the "
        "latest tick until the views hear `recomputed` (the result swapped in, the prose "
        "rewritten) and in the views' reads\n");
    std::printf("   %-28s %10s %10s %10s %10s %10s %8s\n", "edit", "busy ms", "late ms", "call ms",
                "swap ms", "views ms", "≤ 8 ms");
    double worstBusy = 0, worstLate = 0;
    for (const EditRow& row : rows) {
        worstBusy = std::max(worstBusy, row.busy);
        worstLate = std::max(worstLate, row.late);
        std::printf("   %-28s %10.2f %10.2f %10.2f %10.2f %10.2f %8s\n", row.name, row.busy,
                    row.late, row.call, row.swap, row.read,
                    row.busy <= kBlockTargetMs ? "yes" : "no");
    }
    std::printf("   longest GUI block over every what-if: %.2f ms busy, the timer %.2f ms late "
                "(target ≤ %.0f ms)\n",
                worstBusy, worstLate, kBlockTargetMs);
}

// The shipped lesson's cell `tiny`, whose forward step computes in the call (inline): each
// what-if's forward time (lastComputeMilliseconds), the call's wall and CPU time (with an inline
// forward step: the forward pass, the prose rewritten, the views read), the time until the new
// chances show (the call's, when inline) and until the gradients are checked (the worker's).
void benchTinyCell(const QString& path, const char* what, int repetitions) {
    LessonSession session;
    session.open(path);
    auto* cell = qobject_cast<TransformerCellModel*>(session.cell(QStringLiteral("tiny")));
    if (!cell) {
        std::printf("   %s: the cell `tiny` did not open\n", what);
        return;
    }
    const BlockMeter notTicking; // the views' reads only: no timer here
    TransformerViews views(cell, notTicking);
    std::printf("\n   %s: n = %d, d = %d, %d layers, controls [%s]\n", what, cell->n(), cell->d(),
                cell->layerCount(), qPrintable(cell->controls().join(QStringLiteral(", "))));
    transformerStages(session.lesson().cell("tiny")->transformer()->config, repetitions);
    std::printf("   %-28s %7s %9s %9s %9s %9s %9s %9s %9s %8s\n", "edit", "chances", "forward",
                "forward", "call", "call", "call CPU", "chances", "complete", "≤ 16 ms");
    std::printf("   %-28s %7s %9s %9s %9s %9s %9s %9s %9s\n", "", "where", "med ms", "max ms",
                "med ms", "max ms", "max ms", "max ms", "max ms");
    for (const TransformerEdit& kind : transformerEdits()) {
        std::vector<double> call, callCpu, chances, complete, forward;
        QString refusal;
        bool inlineAlways = true;
        for (int i = 0; i < repetitions && refusal.isEmpty(); ++i) {
            if (kind.prepare) {
                kind.prepare(cell);
            }
            QElapsedTimer timer;
            timer.start();
            const double cpu = threadCpuMs();
            refusal = kind.edit(cell, i);
            const double ms = double(timer.nsecsElapsed()) / 1e6;
            const double ownMs = threadCpuMs() - cpu;
            if (!refusal.isEmpty()) {
                break;
            }
            while (!cell->chancesCurrent()) {
                inlineAlways = false; // the forward step on the worker: wait for it
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
            }
            chances.push_back(double(timer.nsecsElapsed()) / 1e6);
            while (cell->updating()) {
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
            }
            complete.push_back(double(timer.nsecsElapsed()) / 1e6);
            call.push_back(ms);
            callCpu.push_back(ownMs);
            forward.push_back(cell->lastComputeMilliseconds());
        }
        if (!refusal.isEmpty()) {
            std::printf("   %-28s refused: %s\n", kind.name, qPrintable(refusal));
            continue;
        }
        const Stats f = stats(forward), w = stats(call), c = stats(chances);
        std::printf("   %-28s %7s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %8s\n", kind.name,
                    inlineAlways ? "inline" : "worker", f.median, f.worst, w.median, w.worst,
                    stats(callCpu).worst, c.worst, stats(complete).worst,
                    c.worst <= kFrameMs ? "yes" : (c.median <= kFrameMs ? "median" : "no"));
        resetTransformer(cell);
    }
}

// Copies the shipped transformer.md and the data it reads out of the resources, without the
// line that limits `tiny`'s controls, so that every what-if can be timed on the same cell.
QString tinyWithEveryControl(const QTemporaryDir& folder) {
    QFile lesson(QStringLiteral(":/documents/transformer.md"));
    if (!lesson.open(QIODevice::ReadOnly)) {
        return {};
    }
    QString text = QString::fromUtf8(lesson.readAll());
    const qsizetype cell = text.indexOf(QLatin1String("```transformer tiny\n"));
    const QLatin1String limit("controls: [norm, temperature]\n");
    const qsizetype line = text.indexOf(limit, cell);
    const qsizetype end = text.indexOf(QLatin1String("\n```"), cell);
    if (cell < 0 || line < 0 || line > end) {
        return {};
    }
    text.remove(line, limit.size());
    QDir(folder.path()).mkpath(QStringLiteral("data/tiny"));
    for (const char* data : {"data/tiny/model.safetensors", "data/tiny/vocab.txt"}) {
        QFile::copy(QStringLiteral(":/documents/") + QLatin1String(data),
                    folder.filePath(QLatin1String(data)));
    }
    const QString path = folder.filePath(QStringLiteral("transformer.md"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly)) {
        return {};
    }
    out.write(text.toUtf8());
    return path;
}

} // namespace

void benchTransformerCell(int repetitions) {
    const TransformerShape s{64, 768, 12, 3072, 2, 1000};
    const int generateSteps = 4;
    QTemporaryDir folder;
    const QString lessonPath = writeTransformerBench(folder, s, generateSteps);
    LessonSession session;
    double openMs = 0;
    TransformerCellModel* cell = openTransformerBench(session, lessonPath, openMs);
    if (!cell) {
        return;
    }
    BlockMeter meter;
    TransformerViews views(cell, meter);
    std::printf("\n4. Transformer cell, GPT-2-small-shaped: n = %d, d = %d, %d heads, d_ff = %d, "
                "%d layers, V = %d, gelu, causal, LayerNorms, tied unembedding, targets, "
                "generate %d greedy; its weights read from .npy files; quoted by prose\n",
                s.n, s.d, s.h, s.dFF, s.layers, s.V, generateSteps);
    std::printf("   opened in %.0f ms; the prose: \"%s\"\n", openMs, qPrintable(proseOf(session)));
    firstWhatIf(session, cell, meter);

    // Every edit with the timer ticking, as in 2: when the new chances show (the forward step)
    // and when everything has (generation, gradients and their check).
    ChancesWatch watch(cell);
    std::vector<EditRow> rows;
    for (const TransformerEdit& kind : transformerEdits()) {
        EditRow row{kind.name, {}, {}, {}, {}};
        if (!timeWhatIf(cell, kind, repetitions, meter, views, watch, row)) {
            return;
        }
        rows.push_back(row);
        resetTransformer(cell);
    }
    printChancesTable(rows, repetitions);
    printGuiThreadTable(rows);
    transformerStages(session.lesson().cell("t")->transformer()->config, 5);
}

void benchTiny(int repetitions) {
    std::printf(
        "\n5. The shipped lesson's cell `tiny` (documents/transformer.md), %d repetitions: "
        "where its forward step computes, its time, the call's wall and CPU time, and the time "
        "until the new chances show and until the gradients are checked; target: the new "
        "chances within a frame (%.0f ms)\n",
        repetitions, kFrameMs);
    benchTinyCell(QStringLiteral(":/documents/transformer.md"), "as shipped", repetitions);
    QTemporaryDir folder;
    const QString copy = tinyWithEveryControl(folder);
    if (copy.isEmpty()) {
        std::printf("   cannot copy transformer.md with every control\n");
        return;
    }
    benchTinyCell(copy, "the same lesson, `tiny` with every control", repetitions);
}

} // namespace attnbook::window_bench

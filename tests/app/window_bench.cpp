// attnbook-window-bench: how long the window takes from an edit to updated
// models, and to paint a heatmap, for a lesson-sized cell (n = 16) and a
// large one (n = 512). Built with the tests, never run by CTest:
//   attnbook-window-bench [repetitions]
#include "app/models/attention_cell_model.h"
#include "app/models/heatmap_item.h"
#include "app/models/lesson_session.h"
#include "app/models/matrix_table_model.h"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>
#include <sstream>
#include <vector>

using namespace attnbook;

namespace {

// A lesson with one attention cell of n tokens of width d, random vectors,
// every control, and (when `quoted`) prose that quotes one of its weights,
// so that the edit also rewrites the prose.
std::string lessonText(int n, int d, bool quoted) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    std::ostringstream out;
    out << "# Bench\n\n";
    if (quoted) {
        out << "The first token gives {{big.head[0].weights[0][1]:4}} to the second.\n\n";
    }
    out << "```attention big\ntokens: [";
    for (int i = 0; i < n; ++i) {
        out << (i ? ", " : "") << "t" << i;
    }
    out << "]\nX: [";
    for (int i = 0; i < n; ++i) {
        out << (i ? ", " : "") << "[";
        for (int k = 0; k < d; ++k) {
            out << (k ? ", " : "") << value(random);
        }
        out << "]";
    }
    out << "]\nheads: 1\nviews: [matrices, heatmap]\n"
           "controls: [tokens, vectors, heads, mask, positional, scale, projections]\n```\n";
    return out.str();
}

struct Stats {
    double median = 0, worst = 0;
};

Stats measure(int repetitions, const std::function<void(int)>& run) {
    std::vector<double> ms;
    for (int i = 0; i < repetitions; ++i) {
        QElapsedTimer timer;
        timer.start();
        run(i);
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.back()};
}

void report(const char* what, int n, const Stats& s) {
    std::printf("  %-52s n = %3d   median %8.3f ms   worst %8.3f ms\n", what, n, s.median, s.worst);
}

void benchCell(int n, int d, int repetitions) {
    for (const bool quoted : {false, true}) {
        LessonSession session;
        session.openText(QStringLiteral("bench.md"), lessonText(n, d, quoted));
        auto* cell = qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("big")));
        if (!cell) {
            std::printf("the bench lesson did not open\n");
            return;
        }
        // The models a window shows for this cell: its weights and output tables.
        MatrixTableModel weights, output, scores;
        weights.setCell(cell);
        weights.setMatrix(QStringLiteral("weights"));
        output.setCell(cell);
        output.setMatrix(QStringLiteral("output"));
        scores.setCell(cell);
        scores.setMatrix(QStringLiteral("scores"));
        const char* suffix = quoted ? " (quoted in prose)" : "";
        char label[128];

        std::snprintf(label, sizeof label, "edit one vector entry → models updated%s", suffix);
        report(label, n, measure(repetitions, [&](int i) {
                   cell->setMatrixEntry(QStringLiteral("X0"), i % n, i % d,
                                        QString::number(0.5 + 0.01 * i));
               }));
        std::snprintf(label, sizeof label, "switch the causal mask → models updated%s", suffix);
        report(label, n, measure(repetitions, [&](int i) {
                   cell->setMask(i % 2 ? QStringLiteral("none") : QStringLiteral("causal"));
               }));
        std::snprintf(label, sizeof label, "switch 1 ↔ 2 heads → models updated%s", suffix);
        report(label, n, measure(repetitions, [&](int i) { cell->setHeads(i % 2 ? 1 : 2); }));
        cell->setHeads(1);
        if (!quoted) {
            std::printf("      (of which the core's forward pass: %.3f ms)\n",
                        cell->lastComputeMilliseconds());
        }

        if (quoted) {
            continue;
        }
        // Painting: the first paint after an edit rebuilds the image of the
        // squares; a repaint (scrolling, hover) only draws it.
        for (const int width : {760, 1200}) {
            HeatmapItem heatmap;
            heatmap.setCell(cell);
            heatmap.setWidth(width);
            heatmap.setHeight(heatmap.implicitHeight());
            QImage target(width, int(heatmap.implicitHeight()) + 1,
                          QImage::Format_ARGB32_Premultiplied);
            std::snprintf(label, sizeof label, "edit, then the heatmap repainted, %d px wide",
                          width);
            report(label, n, measure(repetitions, [&](int i) {
                       cell->setMask(i % 2 ? QStringLiteral("none") : QStringLiteral("causal"));
                       target.fill(Qt::white);
                       QPainter painter(&target);
                       heatmap.paint(&painter);
                   }));
            // The figure that matters: the paint alone, as the item measures it.
            std::vector<double> paintOnly;
            for (int i = 0; i < repetitions; ++i) {
                cell->setMask(i % 2 ? QStringLiteral("none") : QStringLiteral("causal"));
                target.fill(Qt::white);
                QPainter painter(&target);
                heatmap.paint(&painter);
                paintOnly.push_back(heatmap.lastPaintMilliseconds());
            }
            std::sort(paintOnly.begin(), paintOnly.end());
            std::snprintf(label, sizeof label, "  of which the heatmap paint, %d px wide", width);
            report(label, n, {paintOnly[paintOnly.size() / 2], paintOnly.back()});
            std::snprintf(label, sizeof label, "heatmap paint without an edit, %d px wide", width);
            report(label, n, measure(repetitions, [&](int) {
                       QPainter painter(&target);
                       heatmap.paint(&painter);
                   }));
        }
    }
}

} // namespace

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QGuiApplication app(argc, argv);
    const int repetitions = argc > 1 ? std::max(3, std::atoi(argv[1])) : 41;
    std::printf("attnbook-window-bench: %d repetitions each; times per operation\n", repetitions);
    std::printf("cell of n tokens, d = 8 (n = 16) and d = 64 (n = 512)\n");
    benchCell(16, 8, repetitions);
    benchCell(512, 64, repetitions);
    return 0;
}

// attnbook-window-bench: how long the window takes from an edit to updated
// models, and to paint a heatmap, for a lesson-sized cell (n = 16) and a
// large one (n = 512), and for a GPT-2-shaped one read from files (n = 64,
// d = 768, 12 heads). Built with the tests, never run by CTest:
//   attnbook-window-bench [repetitions]
#include "app/models/attention_cell_model.h"
#include "app/models/heatmap_item.h"
#include "app/models/lesson_session.h"
#include "app/models/matrix_table_model.h"

#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>

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

// Writes `m` (rows × cols) as a float32 .npy file in C order, as numpy.save would.
void writeNpy(const std::string& path, const arma::mat& m) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                         std::to_string(m.n_rows) + ", " + std::to_string(m.n_cols) + "), }";
    header.append(63 - (10 + header.size()) % 64, ' ');
    header += '\n';
    std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
    bytes += char(header.size() & 0xff);
    bytes += char(header.size() >> 8);
    bytes += header;
    for (arma::uword r = 0; r < m.n_rows; ++r) {
        for (arma::uword c = 0; c < m.n_cols; ++c) {
            const float v = float(m(r, c));
            bytes.append(reinterpret_cast<const char*>(&v), 4);
        }
    }
    QFile file(QString::fromStdString(path));
    file.open(QIODevice::WriteOnly);
    file.write(bytes.data(), qint64(bytes.size()));
}

// GPT-2 small's shape (issue 14): 64 tokens, width 768, 12 heads, its
// projections cut from one packed 768 × 2304 c_attn array the way GPT-2
// stores them, everything read from .npy files next to the lesson.
void benchGpt2Shaped(int repetitions) {
    const int n = 64, d = 768;
    QTemporaryDir folder;
    const std::string dir = folder.path().toStdString();
    arma::arma_rng::set_seed(7);
    writeNpy(dir + "/x.npy", arma::randn(n, d));
    writeNpy(dir + "/c_attn.npy", arma::randn(d, 3 * d) * 0.02);
    writeNpy(dir + "/c_proj.npy", arma::randn(d, d) * 0.02);
    std::ostringstream text;
    text << "# GPT-2 shaped\n\n```attention big\ntokens: [";
    for (int i = 0; i < n; ++i) {
        text << (i ? ", " : "") << "t" << i;
    }
    text << "]\nX: {file: x.npy}\nheads: 12\nmask: causal\n"
            "W_Q: {file: c_attn.npy, cols: [0, 768], transpose: true}\n"
            "W_K: {file: c_attn.npy, cols: [768, 1536], transpose: true}\n"
            "W_V: {file: c_attn.npy, cols: [1536, 2304], transpose: true}\n"
            "W_O: {file: c_proj.npy, transpose: true}\n"
            "views: [matrices, heatmap]\n```\n";
    const QString path = folder.filePath(QStringLiteral("gpt2.md"));
    std::printf("GPT-2-shaped cell: n = %d, d = %d, 12 heads, weights from .npy files\n", n, d);
    LessonSession session;
    report("open: read the files, compute, build the models", n,
           measure(3, [&](int) { session.openText(path, text.str()); }));
    auto* cell = qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("big")));
    if (!cell) {
        std::printf("the GPT-2-shaped lesson did not open\n");
        return;
    }
    MatrixTableModel weights, output;
    weights.setCell(cell);
    weights.setMatrix(QStringLiteral("weights"));
    output.setCell(cell);
    output.setMatrix(QStringLiteral("output"));
    report("edit one entry of X → models updated", n, measure(repetitions, [&](int i) {
               cell->setMatrixEntry(QStringLiteral("X0"), i % n, i % d,
                                    QString::number(0.5 + 0.01 * i));
           }));
    std::printf("      (of which the core's forward pass: %.3f ms)\n",
                cell->lastComputeMilliseconds());
    report("edit one entry of the loaded W_Q → models updated", n, measure(repetitions, [&](int i) {
               cell->setMatrixEntry(QStringLiteral("W_Q"), i % d, i % d, QString::number(0.01 * i));
           }));
    report("switch the causal mask → models updated", n, measure(repetitions, [&](int i) {
               cell->setMask(i % 2 ? QStringLiteral("none") : QStringLiteral("causal"));
           }));
    report("switch 12 ↔ 6 heads → models updated", n,
           measure(repetitions, [&](int i) { cell->setHeads(i % 2 ? 6 : 12); }));
    HeatmapItem heatmap;
    heatmap.setCell(cell);
    heatmap.setWidth(1200);
    heatmap.setHeight(heatmap.implicitHeight());
    QImage target(1200, int(heatmap.implicitHeight()) + 1, QImage::Format_ARGB32_Premultiplied);
    report("edit, then the heatmap repainted, 1200 px wide", n, measure(repetitions, [&](int i) {
               cell->setMask(i % 2 ? QStringLiteral("none") : QStringLiteral("causal"));
               target.fill(Qt::white);
               QPainter painter(&target);
               heatmap.paint(&painter);
           }));
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
    benchGpt2Shaped(repetitions);
    return 0;
}

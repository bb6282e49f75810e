// The attention sections of attnbook-window-bench (window_bench_attention.h): the bench lesson
// of one random attention cell, the kinds of edit, and sections 1 to 3.
#include "bench/window_bench_attention.h"

#include "app/models/attention_cell_model.h"
#include "app/models/lesson_session.h"
#include "app/models/matrix_table_model.h"
#include "app/models/problem_list_model.h"
#include "bench/window_bench_timing.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace attnbook::window_bench {

namespace {

void writeMatrix(std::ostringstream& out, std::mt19937& random, int rows, int cols, double scale) {
    std::normal_distribution<double> value(0.0, scale);
    out << "[";
    for (int r = 0; r < rows; ++r) {
        out << (r ? ", " : "") << "[";
        for (int c = 0; c < cols; ++c) {
            out << (c ? ", " : "") << value(random);
        }
        out << "]";
    }
    out << "]";
}

// A lesson with one attention cell `big` of n tokens of width d, random vectors and
// projections, every control, and (when `quoted`) prose that quotes a weight and an output.
std::string lessonText(int n, int d, bool quoted) {
    std::mt19937 random(7);
    std::ostringstream out;
    out << "# Bench\n\n";
    if (quoted) {
        out << "The first token gives {{big.head[0].weights[0][0]:4}} to itself; the last "
               "token's output starts with {{big.output["
            << n - 1 << "][0]:3}}.\n\n";
    }
    out << "```attention big\ntokens: [";
    for (int i = 0; i < n; ++i) {
        out << (i ? ", " : "") << "t" << i;
    }
    out << "]\nX: ";
    writeMatrix(out, random, n, d, 1.0);
    for (const char* w : {"W_Q", "W_K", "W_V", "W_O"}) {
        out << "\n" << w << ": ";
        writeMatrix(out, random, d, d, 1.0 / std::sqrt(double(d)));
    }
    out << "\nheads: 1\nviews: [matrices, heatmap]\n```\n";
    return out.str();
}

struct EditKind {
    const char* name;
    std::function<QString(AttentionCellModel*, int)> edit;
    // Run untimed after each timed edit, to bring the cell back (add ↔ remove).
    std::function<QString(AttentionCellModel*, int)> undo;
};

QString number(int i) {
    return QString::number(0.25 + 0.01 * i);
}

std::vector<EditKind> editKinds(int n, int d) {
    return {
        {"entry of X (a token's vector)",
         [=](AttentionCellModel* c, int i) {
             return c->setMatrixEntry(QStringLiteral("X0"), (i * 37) % n, i % d, number(i));
         },
         {}},
        {"entry of W_Q",
         [=](AttentionCellModel* c, int i) {
             return c->setMatrixEntry(QStringLiteral("W_Q"), i % d, (i * 7) % d, number(i));
         },
         {}},
        {"entry of W_K",
         [=](AttentionCellModel* c, int i) {
             return c->setMatrixEntry(QStringLiteral("W_K"), i % d, (i * 5) % d, number(i));
         },
         {}},
        {"entry of W_V",
         [=](AttentionCellModel* c, int i) {
             return c->setMatrixEntry(QStringLiteral("W_V"), i % d, (i * 3) % d, number(i));
         },
         {}},
        {"entry of W_O",
         [=](AttentionCellModel* c, int i) {
             return c->setMatrixEntry(QStringLiteral("W_O"), i % d, (i * 11) % d, number(i));
         },
         {}},
        {"entry of b_Q",
         [=](AttentionCellModel* c, int i) {
             return c->setMatrixEntry(QStringLiteral("b_Q"), 0, i % d, number(i));
         },
         {}},
        {"add a token",
         [](AttentionCellModel* c, int) { return c->addToken(QStringLiteral("extra")); },
         [](AttentionCellModel* c, int) { return c->removeToken(c->n() - 1); }},
        {"remove a token",
         [=](AttentionCellModel* c, int i) { return c->removeToken((i * 13) % (n - 1)); },
         [](AttentionCellModel* c, int) { return c->addToken(QStringLiteral("back")); }},
        {"rename a token",
         [=](AttentionCellModel* c, int i) {
             return c->renameToken((i * 17) % n, QStringLiteral("w%1").arg(i));
         },
         {}},
        {"move a token",
         [=](AttentionCellModel* c, int i) { return c->moveToken((i * 19) % n, (i * 23) % n); },
         {}},
        {"heads 1 ↔ 2",
         [](AttentionCellModel* c, int i) { return c->setHeads(i % 2 ? 1 : 2); },
         {}},
        {"mask none ↔ causal",
         [](AttentionCellModel* c, int i) {
             return c->setMask(i % 2 ? QStringLiteral("none") : QStringLiteral("causal"));
         },
         {}},
        {"padding of a key on/off",
         [=](AttentionCellModel* c, int i) { return c->setPadding((i / 2 * 29) % n, i % 2 == 0); },
         {}},
        {"positional none ↔ sinusoidal",
         [](AttentionCellModel* c, int i) {
             return c->setPositional(i % 2 ? QStringLiteral("none") : QStringLiteral("sinusoidal"));
         },
         {}},
        {"scale √d_k ↔ divisor",
         [](AttentionCellModel* c, int i) {
             return i % 2 ? c->setScale(QStringLiteral("sqrt"))
                          : c->setScale(QStringLiteral("divisor"), QStringLiteral("3"));
         },
         {}},
        {"focus row", [=](AttentionCellModel* c, int i) { return c->setFocus((i * 31) % n); }, {}},
        {"reset to the lesson's cell",
         [](AttentionCellModel* c, int) {
             c->reset();
             return QString();
         },
         [](AttentionCellModel* c, int) { return c->setMask(QStringLiteral("causal")); }},
    };
}

// The tables a window shows for the cell, refreshed by every recompute.
struct ShownModels {
    MatrixTableModel weights, output;
    explicit ShownModels(AttentionCellModel* cell) {
        weights.setCell(cell);
        weights.setMatrix(QStringLiteral("weights"));
        output.setCell(cell);
        output.setMatrix(QStringLiteral("output"));
    }
};

AttentionCellModel* openCell(LessonSession& session, const std::string& text) {
    session.openText(QStringLiteral("bench.md"), text);
    auto* cell = qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("big")));
    if (!cell) {
        std::printf("the bench lesson did not open:\n");
        for (int i = 0; i < session.problems()->rowCount(); ++i) {
            std::printf("  %s\n", qPrintable(session.problems()->problem(i).message));
        }
    }
    return cell;
}

} // namespace

bool benchEdits(int n, int d, int repetitions) {
    LessonSession session;
    AttentionCellModel* cell = openCell(session, lessonText(n, d, true));
    if (!cell) {
        return false;
    }
    ShownModels shown(cell);
    std::printf("\n1. Edit → models updated (recomputed, prose rewritten), n = %d, d = %d, "
                "quoted by prose, %d repetitions; %s\n",
                n, d, repetitions, cell->computesInline() ? "inline" : "on the worker");
    std::printf("   %-34s %10s %10s %8s\n", "edit", "median ms", "worst ms", "≤ 16 ms");
    bool allMet = true;
    for (const EditKind& kind : editKinds(n, d)) {
        std::vector<double> ms;
        for (int i = 0; i < repetitions; ++i) {
            QElapsedTimer timer;
            timer.start();
            if (!editAndWait(cell, [&] { return kind.edit(cell, i); })) {
                return false;
            }
            ms.push_back(double(timer.nsecsElapsed()) / 1e6);
            if (kind.undo) {
                editAndWait(cell, [&] { return kind.undo(cell, i); });
            }
        }
        const Stats s = stats(ms);
        const bool met = s.worst <= kEditTargetMs;
        allMet = allMet && met;
        std::printf("   %-34s %10.2f %10.2f %8s\n", kind.name, s.median, s.worst,
                    met ? "yes" : (s.median <= kEditTargetMs ? "median" : "no"));
        cell->reset();
        editAndWait(cell, [] { return QString(); });
    }
    return allMet;
}

// The longest the GUI thread was blocked while a large cell recomputes after each kind of edit.
double benchBlocking(int n, int d, int repetitions) {
    LessonSession session;
    AttentionCellModel* cell = openCell(session, lessonText(n, d, false));
    if (!cell) {
        return -1;
    }
    ShownModels shown(cell);
    std::printf("\n2. GUI thread while a %d-token cell (d = %d) recomputes on the worker, a 1 ms "
                "timer ticking (%d repetitions)\n",
                n, d, repetitions);
    std::printf("   %-34s %12s %12s %12s %8s\n", "edit", "recompute ms", "GUI busy ms",
                "timer late ms", "≤ 8 ms");
    BlockMeter meter;
    // The machine's own noise: the timer alone, for as long as a recompute takes.
    meter.start();
    QElapsedTimer idle;
    idle.start();
    while (idle.elapsed() < 500) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    meter.stop();
    std::printf("   %-34s %12s %12.2f %12.2f %8s\n", "(no edit: the timer alone, 0.5 s)", "",
                meter.busy(), meter.late(), "");
    double worstBusy = 0, worstLate = 0;
    for (const EditKind& kind : editKinds(n, d)) {
        std::vector<double> ms;
        double kindBusy = 0, kindLate = 0;
        for (int i = 0; i < repetitions; ++i) {
            meter.start();
            QElapsedTimer timer;
            timer.start();
            if (!editAndWait(cell, [&] { return kind.edit(cell, i); })) {
                return -1;
            }
            ms.push_back(double(timer.nsecsElapsed()) / 1e6);
            meter.stop();
            kindBusy = std::max(kindBusy, meter.busy());
            kindLate = std::max(kindLate, meter.late());
            if (kind.undo) {
                editAndWait(cell, [&] { return kind.undo(cell, i); });
            }
        }
        worstBusy = std::max(worstBusy, kindBusy);
        worstLate = std::max(worstLate, kindLate);
        std::printf("   %-34s %12.1f %12.2f %12.2f %8s\n", kind.name, stats(ms).median, kindBusy,
                    kindLate, kindBusy <= kBlockTargetMs ? "yes" : "no");
        cell->reset();
        editAndWait(cell, [] { return QString(); });
    }
    std::printf("   longest GUI block over every edit: %.2f ms busy, the timer %.2f ms late "
                "(target ≤ %.0f ms)\n",
                worstBusy, worstLate, kBlockTargetMs);
    return worstBusy;
}

// GPT-2 small's shape: 64 tokens, width 768, 12 heads, causal.
void benchGpt2Shaped(int repetitions) {
    const int n = 64, d = 768;
    std::string text = lessonText(n, d, true);
    text.replace(text.find("heads: 1"), 8, "heads: 12\nmask: causal");
    LessonSession session;
    AttentionCellModel* cell = openCell(session, text);
    if (!cell) {
        return;
    }
    ShownModels shown(cell);
    std::printf("\n3. GPT-2-shaped cell: n = %d, d = %d, 12 heads, causal, quoted by prose; "
                "edit → models updated\n",
                n, d);
    std::printf("   %-34s %10s %10s %8s\n", "edit", "median ms", "worst ms", "≤ 16 ms");
    const std::vector<EditKind> kinds = editKinds(n, d);
    for (const char* name : {"entry of X (a token's vector)", "entry of W_Q", "entry of W_O",
                             "rename a token", "mask none ↔ causal", "heads 1 ↔ 2", "focus row"}) {
        const auto kind = std::find_if(kinds.begin(), kinds.end(), [&](const EditKind& k) {
            return std::string(k.name) == name;
        });
        std::vector<double> ms;
        for (int i = 0; i < repetitions; ++i) {
            QElapsedTimer timer;
            timer.start();
            const auto edit =
                std::string(name) == "heads 1 ↔ 2"
                    ? std::function<QString()>([&] { return cell->setHeads(i % 2 ? 12 : 6); })
                    : std::function<QString()>([&] { return kind->edit(cell, i); });
            if (!editAndWait(cell, edit)) {
                return;
            }
            ms.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
        const Stats s = stats(ms);
        std::printf("   %-34s %10.2f %10.2f %8s\n",
                    std::string(name) == "heads 1 ↔ 2" ? "heads 12 ↔ 6" : name, s.median, s.worst,
                    s.worst <= kEditTargetMs ? "yes" : "no");
        cell->reset();
        editAndWait(cell, [] { return QString(); });
    }
}

} // namespace attnbook::window_bench

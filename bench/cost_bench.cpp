// The cost model against the real costs (core/document/cell_cost.h, docs/command-line.md):
// for each kind of work a lesson can make the program do, the estimate the limits are charged
// and what the work really takes, measured in the same run.
//
//     kind                       estimate     real        ratio
//     chart: sums                1.6e+09 ma   0.52 s      1.25
//
// Work is estimated in multiply-adds, the unit of --max-work; estimated seconds are those
// multiply-adds at the rate of OpenBLAS dgemm measured beside the work (two FLOPs each).
// ratio = real / estimated: 1 is exact, above 1 the estimate is low. Memory is estimated in
// bytes and measured as the growth of the process's peak resident size. The limits hold when
// every ratio is within 4 (and 1/4) of 1.
//
// Usage: attnbook-cost-bench
#include "bench/gemm_yardstick.h"
#include "core/document/cell_cost.h"
#include "core/document/lesson.h"
#include "core/live/reader_what_ifs.h"
#include "core/live/what_if_sweep.h"
#include "exports/worksheet_pdf.h"

#include <QtGui/QGuiApplication>

#include <cstdio>
#include <string>

#include <sys/resource.h>

using namespace attnbook;
using attnbook::bench::GemmYardstick;
using attnbook::bench::median;
using attnbook::bench::secondsOf;

namespace {

// Multiply-adds per second of dgemm now: the median of a few runs of the yardstick.
double multiplyAddRate(GemmYardstick& gemm) {
    gemm.run();
    std::vector<double> rates;
    for (int i = 0; i < 7; ++i) {
        rates.push_back(GemmYardstick::flops() / 2 / secondsOf([&] { gemm.run(); }));
    }
    return median(rates);
}

void report(const char* kind, double multiplyAdds, double seconds, GemmYardstick& gemm) {
    const double estimated = multiplyAdds / multiplyAddRate(gemm);
    std::printf("%-34s %9.2g ma  %7.2f s est  %7.2f s real  ratio %.2f\n", kind, multiplyAdds,
                estimated, seconds, seconds / estimated);
    std::fflush(stdout);
}

Lesson lessonFrom(const std::string& text, const std::string& path) {
    Lesson lesson = parseLesson(text, path);
    if (hasErrors(lesson.diagnostics)) {
        std::fprintf(stderr, "bench lesson: %s\n", lesson.diagnostics.front().message.c_str());
        std::exit(1);
    }
    return lesson;
}

double lessonWork(const Lesson& lesson) {
    double work = 0;
    for (const LessonCell& cell : lesson.cells) {
        work += cellCost(cell).multiplyAdds;
    }
    return work;
}

void benchCompute(const char* kind, const std::string& text, GemmYardstick& gemm,
                  const std::string& path = "bench.md") {
    const Lesson lesson = lessonFrom(text, path);
    AttentionEngine engine;
    const double seconds = secondsOf([&] { computeLesson(lesson, engine); });
    report(kind, lessonWork(lesson), seconds, gemm);
}

std::string chart(const std::string& formula, int points) {
    return "# C\n\n```chart c\nx: {var: n, from: 1, to: 100, points: " + std::to_string(points) +
           "}\nseries:\n  - {label: a, y: \"" + formula + "\"}\n```\n";
}

std::string repeated(const std::string& term, int times) {
    std::string out;
    for (int i = 0; i < times; ++i) {
        out += (i ? "+" : "") + term;
    }
    return out;
}

std::string attentionCell(const std::string& id, int n, int d) {
    std::string tokens, vocab;
    for (int i = 0; i < n; ++i) {
        tokens += (i ? ", w" : "w") + std::to_string(i % 40);
    }
    for (int w = 0; w < 40; ++w) {
        vocab += "  w" + std::to_string(w) + ": [";
        for (int k = 0; k < d; ++k) {
            vocab += (k ? ", " : "") + std::to_string((w * 7 + k * 3) % 5 - 2);
        }
        vocab += "]\n";
    }
    return "```attention " + id + "\ntokens: [" + tokens + "]\nvocab:\n" + vocab +
           "heads: 1\nmask: none\npositional: none\n```\n\n" + "It gives {{" + id +
           ".head[0].weights[0][1]:4}} to the second, more than half.\n\n";
}

void benchSweep(const char* kind, const std::string& text, GemmYardstick& gemm,
                const std::string& path = "bench.md") {
    const Lesson lesson = lessonFrom(text, path);
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    double work = 0;
    for (const LessonCell& cell : lesson.cells) {
        work += sweepWork(cell, readerWhatIfs(cell).size() + readerViewWhatIfs(cell).size(),
                          text.size());
    }
    const double seconds = secondsOf([&] { sweepReaderWhatIfs(lesson, results, engine); });
    report(kind, work, seconds, gemm);
}

long peakResidentBytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss * 1024L;
}

// First in the run, while the peak is still the program's own.
void benchSheetsMemory(const char* kind, const std::string& path, int variants) {
    const Lesson lesson = loadLesson(path);
    WorksheetOptions options;
    options.variants = variants;
    options.answers = true;
    WorksheetFiles files;
    const long before = peakResidentBytes();
    const ExportResult r = renderWorksheets(lesson, options, &files);
    const double grown = double(peakResidentBytes() - before);
    const double estimated = laidOutSheetsBytes(lesson, variants, variants);
    std::printf("%-34s %9.3g B est  %9.3g B real  ratio %.2f%s\n", kind, estimated, grown,
                grown / estimated, r.ok() ? "" : "  (refused)");
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv); // the sheets are laid out with Qt's fonts
    const std::string documents = ATTNBOOK_SOURCE_DIR "/documents/";
    benchSheetsMemory("sheets: transformer.md, 100 + keys", documents + "transformer.md", 100);
    benchSheetsMemory("sheets: attention.md, 80 + keys", documents + "attention.md", 80);

    GemmYardstick gemm;
    benchCompute("compute: attention n=512 d=64", attentionCell("a", 512, 64), gemm);
    const std::string transformer = documents + "transformer.md";
    benchCompute("compute: transformer.md", loadLesson(transformer).document.serialize(), gemm,
                 transformer);
    benchCompute("chart: 2000 sums, 1e5 points", chart(repeated("n", 2000), 100000), gemm);
    benchCompute("chart: 1000 products, 1e5 points", chart(repeated("n*3", 1000), 100000), gemm);
    benchCompute("chart: 500 sin calls, 1e5 points", chart(repeated("sin(n)", 500), 100000), gemm);
    benchCompute("chart: 500 powers, 1e5 points", chart(repeated("n^n", 500), 100000), gemm);
    std::string small;
    for (int c = 0; c < 200; ++c) {
        small += attentionCell("c" + std::to_string(c), 3, 2);
    }
    benchSweep("sweep: 200 cells of 3 tokens", "# S\n\n" + small, gemm);
    benchSweep("sweep: one cell of 60 tokens", "# S\n\n" + attentionCell("big", 60, 4), gemm);
    benchSweep("sweep: one cell of 120 tokens", "# S\n\n" + attentionCell("big", 120, 4), gemm);
    benchSweep("sweep: transformer.md", loadLesson(transformer).document.serialize(), gemm,
               transformer);
    return 0;
}

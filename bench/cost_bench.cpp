// The cost model against the real costs (core/document/cell_cost.h, docs/command-line.md):
// for each kind of work a lesson can make the program do, the estimate the limits are charged
// and what the work really takes, measured in the same run.
//
//     kind                       estimate     real        ratio
//     chart: sums                1.6e+09 ma   0.52 s      1.25
//
// Work is estimated in multiply-adds, the unit of --max-work: the attention engine's. Estimated
// seconds are those multiply-adds at the engine's rate, taken as a fixed share of the rate of
// OpenBLAS dgemm measured beside the work (kEngineShareOfGemm).
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
#include "exports/worksheet/worksheet_pdf.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace attnbook;
using attnbook::bench::GemmYardstick;
using attnbook::bench::median;
using attnbook::bench::secondsOf;

namespace {

// The engine does a multiply-add of a lesson's shapes at about 1/32 of dgemm's rate on large
// ones (measured here: attention n = 512, d = 64 at 1/37; transformer.md at 1/28): the cost
// model counts the engine's multiply-adds, and every other kind is charged in those.
constexpr double kEngineShareOfGemm = 1.0 / 32;

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
    const double estimated = multiplyAdds / (kEngineShareOfGemm * multiplyAddRate(gemm));
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
    const std::vector<const CellBlock*> blocks = lesson.document.cells();
    for (size_t i = 0; i < lesson.cells.size(); ++i) {
        const LessonCell& cell = lesson.cells[i];
        work += sweepWork(cell, readerWhatIfs(cell).size() + readerViewWhatIfs(cell).size(),
                          blocks[i]->body.size(), text.size());
    }
    // The limit raised so that the sweep runs whole: the bench times what the limit would refuse.
    const CostLimits before = costLimits();
    CostLimits unlimited = before;
    unlimited.maxMultiplyAdds = 1e15;
    setCostLimits(unlimited);
    const double seconds = secondsOf([&] { sweepReaderWhatIfs(lesson, results, engine); });
    setCostLimits(before);
    report(kind, work, seconds, gemm);
}

// The peak resident size of `attnbook ARGUMENTS`, run to its end.
double peakOfRun(const std::vector<std::string>& arguments) {
    const pid_t child = fork();
    if (child == 0) {
        std::vector<char*> argv{const_cast<char*>(ATTNBOOK_BINARY)};
        for (const std::string& a : arguments) {
            argv.push_back(const_cast<char*>(a.c_str()));
        }
        argv.push_back(nullptr);
        const int quiet = open("/dev/null", O_WRONLY);
        dup2(quiet, 1);
        dup2(quiet, 2);
        execv(ATTNBOOK_BINARY, argv.data());
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(child, &status, 0, &usage);
    return double(usage.ru_maxrss) * 1024;
}

// The laid-out sheets' memory: the peak of the export of `variants` sheets and keys, less the
// peak of one sheet and key, against laidOutSheetsBytes for the difference.
void benchSheetsMemory(const char* kind, const std::string& path, int variants) {
    const std::string folder = std::filesystem::temp_directory_path().string();
    const auto peak = [&](int n) {
        return peakOfRun({"export", path, "--worksheet", folder + "/attnbook-cost-bench-ws.pdf",
                          "--answers", folder + "/attnbook-cost-bench-key.pdf", "--variants",
                          std::to_string(n), "--max-memory", "8G"});
    };
    const double grown = peak(variants) - peak(1);
    std::filesystem::remove(folder + "/attnbook-cost-bench-ws.pdf");
    std::filesystem::remove(folder + "/attnbook-cost-bench-key.pdf");
    const Lesson lesson = loadLesson(path);
    const double estimated = laidOutSheetsBytes(lesson, variants - 1, variants - 1);
    std::printf("%-34s %9.3g B est  %9.3g B real  ratio %.2f\n", kind, estimated, grown,
                grown / estimated);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    (void)argc;
    (void)argv;
    const std::string documents = ATTNBOOK_SOURCE_DIR "/documents/";
    benchSheetsMemory("sheets: transformer.md, 100 + keys", documents + "transformer.md", 100);
    benchSheetsMemory("sheets: attention.md, 80 + keys", documents + "attention.md", 80);

    GemmYardstick gemm;
    benchCompute("compute: attention n=512 d=64", attentionCell("a", 512, 64), gemm);
    benchCompute("compute: attention n=60 d=4", attentionCell("a", 60, 4), gemm);
    const std::string transformer = documents + "transformer.md";
    benchCompute("compute: transformer.md", loadLesson(transformer).document.serialize(), gemm,
                 transformer);
    benchCompute("chart: 2000 sums, 1e5 points", chart(repeated("n", 2000), 100000), gemm);
    benchCompute("chart: 9000 sums, 1e5 points", chart(repeated("n", 9000), 100000), gemm);
    benchCompute("chart: 4000 sums of n/n, 2e4 points", chart(repeated("n/n", 4000), 20000), gemm);
    benchCompute("chart: 1000 products, 1e5 points", chart(repeated("n*3", 1000), 100000), gemm);
    benchCompute("chart: 500 sin calls, 1e5 points", chart(repeated("sin(n)", 500), 100000), gemm);
    benchCompute("chart: 500 powers, 1e5 points", chart(repeated("n^n", 500), 100000), gemm);
    const std::string training = documents + "training.md";
    std::string longer = loadLesson(training).document.serialize();
    longer.replace(longer.find("steps: 150"), 10, "steps: 3000");
    benchCompute("compute: training.md, 3000 steps", longer, gemm, training);
    std::string small;
    for (int c = 0; c < 200; ++c) {
        small += attentionCell("c" + std::to_string(c), 3, 2);
    }
    benchSweep("sweep: 200 cells of 3 tokens", "# S\n\n" + small, gemm);
    benchSweep("sweep: one cell of 60 tokens", "# S\n\n" + attentionCell("big", 60, 4), gemm);
    std::string words = "# W\n\n```attention w\ntokens: [w1, w2, w3]\nvocab:\n";
    for (int i = 0; i < 10000; ++i) {
        words += "  w" + std::to_string(i) + ": [" + std::to_string(i % 3) + ", 1]\n";
    }
    benchSweep("sweep: a vocab of 10,000 words",
               words + "```\n\nIt gives {{w.head[0].weights[0][1]:4}}, more than half.\n", gemm);
    benchSweep("sweep: one cell of 120 tokens", "# S\n\n" + attentionCell("big", 120, 4), gemm);
    benchSweep("sweep: transformer.md", loadLesson(transformer).document.serialize(), gemm,
               transformer);
    return 0;
}

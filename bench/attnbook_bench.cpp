// attnbook-bench: how fast is one forward + backward pass of the attention
// core, against what BLAS itself reaches on a plain matrix product?
//
// For each size (n tokens, width d, h heads) and mask it prints
//
//     n=1024 d=512 h=8 mask=causal seconds=0.123 gemm_ratio=1.31
//
// seconds:    the median time of forward + backward (no gradient check), one
//             engine and one result reused so the workspace is allocated once.
// gemm_ratio: seconds / (FLOPs / gemm_rate). FLOPs counts the dense matrix
//             products of forward + backward (below); gemm_rate is what dgemm
//             reaches on a 1024×512 by 512×512 product, timed in turn with
//             the configuration in the same run (medians of each). 1.0
//             would be "as fast as its products at BLAS speed"; causal uses
//             the dense count too, so skipping the blocked half shows as < 1.
//
// Then two transformer figures (transformer.md), their weights written once as .npy files to a
// temporary folder and read back through the document layer (parseLesson, {file: PATH}), each
// printed on one line:
//
//     transformer n=64 d=768 h=12 d_ff=3072 layers=2 V=1000 mask=causal seconds=0.123
//         gemm_ratio=2.10
//     generate n=512 d=64 h=4 d_ff=256 layers=2 V=1000 step=2 seconds=0.000123
//         full_seconds=0.0123 cached_ratio=0.0100
//
// transformer: a GPT-2-small-shaped cell (gelu, LayerNorms, tied unembedding, a target on
//             every row): forward + backward (no gradient check), gemm_ratio as above with
//             FLOPs = 3 × the forward pass's dense products (every product of the forward
//             pass has two in the backward pass: the gradient of each operand).
// generate:   seconds is step 2 of a cached generation alone after a 512-token prompt
//             (TransformerEngine::generate with steps = 2 minus steps = 1, paired runs);
//             full_seconds the forward pass over the 513 tokens it stands for;
//             cached_ratio = seconds / full_seconds.
// knockouts:  the GPT-shaped cell's L·h + 3L knock-out passes (docs/transformer.md), against
//             as many forward passes' products at the yardstick's rate.
// train_step: one Adam step over 8 sentences of 64 tokens of the small cell (docs/training.md):
//             a run of steps = 1 minus steps = 0, against 3 × their forward products.
// train_watched: 10 of those steps with every step's weights kept for the window's slider,
//             against the same run keeping none (plain_ratio; docs/training.md "In the window").
//
// Usage: attnbook-bench [--quick] [--transformer]
//   --quick: only the two smallest attention sizes; --transformer: only the transformer figures
#include "bench/gemm_yardstick.h"
#include "bench/transformer_bench_cell.h"
#include "core/document/lesson.h"
#include "core/math/attention_engine.h"
#include "core/math/training_watch.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_knockouts.h"
#include "core/math/transformer_training.h"

#include <armadillo>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

using namespace attnbook;
using attnbook::bench::CellFiles;
using attnbook::bench::GemmYardstick;
using attnbook::bench::median;
using attnbook::bench::secondsOf;
using attnbook::bench::timeAgainstGemm;
using attnbook::bench::Timing;
using attnbook::bench::TransformerShape;
using attnbook::bench::writeTransformerCell;

namespace {

struct BenchSize {
    int n; // tokens
    int d; // model width
    int h; // heads
};

// The dense matrix-product FLOPs of one forward + backward, counted from
// attention_engine.cpp with every weight a matrix, d_k = d_v = d / h and
// d_o = d. A product (a × b) · (b × c) costs 2·a·b·c.
double denseFlops(const BenchSize& s) {
    const double n = s.n, d = s.d, h = s.h, dK = d / h, dV = d / h;
    const double projection = 2 * n * d * d;     // (n × d) · (d × d)
    const double forward = 3 * projection        // Q, K, V
                           + h * 2 * n * n * dK  // S_i = Q_i K_iᵀ
                           + h * 2 * n * n * dV  // H_i = A_i V_i
                           + projection;         // Y = C W_Oᵀ
    const double backward = projection           // G_C = G_Y W_O
                            + projection         // ∂W_O = G_Yᵀ C
                            + h * 2 * n * n * dV // G_A = G_H V_iᵀ
                            + h * 2 * n * n * dV // G_V = Aᵀ G_H
                            + h * 2 * n * n * dK // G_Q = G_S K_i
                            + h * 2 * n * n * dK // G_K = G_Sᵀ Q_i
                            + 3 * projection     // ∂W_Q, ∂W_K, ∂W_V = Gᵀ X
                            + 3 * projection;    // ∂X = Σ G W
    return forward + backward;
}

// Random tokens and random (not identity) projections, scaled by 1/√d so
// the scores stay of order 1; a random upstream gradient.
AttentionConfig randomCell(const BenchSize& s, MaskKind mask) {
    const arma::uword n = arma::uword(s.n), d = arma::uword(s.d);
    const double weightScale = 1.0 / std::sqrt(double(s.d));
    const auto weights = [&] {
        return Projection{false, arma::mat(d, d, arma::fill::randn) * weightScale};
    };
    AttentionConfig c;
    c.X0 = arma::mat(n, d, arma::fill::randn); // (n × d)
    c.heads = s.h;
    c.mask = mask;
    c.wQ = weights(); // (d × d) each
    c.wK = weights();
    c.wV = weights();
    c.wO = weights();
    c.bQ = arma::rowvec(d, arma::fill::randn);
    c.bK = arma::rowvec(d, arma::fill::randn);
    c.bV = arma::rowvec(d, arma::fill::randn);
    c.bO = arma::rowvec(d, arma::fill::randn);
    c.upstream = arma::mat(n, d, arma::fill::randn); // G_Y (n × d_o)
    return c;
}

// Fixed decimals with at least three significant digits: 0.123, 0.0000213.
void printSeconds(double seconds) {
    const int decimals = seconds > 0 ? std::max(3, 2 - int(std::floor(std::log10(seconds)))) : 3;
    std::printf("seconds=%.*f", decimals, seconds);
}

void benchOne(const BenchSize& s, MaskKind mask, GemmYardstick& gemm) {
    const AttentionConfig config = randomCell(s, mask);
    AttentionEngine engine;
    AttentionResult result;
    const Timing t =
        timeAgainstGemm([&] { engine.compute(config, result, GradientCheck::Skip); }, gemm);
    std::printf("n=%d d=%d h=%d mask=%s ", s.n, s.d, s.h,
                mask == MaskKind::Causal ? "causal" : "none");
    printSeconds(t.seconds);
    std::printf(" gemm_ratio=%.2f\n", t.seconds / (denseFlops(s) / t.gemmRate));
    std::fflush(stdout);
    std::fprintf(stderr, "  (dgemm 1024x512 by 512x512 alongside: %.2f GFLOP/s)\n",
                 t.gemmRate / 1e9);
}

// ---- The transformer cell (transformer.md) ----

// A folder of its own under the system's temporary folder, removed with everything in it.
class TempFolder {
  public:
    TempFolder() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "attnbook-bench-XXXXXX").string();
        if (!mkdtemp(pattern.data())) {
            throw std::runtime_error("cannot make a temporary folder");
        }
        path_ = pattern;
    }
    ~TempFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

// The configurations of `cells` after parseLesson read the lesson and its .npy files; exits
// with the lesson's errors if it has any.
std::vector<TransformerConfig> readCells(const std::string& folder, const std::string& text,
                                         const std::vector<std::string>& cells) {
    const Lesson lesson = parseLesson(text, folder + "/bench.md");
    bool failed = false;
    for (const Diagnostic& problem : lesson.diagnostics) {
        if (problem.severity == Severity::Error) {
            std::fprintf(stderr, "%s\n", formatDiagnostic("bench.md", problem).c_str());
            failed = true;
        }
    }
    std::vector<TransformerConfig> configs;
    for (const std::string& id : cells) {
        const LessonCell* cell = lesson.cell(id);
        if (failed || !cell || !cell->transformer()) {
            std::fprintf(stderr, "the benchmark lesson's cell '%s' did not read\n", id.c_str());
            std::exit(1);
        }
        configs.push_back(cell->transformer()->config);
    }
    return configs;
}

// The dense multiply-adds × 2 of one forward pass, counted from transformer_engine.cpp with
// every weight a matrix and d_k = d_v = d / h: per layer Q, K, V and the output projection,
// the heads' scores and contexts (dense: causal skips nothing in this count), the FFN's two
// products; then the logits. LayerNorm, gelu and softmax are not products and not counted.
double transformerForwardFlops(const TransformerShape& s) {
    const double n = s.n, d = s.d, dFF = s.dFF, V = s.V;
    const double layer = 4 * 2 * n * d * d      // Q, K, V, Y: (n × d)(d × d)
                         + 2 * n * n * d        // S_i = Q_i K_iᵀ over the h heads
                         + 2 * n * n * d        // H_i = A_i V_i
                         + 2 * 2 * n * d * dFF; // G W₁ᵀ, act W₂ᵀ
    return s.layers * layer + 2 * n * d * V;    // logits = Z Uᵀ
}

// The same products at the same shapes, one dgemm each (forward C = A B, and the backward
// pass's ∂A = G Bᵀ, ∂B = Aᵀ G): what the cell's products cost at BLAS speed for these skinny
// shapes, as opposed to the square yardstick's.
class ShapedGemms {
  public:
    explicit ShapedGemms(const TransformerShape& s) {
        const arma::uword n = arma::uword(s.n), d = arma::uword(s.d), dFF = arma::uword(s.dFF),
                          V = arma::uword(s.V), dK = d / arma::uword(s.h);
        for (int l = 0; l < s.layers; ++l) {
            for (int i = 0; i < 4; ++i) {
                add(n, d, d);
            }
            for (int i = 0; i < s.h; ++i) {
                add(n, dK, n); // scores
                add(n, n, dK); // contexts
            }
            add(n, d, dFF);
            add(n, dFF, d);
        }
        add(n, d, V);
    }
    void run() {
        for (Product& p : products_) {
            p.c = p.a * p.b;
            p.gradA = p.c * p.b.t();
            p.gradB = p.a.t() * p.c;
        }
    }

  private:
    struct Product {
        arma::mat a, b, c, gradA, gradB;
    };
    void add(arma::uword rows, arma::uword inner, arma::uword cols) {
        products_.push_back({arma::mat(rows, inner, arma::fill::randn),
                             arma::mat(inner, cols, arma::fill::randn),
                             {},
                             {},
                             {}});
    }
    std::vector<Product> products_;
};

void benchTransformer(const TransformerConfig& config, const TransformerShape& s,
                      GemmYardstick& gemm, int files, double readSeconds) {
    TransformerEngine engine;
    TransformerResult result; // reused: its matrices keep their memory between passes
    const Timing t = timeAgainstGemm(
        [&] {
            engine.forward(config, result);
            engine.backward(config, result, GradientCheck::Skip);
        },
        gemm);
    const double flops = 3 * transformerForwardFlops(s);
    const double ratio = t.seconds / (flops / t.gemmRate);
    // The same products at their own shapes, also in turns with the yardstick: how much of the
    // ratio is the shapes' (n = 64 rows, weight gradients with an inner width of 64) and how
    // much is the engine's own.
    ShapedGemms shaped(s);
    const Timing products = timeAgainstGemm([&] { shaped.run(); }, gemm);
    const double productsRatio = products.seconds / (flops / products.gemmRate);
    std::printf("transformer n=%d d=%d h=%d d_ff=%d layers=%d V=%d mask=causal ", s.n, s.d, s.h,
                s.dFF, s.layers, s.V);
    printSeconds(t.seconds);
    std::printf(" gemm_ratio=%.2f\n", ratio);
    std::fflush(stdout);
    std::fprintf(stderr,
                 "  (dgemm 1024x512 by 512x512 alongside: %.2f GFLOP/s; %.3g GFLOP counted; "
                 "loss %.4f; the same products alone at their own shapes: gemm_ratio %.2f, so "
                 "the engine takes %.2fx its products' time; %d .npy files read through "
                 "parseLesson in %.2f s)\n",
                 t.gemmRate / 1e9, flops / 1e9, result.loss.value_or(0.0), productsRatio,
                 ratio / productsRatio, files, readSeconds);
}

// Step 2 of a cached generation after an n-token prompt, against the forward pass over the
// n + 1 tokens it stands for.
void benchGeneration(TransformerConfig config, const TransformerShape& s) {
    TransformerEngine engine;
    TransformerResult prompt;
    engine.forward(config, prompt);
    const auto generate = [&](int steps) {
        config.generate->steps = steps;
        return secondsOf([&] { engine.generate(config, prompt); });
    };
    generate(2);
    if (!prompt.generation.ran || prompt.generation.steps.size() != 2) {
        std::fprintf(stderr, "generation did not run: %s\n", prompt.generation.refused.c_str());
        std::exit(1);
    }
    const GenerationStep stepTwo = prompt.generation.steps[1];

    // The prompt and the word step 1 appended, computed in full.
    TransformerConfig full = config;
    full.generate.reset();
    full.targets.clear();
    const int word = prompt.generation.steps[0].word;
    full.tokens.push_back(prompt.generation.steps[0].label);
    full.X0 = arma::join_cols(config.X0, config.vocab.row(arma::uword(word)));
    TransformerResult recomputed;
    engine.forward(full, recomputed);
    const double mismatch = arma::abs(recomputed.probs.row(arma::uword(s.n)) - stepTwo.probs).max();

    // Paired turns: steps = 1 and steps = 2 back to back (in alternating order), their
    // difference step 2's cost; the full forward pass in between.
    std::vector<double> stepTimes, oneStep, twoSteps, fullTimes;
    double spent = 0.0;
    for (int turn = 0; turn < 10 || (turn < 200 && spent < 3.0); ++turn) {
        for (int i = 0; i < 20; ++i) {
            const bool twoFirst = i % 2 == 1;
            const double first = generate(twoFirst ? 2 : 1);
            const double second = generate(twoFirst ? 1 : 2);
            const double one = twoFirst ? second : first, two = twoFirst ? first : second;
            oneStep.push_back(one);
            twoSteps.push_back(two);
            stepTimes.push_back(two - one);
            spent += one + two;
        }
        fullTimes.push_back(secondsOf([&] { engine.forward(full, recomputed); }));
        spent += fullTimes.back();
    }
    const double step = median(stepTimes), fullSeconds = median(fullTimes);
    std::printf("generate n=%d d=%d h=%d d_ff=%d layers=%d V=%d step=2 ", s.n, s.d, s.h, s.dFF,
                s.layers, s.V);
    printSeconds(step);
    std::printf(" full_");
    printSeconds(fullSeconds);
    std::printf(" cached_ratio=%.4f\n", step / fullSeconds);
    std::fflush(stdout);
    std::fprintf(stderr,
                 "  (generate() with steps=1: %.6f s, steps=2: %.6f s; step 2's chances match "
                 "the %d-token recompute to %.1e)\n",
                 median(oneStep), median(twoSteps), s.n + 1, mismatch);
}

// Knock-outs (docs/transformer.md): L·h + 3L forward passes, each without one part, against
// the same passes' dense products at BLAS speed.
void benchKnockouts(TransformerConfig config, const TransformerShape& s, GemmYardstick& gemm) {
    TransformerEngine engine;
    config.knockouts = true;
    const int passes = knockoutPasses(config);
    TransformerResult result;
    const Timing t =
        timeAgainstGemm([&] { result.knockouts = computeKnockouts(engine, config); }, gemm);
    const double flops = passes * transformerForwardFlops(s);
    std::printf("knockouts n=%d d=%d h=%d d_ff=%d layers=%d V=%d passes=%d ", s.n, s.d, s.h, s.dFF,
                s.layers, s.V, passes);
    printSeconds(t.seconds);
    std::printf(" gemm_ratio=%.2f\n", t.seconds / (flops / t.gemmRate));
    std::fflush(stdout);
}

// Training (docs/training.md): one step on `sentences` sentences of s.n tokens (each a forward
// and a backward pass, then the optimiser), against 3 × their forward products at BLAS speed.
void benchTraining(const TransformerConfig& config, const TransformerShape& s, int sentences,
                   GemmYardstick& gemm) {
    TrainingSpec spec;
    spec.steps = 1;
    spec.optimizer = TrainingSpec::Optimizer::Adam;
    for (int i = 0; i < sentences; ++i) {
        std::vector<int> rows(size_t(s.n));
        for (int r = 0; r < s.n; ++r) {
            rows[size_t(r)] = (r * 7 + i * 13) % int(config.vocab.n_rows);
        }
        spec.data.push_back(rows);
    }
    // steps = 1 costs a step and the loss after it; steps = 0 the loss alone: their difference
    // is one step.
    TrainingSpec none = spec;
    none.steps = 0;
    const Timing one = timeAgainstGemm([&] { trainTransformer(config, spec); }, gemm);
    const Timing zero = timeAgainstGemm([&] { trainTransformer(config, none); }, gemm);
    const double step = one.seconds - zero.seconds;
    const double flops = 3.0 * sentences * transformerForwardFlops(s);
    std::printf("train_step n=%d d=%d h=%d d_ff=%d layers=%d V=%d sentences=%d ", s.n, s.d, s.h,
                s.dFF, s.layers, s.V, sentences);
    printSeconds(step);
    std::printf(" gemm_ratio=%.2f\n", step / (flops / one.gemmRate));
    std::fflush(stdout);
}

// The window's watched training (core/math/training_watch.h): the same 10 steps with every
// step's weights kept for the Show step slider, against the run that keeps none.
void benchWatchedTraining(const TransformerConfig& config, const TransformerShape& s, int sentences,
                          GemmYardstick& gemm) {
    TrainingSpec spec;
    spec.steps = 10;
    for (int i = 0; i < sentences; ++i) {
        std::vector<int> rows(size_t(s.n));
        for (int r = 0; r < s.n; ++r) {
            rows[size_t(r)] = (r * 7 + i * 13) % int(config.vocab.n_rows);
        }
        spec.data.push_back(rows);
    }
    size_t kept = 0;
    const Timing watched = timeAgainstGemm(
        [&] {
            TrainingWatch watch;
            trainTransformer(config, spec, {}, watch);
            kept = watch.bytesKept;
        },
        gemm);
    const Timing plain = timeAgainstGemm([&] { trainTransformer(config, spec); }, gemm);
    std::printf("train_watched steps=10 sentences=%d kept=%.1fMB ", sentences, double(kept) / 1e6);
    printSeconds(watched.seconds);
    std::printf(" plain_ratio=%.3f\n", watched.seconds / plain.seconds);
    std::fflush(stdout);
}

void benchTransformers(GemmYardstick& gemm) {
    const TransformerShape gpt{64, 768, 12, 3072, 2, 1000};
    const TransformerShape small{512, 64, 4, 256, 2, 1000};
    const TempFolder folder;
    const CellFiles gptCell =
        writeTransformerCell(folder.path(), "gpt", gpt, /*learnedPositions=*/true,
                             /*targets=*/true, /*generateSteps=*/0);
    const CellFiles smallCell =
        writeTransformerCell(folder.path(), "gen", small, /*learnedPositions=*/false,
                             /*targets=*/false, /*generateSteps=*/2);
    const std::string lesson = "# Bench\n\n" + gptCell.text + "\n" + smallCell.text;
    std::vector<TransformerConfig> configs;
    const double readSeconds = secondsOf([&] {
        configs = readCells(folder.path(), lesson, {"gpt", "gen"});
    });
    benchTransformer(configs[0], gpt, gemm, gptCell.files + smallCell.files, readSeconds);
    benchGeneration(configs[1], small);
    benchKnockouts(configs[0], gpt, gemm);
    TransformerConfig trainable = configs[1]; // sinusoidal positions: trainable
    trainable.generate.reset();
    benchTraining(trainable,
                  TransformerShape{64, small.d, small.h, small.dFF, small.layers, small.V}, 8,
                  gemm);
    benchWatchedTraining(trainable,
                         TransformerShape{64, small.d, small.h, small.dFF, small.layers, small.V},
                         8, gemm);
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false, transformerOnly = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (std::strcmp(argv[i], "--transformer") == 0) {
            transformerOnly = true;
        } else {
            std::fprintf(stderr, "usage: %s [--quick] [--transformer]\n", argv[0]);
            return 2;
        }
    }
    arma::arma_rng::set_seed(20240607);
    GemmYardstick gemm;

    std::vector<BenchSize> sizes = {{16, 16, 2}, {512, 256, 8}, {1024, 512, 8}, {2048, 512, 8}};
    if (quick) {
        sizes.resize(2);
    }
    if (transformerOnly) {
        sizes.clear();
    }
    for (const BenchSize& s : sizes) {
        for (const MaskKind mask : {MaskKind::None, MaskKind::Causal}) {
            benchOne(s, mask, gemm);
        }
    }
    benchTransformers(gemm);
    return 0;
}

#pragma once
// Worksheet variants: every variant draws fresh numbers for the cells whose worksheet.vary says
// so (docs/lesson-format.md), small integers a student can work with by hand, redrawn until the
// variant is workable: no token vector or query/key slice that is all zeros, and in every row of
// every head one clear largest share (no tie between different tokens).
//
// A transformer cell with worksheet options varies in every variant, vary or not: its tokens are
// shuffled and the word at its focus row steps through the vocabulary (so neighbours never share
// it), its vocab (or X) is redrawn when worksheet.vary says so, and the FFN unit and the cache
// question of its exercises are drawn (TransformerSheetGivens); a draw is redone while the focus
// row's LayerNorm input has no spread or two next words tie. Each transformer cell draws from its
// own stream (the seed mixed with its id), so the attention cells' draws stay as they were.
//
// Beyond workable, a variant's draws are redone while an answer equals an earlier variant's
// (planVariants), so that a student who copies a neighbour copies a wrong answer.
//
// Variants are reproducible: variant k of seed s draws from std::mt19937_64 seeded with a
// SplitMix64 mix of (s, k). Both are fully specified by the C++ standard; the range reduction
// is done here, by rejection, because std::uniform_int_distribution's output is left to each
// standard library. std::random_device is never used.

#include "files/export_control.h"

#include "core/document/lesson.h"

#include <QtCore/QString>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace attnbook {

class VariantRandom {
  public:
    VariantRandom(std::uint64_t seed, int variant);
    // A uniform integer in [lo, hi], the same on every platform.
    int uniform(int lo, int hi);

  private:
    std::mt19937_64 engine_;
};

// SplitMix64's finaliser: a good 64-bit mix (Steele, Lea and Flood, 2014).
std::uint64_t splitMix64(std::uint64_t x);

// What a transformer cell's exercises are about beyond the cell's own numbers
// (worksheet_transformer.h): which FFN unit, and the prompt length and step of the cache
// question. The lesson's own numbers take the strongest unit and the cell's n and steps; every
// variant draws them, and the word at the focus row, so that neighbours' answers differ.
struct TransformerSheetGivens {
    int ffnUnit = -1; // −1: the unit with the largest activation for the focus row
    int cacheN = 0;   // the prompt's length n in the cache question
    int cacheT = 2;   // its step t ≥ 2
};

struct WorksheetVariant {
    int number = 0; // 1..count; 0: the lesson's own numbers
    int count = 0;
    std::uint64_t seed = 0;
    QString hash;  // 8 hex digits: a digest of what the sheet asks, with its numbers
    Lesson lesson; // the lesson with this variant's numbers in its cells' specs
    LessonResults results;
    std::map<std::string, TransformerSheetGivens> transformerGivens; // by cell id

    // "Variant 3 of 30 · seed 42 · #1a2b3c4d", or "The lesson's numbers · #1a2b3c4d".
    QString label() const;
};

// The attention cells that carry worksheet options, in document order (transformer cells:
// transformerWorksheetCells).
std::vector<const LessonCell*> worksheetCells(const Lesson& lesson);
// The transformer cells that carry worksheet options, in document order.
std::vector<const LessonCell*> transformerWorksheetCells(const Lesson& lesson);
// Every cell that is an exercise on the worksheet (attention or transformer), in document order.
std::vector<const LessonCell*> exerciseCells(const Lesson& lesson);
// True when a worksheet has something to show: worksheet options or quizzes.
bool lessonHasWorksheet(const Lesson& lesson);

// Is this computed cell workable by hand? Empty when it is, else why not: a zero vector, a tie
// for the largest share, or a scaled score beyond ±maxScore.
std::string unworkableReason(const AttentionResult& result, double maxScore = 3.0);

// The order variant `variant` shows a multiple-choice quiz's `count` choices in: entry p is the
// choice shown at place p (letter 'A' + p). The lesson's own numbers (variant 0) keep the order
// as written. Every variant shuffles the others (from the seed, the variant and the quiz's
// id) and puts the right choice one place on from the previous variant, starting at a place
// the seed and the quiz's id pick: neighbours' keys differ, and within a sheet the right
// letters are spread, not one letter for every question.
std::vector<size_t> choiceOrder(const std::string& quizId, size_t right, size_t count,
                                std::uint64_t seed, int variant);

// One variant's drawn numbers, before the lesson computes with them: the specs of the cells
// that vary, by id, and the givens of each transformer exercise.
struct VariantDraw {
    std::map<std::string, AttentionCellSpec> attention;
    std::map<std::string, TransformerCellSpec> transformer;
    std::map<std::string, TransformerSheetGivens> givens;
};

// How far apart the variants' answers to one question are (worksheet_answers.h).
struct QuestionSpread {
    std::string question; // "quiz blue_self_score", "exercise colour", "exercise toy (d)"
    int distinct = 0;     // different answers among the variants drawn
    int found = 0;        // different answers among every workable draw tried
    int draws = 0;        // the workable draws tried
};

struct VariantPlan {
    std::uint64_t seed = 0;
    std::vector<VariantDraw> variants;  // variant k at k − 1
    std::vector<QuestionSpread> spread; // the questions about cells that vary, as first met
};

// Draws variants 1..count in order, so that neighbours and the whole class get different
// answers: each varying cell's draw is redone, up to 200 workable draws, while one
// of its answers (its exercise, a numeric quiz about it, at the digits the key prints) is one
// an earlier variant already has; else the draw that shares fewest is kept, and a question
// whose answer it shares is not redrawn for in later variants (its answers are all taken).
// Variant k depends on the seed and variants 1..k−1 only: the same alone as among more.
// With `wanted` > 0, the plan is Refused when a question whose answers vary has fewer than
// `wanted` different answers in all the draws tried: the ranges cannot give that many variants
// that all differ. The reason names every such question. A question with the same answer in
// every draw (about nothing that varies) is never redrawn for and never refused.
// Fails with InvalidDocument, at the cell's worksheet key, when a cell finds no workable draw.
ExportResult planVariants(const Lesson& lesson, std::uint64_t seed, int count, int wanted,
                          VariantPlan* plan);

// Variant `number` of a plan (0: the lesson's own numbers) of `count`, computed: its lesson,
// results and hash. InvalidDocument when a quiz's claim is false for its numbers. `lessonResults`,
// when given, are the lesson's own: the cells the variant does not draw are taken from them
// rather than computed again (a variant of transformer.md computed its 22 cells for 2 drawn).
ExportResult computeVariant(const Lesson& lesson, const VariantPlan& plan, int number, int count,
                            WorksheetVariant* out, const LessonResults* lessonResults = nullptr);

// Variant `number` of `count` (0: the lesson's own numbers), planned and computed alone.
ExportResult drawVariant(const Lesson& lesson, std::uint64_t seed, int number, int count,
                         WorksheetVariant* out);

} // namespace attnbook

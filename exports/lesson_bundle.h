#pragma once
// `attnbook export FILE --bundle OUT.zip` (cli.md "Bundles"): everything needed to read, print
// and reproduce a lesson, in one zip. writeBundle adds manifest.json with every entry's sha256.
//
//   lesson.md                 the document's bytes, exactly
//   lesson.pdf                the printable lesson
//   worksheet.pdf, answers.pdf  when the lesson has worksheet options or quizzes (its own numbers)
//   data/ID.json              each cell's compute output (the cell object of `attnbook compute`)
//   data/ID/NAME.csv          each matrix of each attention cell, one file per matrix:
//                               X0, P, X (not in direct mode), Q, K, V,
//                               head0_scores, head0_weights, head0_context, head1_..., (heads
//                               count from 0, as in binding paths: head[0])
//                               concat, output,
//                               grad_upstream, grad_X or grad_queries/grad_keys/grad_values,
//                               grad_W_Q, grad_W_K, grad_W_V, grad_W_O, grad_b_Q ... grad_b_O
//                             The first row labels the columns (key tokens, or coordinates
//                             from 1), the first column labels the rows (tokens, or output
//                             units from 1); numbers in their shortest round-trip form, a
//                             blocked score as -inf.
//   figures/ID-heatmap.png    each attention cell's heatmap of the shares (every head, up to 4)
//   figures/ID-chart.png      each chart cell's line chart
//   data/files/PATH           every file a cell reads ({file: PATH}), byte for byte
//   lesson.ipynb              the lesson's Jupyter twin (lesson_notebook.h)
//   lesson.html               the lesson as one offline web page (lesson_html.h)

#include "exports/bundle/bundle_writer.h"
#include "exports/paint/pdf_style.h"
#include "files/export_control.h"

#include "core/document/lesson.h"

#include <vector>

namespace attnbook {

struct BundleOptions {
    Paper paper = Paper::A4;
};

// The entries of the lesson's bundle. The lesson must have computed without errors.
ExportResult lessonBundleEntries(const Lesson& lesson, const LessonResults& results,
                                 const BundleOptions& options, std::vector<BundleEntry>* entries,
                                 const ExportControl& control = {});

// Writes the entries to ZIPPATH atomically (writeBundle), with the lesson's title.
ExportResult writeLessonBundle(const QString& zipPath, const Lesson& lesson,
                               const std::vector<BundleEntry>& entries);

// Builds the entries and writes ZIPPATH atomically.
ExportResult exportLessonBundle(const QString& zipPath, const Lesson& lesson,
                                const LessonResults& results, const BundleOptions& options,
                                const ExportControl& control = {});

// Why the bundle at ZIPPATH does not hold what its own lesson makes (its lesson.ipynb or its
// lesson.html was changed after the bundle was made, and its manifest hashed again), or "" when
// it does. Both are deterministic, so each is made again from `lesson` (the bundle's lesson.md,
// computed as `results`) and compared byte for byte: `check` reports a difference. A notebook
// runs code on the machine that opens it, a web page runs script in the browser: neither may
// carry anything the lesson did not make. (lesson.pdf carries its date and runs nothing.)
std::string bundleDerivedFileProblem(const QString& zipPath, const Lesson& lesson,
                                     const LessonResults& results);

// A matrix as labelled CSV (the format above).
QByteArray matrixCsv(const arma::mat& values, const QStringList& rowLabels,
                     const QStringList& columnLabels);

} // namespace attnbook

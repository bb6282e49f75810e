#pragma once
// `attnbook export FILE --worksheet OUT.pdf [--answers KEY.pdf] [--variants N] [--seed S]
// [--roster NAMES.txt]` (cli.md): a worksheet for pencil work and its answer key.
//
// The worksheet prints, for each attention cell with worksheet options, the inputs filled in and
// what worksheet.blank leaves empty as boxes to fill (with their row and column labels);
// matrices after the first blank one that are not blank themselves are left out, since they
// would give the answers away. A transformer cell with worksheet options gets the exercises of
// worksheet_transformer.h instead (LayerNorm, one FFN unit, the next word, the cache's cost).
// Then every quiz question, with tick boxes for choices and room to answer, and a name and date
// line. The answer key is laid out exactly like the worksheet, page
// for page, with the boxes filled in and every quiz answer with its explanation.
//
// With --variants N each variant draws fresh numbers (worksheet_variants.h) and carries its
// number, seed and hash on every page; the key has one section per variant. With a roster,
// every name gets a sheet with a variant (names beyond N take the variants again from 1) and a
// roster CSV (name, variant, seed, hash) is written beside the worksheet.
//
// Variants are drawn in order first, each against the ones before (planVariants: no two share
// a numeric answer where the ranges allow it; too many variants for a question are Refused),
// then computed and laid out in parallel on all cores; painting into the one PDF is
// sequential.

#include "exports/paint/pdf_style.h"
#include "exports/worksheet/worksheet_variants.h"
#include "files/export_control.h"

#include <QtCore/QByteArray>
#include <QtCore/QStringList>

#include <optional>

namespace attnbook {

struct WorksheetOptions {
    Paper paper = Paper::A4;
    int variants = 0; // 0: one sheet with the lesson's own numbers
    std::uint64_t seed = 1;
    QStringList roster;  // student names, in order
    bool answers = true; // render the key too
};

struct WorksheetFiles {
    QByteArray worksheet;
    QByteArray answers;        // empty unless options.answers
    QByteArray roster;         // CSV; empty without a roster
    QStringList variantLabels; // each variant's label, in order
    QStringList variantHashes;
    // Each numeric question's different answers among the variants (`attnbook export
    // --verbose`), in sheet order.
    std::vector<QuestionSpread> spread;
    int worksheetPages = 0;
    int answerPages = 0;
};

inline constexpr int kMaxVariants = 1000;

// What `worksheets` sheets and `keys` answer keys of the lesson hold in memory once laid out:
// every sheet is laid out before the first page is written (its page numbers count them all).
// renderWorksheets charges it against the memory limit before drawing anything.
double laidOutSheetsBytes(const Lesson& lesson, int worksheets, int keys);

ExportResult renderWorksheets(const Lesson& lesson, const WorksheetOptions& options,
                              WorksheetFiles* files, const ExportControl& control = {});

// The roster CSV beside WORKSHEET: "sheets.pdf" → "sheets-roster.csv".
QString rosterCsvPath(const QString& worksheetPath);

// Renders and writes the worksheet, the key (when `answersPath` is not empty) and the roster
// CSV (with a roster) atomically: on failure or cancel, no file is changed.
ExportResult exportWorksheets(const Lesson& lesson, const WorksheetOptions& options,
                              const QString& worksheetPath, const QString& answersPath,
                              const ExportControl& control = {});

// The names in a roster file: one per line, UTF-8; blank lines and lines starting with '#' are
// skipped. nullopt with `error` when it cannot be read or holds no name.
std::optional<QStringList> readRoster(const QString& path, QString* error);

} // namespace attnbook

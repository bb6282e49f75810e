// Longer than 500 lines on purpose: the headless commands (compute, check, edit, new, run)
// share opening a lesson with its --set what-ifs, the cost limits and the one way problems are
// printed and turned into exit codes.
#include "app/cli/command_line.h"

#include "app/cli/command_options.h"
#include "app/cli/cost_limit_options.h"
#include "app/cli/export_command.h"
#include "core/document/cell_cost.h"
#include "core/document/typed_numbers.h"
#include "core/live/reader_view_words.h"
#include "core/live/reader_what_ifs.h"
#include "core/live/typed_number_coincidences.h"
#include "core/live/what_if.h"
#include "core/live/what_if_sweep.h"
#include "exports/export_request.h"
#include "exports/lesson_bundle.h"
#include "exports/worksheet/worksheet_variants.h"
#include "files/lesson_source.h"
#include "files/output_policy.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <tuple>

namespace attnbook {
namespace {

const char* const kUsage = R"(attnbook — lessons about attention, live

usage:
  attnbook [FILE]                      open FILE (a lesson .md or a bundle .zip) in the window;
                                       without FILE, the bundled default lesson
  attnbook compute FILE [--cell ID] [--set ID.KEY=YAML]... [LIMITS]
                                       print the computed cells as JSON
  attnbook check FILE [--strict] [--what-ifs] [--fix] [LIMITS]
                                       validate; print errors and warnings (--fix: hand-typed
                                       numbers become bindings, no other byte changes;
                                       --what-ifs, and --strict: sentences that a reader's
                                       what-if may make false)
  attnbook export FILE --pdf OUT.pdf [--paper a4|letter]
  attnbook export FILE --worksheet OUT.pdf [--answers KEY.pdf] [--variants N] [--seed S]
                                       [--roster NAMES.txt]
  attnbook export FILE --bundle OUT.zip
  attnbook export FILE --notebook OUT.ipynb
                                       a Jupyter notebook that recomputes every cell in NumPy
  attnbook export FILE --html OUT.html one self-contained, offline web page of the lesson
  attnbook edit FILE --set ID.KEY=YAML... [--out OUT]
                                       apply changes to cells and save
  attnbook new FILE                    a new lesson from the template
  attnbook shot FILE --out PAGE.png [--width W] [--cell ID] [--theme light|dark] [--max-seconds S]
  attnbook --version | --help

limits (check, compute): a cell whose estimated cost passes them is refused before
  it is computed; SIZE takes K, M or G (binary), COUNT plain or with e (7e9)
  --max-memory SIZE  (1G)   --max-work COUNT multiply-adds (7e9)   --max-json SIZE (64M)

exit codes: 0 done, 1 an output could not be written, 2 usage error,
            3 the document is invalid (FILE:LINE:COLUMN: error: ... on stderr)
)";

void printError(const std::string& line) {
    std::cerr << line << '\n';
}

int usageError(const std::string& message) {
    std::cerr << "attnbook: " << message << "\n(attnbook --help shows how to call it)\n";
    return ExitUsage;
}

// Prints the lesson's problems; returns true when there is an error.
bool reportDiagnostics(const std::string& file, const std::vector<Diagnostic>& diagnostics,
                       bool printWarnings = true) {
    bool errors = false;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::Error || printWarnings) {
            printError(formatDiagnostic(file, d));
        }
        errors = errors || d.severity == Severity::Error;
    }
    return errors;
}

std::vector<Diagnostic> allDiagnostics(const Lesson& lesson, const LessonResults& results) {
    std::vector<Diagnostic> all = lesson.diagnostics;
    all.insert(all.end(), results.diagnostics.begin(), results.diagnostics.end());
    return all;
}

// Applies --max-memory, --max-work and --max-json (cost_limit_options.h); false after a usage
// error.
bool applyCostLimits(const CommandOptions& options, int& exitCode) {
    if (const std::string problem = applyCostLimitOptions(options); !problem.empty()) {
        exitCode = usageError(problem);
        return false;
    }
    return true;
}

// Reads FILE and applies the --set what-ifs. Returns nullopt after printing
// why when that fails, with `exitCode` set.
std::optional<WhatIf> openWithWhatIfs(const CommandOptions& options, int& exitCode) {
    AttentionEngine engine;
    std::vector<SetOption> sets;
    for (const std::string& text : options.all("--set")) {
        std::string error;
        const std::optional<SetOption> set = parseSetOption(text, error);
        if (!set) {
            exitCode = usageError(error);
            return std::nullopt;
        }
        sets.push_back(*set);
    }
    Lesson lesson = openLessonSource(options.file);
    if (hasErrors(lesson.diagnostics)) {
        reportDiagnostics(options.file, lesson.diagnostics, false);
        exitCode = ExitInvalidDocument;
        return std::nullopt;
    }
    WhatIf whatIf = applyWhatIf(lesson, sets, engine);
    if (!whatIf.errors.empty()) {
        for (const std::string& error : whatIf.errors) {
            printError(error);
        }
        exitCode = ExitInvalidDocument;
        return std::nullopt;
    }
    return whatIf;
}

// Parses a command's options, reads FILE and applies its --set what-ifs.
// Returns nullopt after printing why, with `exitCode` set.
std::optional<WhatIf> openForCommand(const QStringList& arguments, const CommandOptionSpec& spec,
                                     CommandOptions& options, int& exitCode) {
    options = parseCommandOptions(arguments, spec);
    if (!options.error.empty()) {
        exitCode = usageError(options.error);
        return std::nullopt;
    }
    if (!applyCostLimits(options, exitCode)) {
        return std::nullopt;
    }
    return openWithWhatIfs(options, exitCode);
}

int computeCommand(const QStringList& arguments) {
    CommandOptions options;
    int exitCode = ExitDone;
    const std::optional<WhatIf> whatIf = openForCommand(
        arguments, {{"--cell", "--max-memory", "--max-work", "--max-json"}, {"--set"}, {}}, options,
        exitCode);
    if (!whatIf) {
        return exitCode;
    }
    // A document with any error, a broken binding included, is refused (docs/lesson-format.md
    // "Errors"); its warnings are check's business. A claim that a --set what-if makes false
    // is not an error of the document: "claims" lists it with holds: false. Nor, after a
    // reader's what-if (every set within the cell's controls), is a binding that no longer
    // resolves (a row or a head that the setting took away): "claims" lists it too, with
    // "unresolved": why, as the window shows it "—" with a mark. An author's edit
    // that breaks a binding is still refused.
    const FalseClaims falseClaims = options.all("--set").empty() ? FalseClaims::AreErrors
                                    : whatIf->byReader ? FalseClaims::AreListedWithBrokenBindings
                                                       : FalseClaims::AreListed;
    std::vector<Diagnostic> errors = lessonProblems(whatIf->lesson, whatIf->results, falseClaims);
    std::erase_if(errors, [](const Diagnostic& d) { return d.severity != Severity::Error; });
    for (Diagnostic& d : errors) {
        d.line = whatIf->originalLine(d.line);
    }
    if (reportDiagnostics(options.file, errors, true)) {
        return ExitInvalidDocument;
    }
    const std::string onlyCell = options.value("--cell");
    if (!onlyCell.empty() && !whatIf->results.cell(onlyCell)) {
        printError(options.file + ": error: there is no cell '" + onlyCell + "'");
        return ExitUsage;
    }
    const std::string json = lessonJson(whatIf->lesson, whatIf->results, onlyCell,
                                        [&](int line) { return whatIf->originalLine(line); })
                                 .dump() +
                             "\n";
    if (std::fwrite(json.data(), 1, json.size(), stdout) != json.size() || std::fflush(stdout)) {
        printError("attnbook: cannot write to standard output");
        return ExitOutputFailed;
    }
    return ExitDone;
}

// `check --fix`: rewrites each hand-typed number (typed_numbers.h) into its binding in
// FILE, through the output policy as `edit` writes, and says what it did. Returns false
// after printing why when nothing could be written, with `exitCode` set.
// Every hand-typed number weighed as --fix weighs it: its binding against every what-if a
// reader can make and the worksheet variants (typed_number_coincidences.h). One implementation
// for --fix, which binds only those that hold, and for check, whose advice says the same.
CoincidenceCheck weighTypedNumbers(const Lesson& lesson, const LessonResults& results) {
    constexpr int kVariantsWeighed = 6; // as many as a worksheet of attention.md can differ in
    CoincidenceCheck check(results, findTypedNumbers(lesson, results));
    if (check.sites().empty()) {
        return check;
    }
    AttentionEngine engine;
    forEachReaderWhatIf(lesson, results, engine,
                        [&](const SweepWhatIf& whatIf, const LessonResults& now) {
                            check.observe(now, whatIf.setting);
                        });
    if (!worksheetCells(lesson).empty() || !transformerWorksheetCells(lesson).empty()) {
        for (int k = 1; k <= kVariantsWeighed; ++k) {
            WorksheetVariant variant;
            if (drawVariant(lesson, ExportRequest{}.seed, k, kVariantsWeighed, &variant).ok()) {
                check.observe(variant.results, "worksheet variant " + std::to_string(k));
            }
        }
    }
    return check;
}

// The hand-typed numbers whose binding holds (weighTypedNumbers); the others are reported and
// left.
std::vector<TypedNumber> bindingsThatHold(const std::string& file, const Lesson& lesson,
                                          const LessonResults& results) {
    const CoincidenceCheck check = weighTypedNumbers(lesson, results);
    std::vector<TypedNumber> out;
    for (size_t i = 0; i < check.sites().size(); ++i) {
        const TypedNumber& site = check.sites()[i];
        if (check.why(i).empty()) {
            out.push_back(site);
        } else {
            printError(file + ":" + std::to_string(site.line) + ":" + std::to_string(site.column) +
                       ": warning: " + site.typed + " not fixed: " + check.why(i));
        }
    }
    return out;
}

// check's advice for a hand-typed number that --fix would not bind: the reason, not a binding
// that holds only by coincidence.
void adviseAsFixWould(std::vector<Diagnostic>& all, const Lesson& lesson,
                      const LessonResults& results) {
    if (std::none_of(all.begin(), all.end(), [](const Diagnostic& d) {
            return d.message.find(" is typed by hand but equals ") != std::string::npos;
        })) {
        return; // nothing typed: no what-ifs to weigh
    }
    const CoincidenceCheck check = weighTypedNumbers(lesson, results);
    for (size_t i = 0; i < check.sites().size(); ++i) {
        if (check.why(i).empty()) {
            continue;
        }
        const TypedNumber& site = check.sites()[i];
        const Diagnostic said = site.diagnostic();
        for (Diagnostic& d : all) {
            if (d.line == said.line && d.column == said.column && d.message == said.message) {
                d.message = site.typed + " is typed by hand" +
                            (site.inVaryingQuiz
                                 ? " in a quiz whose cell varies on worksheets (false on every "
                                   "other variant), and "
                                 : ", and ") +
                            check.why(i);
            }
        }
    }
}

bool fixTypedNumbersInFile(const CommandOptions& options, const WhatIf& whatIf, int& exitCode) {
    if (!options.all("--set").empty()) {
        exitCode = usageError("--fix rewrites the file as it is: it does not take --set");
        return false;
    }
    if (isBundlePath(options.file)) {
        exitCode = usageError("a bundle is not fixed in place: unpack its lesson.md first");
        return false;
    }
    std::string error;
    const std::optional<std::string> bytes = readFileBytes(options.file, error);
    if (!bytes) {
        printError(error);
        exitCode = ExitOutputFailed;
        return false;
    }
    const std::vector<TypedNumber> fixable =
        bindingsThatHold(options.file, whatIf.lesson, whatIf.results);
    const TypedNumberFix fix = fixTypedNumbers(*bytes, fixable);
    for (const auto& [site, why] : fix.refused) {
        printError(options.file + ":" + std::to_string(site.line) + ":" +
                   std::to_string(site.column) + ": warning: " + site.typed + " not fixed: " + why);
    }
    if (fix.fixed.empty()) {
        std::cout << options.file << ": nothing to fix\n";
        return true; // not written: byte for byte as it was
    }
    const QString file = QString::fromStdString(options.file);
    QStringList inputs = lessonInputs(whatIf.lesson, file);
    inputs.removeFirst(); // FILE itself is the output; never a data file its cells read
    if (const QString problem = outputsProblem({file}, inputs); !problem.isEmpty()) {
        printError(problem.toStdString());
        exitCode = ExitOutputFailed;
        return false;
    }
    QString writeError;
    QString warning;
    if (!writeOutputFile(file, QByteArray::fromStdString(fix.bytes), &writeError, &warning)) {
        printError(writeError.toStdString());
        exitCode = ExitOutputFailed;
        return false;
    }
    if (!warning.isEmpty()) {
        printError("attnbook: warning: " + warning.toStdString());
    }
    for (const TypedNumber& site : fix.fixed) {
        std::cout << options.file << ":" << site.line << ":" << site.column
                  << ": fixed: " << site.typed << " -> " << site.replacement() << '\n';
    }
    std::cout << options.file << ": " << fix.fixed.size()
              << (fix.fixed.size() == 1 ? " number" : " numbers") << " bound\n";
    return true;
}

int checkCommand(const QStringList& arguments) {
    CommandOptions options;
    int exitCode = ExitDone;
    const std::optional<WhatIf> whatIf = openForCommand(
        arguments, {costLimitOptions(), {"--set"}, {"--strict", "--what-ifs", "--fix"}}, options,
        exitCode);
    if (!whatIf) {
        return exitCode;
    }
    if (options.has("--fix")) {
        if (!fixTypedNumbersInFile(options, *whatIf, exitCode)) {
            return exitCode;
        }
        QStringList again = arguments; // check the file as it is now
        again.removeAll(QStringLiteral("--fix"));
        return checkCommand(again);
    }
    std::vector<Diagnostic> all = lessonProblems(whatIf->lesson, whatIf->results);
    if (!options.has("--set")) {
        adviseAsFixWould(all, whatIf->lesson, whatIf->results);
    }
    // The sweep tries the reader's what-ifs on the file as it is, not on a --set what-if. It
    // runs with errors too (over the cells that compute), so that an author fixing one problem
    // at a time sees the rest: the errors first, then what the sweep found, each in line order.
    if ((options.has("--strict") || options.has("--what-ifs")) && !options.has("--set")) {
        AttentionEngine engine;
        SweepReport sweep = sweepReaderWhatIfs(whatIf->lesson, whatIf->results, engine);
        all.insert(all.end(), sweep.warnings.begin(), sweep.warnings.end());
        std::stable_sort(all.begin(), all.end(), [](const Diagnostic& a, const Diagnostic& b) {
            return std::tie(a.severity, a.line) < std::tie(b.severity, b.line);
        });
    }
    for (Diagnostic& d : all) {
        d.line = whatIf->originalLine(d.line); // the file's lines, not the what-if's
    }
    // A bundle's notebook and web page are made from its lesson: one that differs was
    // tampered with.
    if (isBundlePath(options.file) && !options.has("--set")) {
        if (const std::string problem = bundleDerivedFileProblem(
                QString::fromStdString(options.file), whatIf->lesson, whatIf->results);
            !problem.empty()) {
            all.push_back({Severity::Error, 0, 0, problem, ""});
        }
    }
    const bool errors = reportDiagnostics(options.file, all, true);
    const size_t warnings = size_t(std::count_if(all.begin(), all.end(), [](const Diagnostic& d) {
        return d.severity == Severity::Warning;
    }));
    if (errors) {
        return ExitInvalidDocument;
    }
    std::cout << options.file << ": " << whatIf->lesson.cells.size() << " cells, no errors, "
              << warnings << (warnings == 1 ? " warning" : " warnings") << '\n';
    return options.has("--strict") && warnings > 0 ? ExitInvalidDocument : ExitDone;
}

int editCommand(const QStringList& arguments) {
    CommandOptions options;
    int exitCode = ExitDone;
    const std::optional<WhatIf> whatIf =
        openForCommand(arguments, {{"--out"}, {"--set"}, {}}, options, exitCode);
    if (!whatIf) {
        return exitCode;
    }
    // A reader's view is a what-if only: no key of the cell holds it (docs/cli.md).
    for (const std::string& text : options.all("--set")) {
        std::string error;
        const std::optional<SetOption> set = parseSetOption(text, error);
        if (set && isReaderViewKey(set->key)) {
            printError(set->label() + ": error: a reader's view is not part of the lesson, so "
                                      "edit does not write it (compute --set shows it)");
            return ExitInvalidDocument;
        }
    }
    if (reportDiagnostics(options.file, allDiagnostics(whatIf->lesson, whatIf->results), false)) {
        return ExitInvalidDocument;
    }
    if (isBundlePath(options.file) && options.value("--out").empty()) {
        return usageError("a bundle is not edited in place: give --out LESSON.md");
    }
    const std::string out = options.value("--out").empty() ? options.file : options.value("--out");
    // FILE itself may be the output (in place, however it is spelled), never a data file its
    // cells read nor the bundle it came from.
    const QString file = QString::fromStdString(options.file);
    QStringList inputs = lessonInputs(whatIf->lesson, file);
    if (!isBundlePath(options.file)) {
        inputs.removeFirst();
    }
    if (const QString problem = outputsProblem({QString::fromStdString(out)}, inputs);
        !problem.isEmpty()) {
        printError(problem.toStdString());
        return ExitOutputFailed;
    }
    QString error;
    QString warning;
    if (!writeOutputFile(QString::fromStdString(out),
                         QByteArray::fromStdString(whatIf->lesson.document.serialize()), &error,
                         &warning)) {
        printError(error.toStdString());
        return ExitOutputFailed;
    }
    if (!warning.isEmpty()) {
        printError("attnbook: warning: " + warning.toStdString());
    }
    return ExitDone;
}

int newCommand(const QStringList& arguments) {
    const CommandOptions options = parseCommandOptions(arguments, {});
    if (!options.error.empty()) {
        return usageError(options.error);
    }
    // A dangling link counts as a file: new never writes through it.
    const QFileInfo target(QString::fromStdString(options.file));
    if (target.exists() || target.isSymLink()) {
        printError(options.file + ": error: already exists; attnbook new never overwrites a file");
        return ExitOutputFailed;
    }
    QFile templateFile(QStringLiteral(":/documents/template.md"));
    if (!templateFile.open(QIODevice::ReadOnly)) {
        printError("attnbook: the lesson template is missing from this build");
        return ExitOutputFailed;
    }
    std::string error;
    if (!writeFileAtomically(options.file, templateFile.readAll().toStdString(), error)) {
        printError(error);
        return ExitOutputFailed;
    }
    std::cout << options.file << ": a new lesson from the template\n";
    return ExitDone;
}

} // namespace

bool isHeadlessCommand(const QStringList& arguments) {
    if (arguments.isEmpty()) {
        return false;
    }
    if (arguments.front().startsWith(QLatin1Char('-'))) {
        return true; // an option, never a FILE: runCommandLine explains it
    }
    static const QStringList commands = {"compute", "check",     "edit",   "new", "export",
                                         "shot",    "--version", "--help", "-h",  "-v"};
    return commands.contains(arguments.front());
}

namespace {

int runCommand(const QStringList& arguments) {
    const QString command = arguments.front();
    try {
        if (command == QLatin1String("--help") || command == QLatin1String("-h")) {
            std::cout << kUsage;
            return ExitDone;
        }
        if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
            std::cout << "attnbook " << ATTNBOOK_VERSION << '\n';
            return ExitDone;
        }
        if (command == QLatin1String("compute")) {
            return computeCommand(arguments);
        }
        if (command == QLatin1String("check")) {
            return checkCommand(arguments);
        }
        if (command == QLatin1String("edit")) {
            return editCommand(arguments);
        }
        if (command == QLatin1String("new")) {
            return newCommand(arguments);
        }
        if (command == QLatin1String("export")) {
            return runExportCommand(arguments);
        }
        return usageError("unknown command '" + command.toStdString() + "'");
    } catch (const std::bad_alloc&) {
        printError("attnbook: out of memory");
        return ExitOutputFailed;
    }
}

} // namespace

int runCommandLine(const QStringList& arguments) {
    int code = runCommand(arguments);
    // What went to stdout counts as an output: a full disk or a closed pipe (`check >
    // /dev/full`) is a failed write, exit 1, never a silent success.
    std::cout.flush();
    errno = 0;
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
        const int why = errno;
        printError(std::string("attnbook: cannot write to standard output") +
                   (why ? std::string(": ") + std::strerror(why) : std::string()));
        if (code == ExitDone) {
            code = ExitOutputFailed;
        }
    }
    return code;
}

} // namespace attnbook

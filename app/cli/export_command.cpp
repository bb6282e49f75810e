#include "app/cli/export_command.h"

#include "app/cli/command_line.h"
#include "app/cli/command_options.h"
#include "app/cli/cost_limit_options.h"
#include "exports/export_request.h"
#include "exports/export_summary.h"
#include "exports/worksheet/worksheet_variants.h"
#include "files/lesson_source.h"
#include "files/output_policy.h"

#include <algorithm>
#include <iostream>
#include <optional>

namespace attnbook {

namespace {

const char* const kExportUsage = "usage: attnbook export FILE [--pdf OUT.pdf] [--paper a4|letter]\n"
                                 "                            [--worksheet OUT.pdf [--answers "
                                 "KEY.pdf] [--variants N] [--seed S]\n"
                                 "                             [--roster NAMES.txt] [--verbose]]\n"
                                 "                            [--bundle OUT.zip] [--notebook "
                                 "OUT.ipynb] [--html OUT.html]\n"
                                 "                            [--max-memory SIZE] [--max-work "
                                 "COUNT] [--max-json SIZE]";

using ExportOptions = CommandOptions;

ExportOptions parseExportOptions(const QStringList& arguments) {
    ExportOptions options = parseCommandOptions(
        arguments,
        {{"--pdf", "--paper", "--worksheet", "--answers", "--variants", "--seed", "--roster",
          "--bundle", "--notebook", "--html", "--max-memory", "--max-work", "--max-json"},
         {},
         {"--verbose"}});
    if (!options.error.empty()) {
        return options;
    }
    if (!options.has("--pdf") && !options.has("--worksheet") && !options.has("--bundle") &&
        !options.has("--notebook") && !options.has("--html")) {
        options.error = "say what to export: --pdf, --worksheet, --bundle, --notebook or --html";
    } else {
        for (const char* needsWorksheet :
             {"--answers", "--variants", "--seed", "--roster", "--verbose"}) {
            if (options.has(needsWorksheet) && !options.has("--worksheet")) {
                options.error = std::string(needsWorksheet) + " goes with --worksheet";
            }
        }
    }
    return options;
}

int usage(const std::string& message) {
    std::cerr << "attnbook export: " << message << '\n' << kExportUsage << '\n';
    return ExitUsage;
}

int exitCodeOf(const ExportResult& result, const std::string& file,
               const std::vector<Diagnostic>& errors = {}) {
    switch (result.status) {
    case ExportStatus::Done:
        return ExitDone;
    case ExportStatus::InvalidDocument:
        if (errors.empty()) {
            std::cerr << formatDiagnostic(file, {Severity::Error, result.line, result.column,
                                                 result.error.toStdString(), ""})
                      << '\n';
        }
        for (const Diagnostic& d : errors) {
            std::cerr << formatDiagnostic(file, d) << '\n';
        }
        return ExitInvalidDocument;
    case ExportStatus::Refused: // the options ask what this lesson cannot give
        std::cerr << "attnbook export: " << result.error.toStdString() << '\n';
        return ExitUsage;
    case ExportStatus::Cancelled:
    case ExportStatus::Failed:
        break;
    }
    std::cerr << result.error.toStdString() << '\n';
    return ExitOutputFailed;
}

// The request and its targets, from the command line's options; a usage error in `error`.
struct CommandExport {
    ExportRequest request;
    ExportTargets targets;
    QString rosterPath;
};

std::optional<CommandExport> exportFromOptions(const ExportOptions& options, std::string& error) {
    CommandExport out;
    const auto path = [&](const char* name) { return QString::fromStdString(options.value(name)); };
    out.request.lessonPdf = options.has("--pdf");
    out.request.worksheet = options.has("--worksheet");
    out.request.answers = options.has("--answers");
    out.request.bundle = options.has("--bundle");
    out.request.notebook = options.has("--notebook");
    out.request.html = options.has("--html");
    out.targets = {path("--pdf"),    path("--worksheet"), path("--answers"),
                   path("--bundle"), path("--notebook"),  path("--html")};
    QString why;
    // Reads option `name` with `read` into `into` when given; false (and `error`) when unreadable.
    const auto readOption = [&](const char* name, auto read, auto& into) {
        if (!options.has(name)) {
            return true;
        }
        const auto value = read(path(name), &why);
        if (!value) {
            error = std::string(name) + ": " + why.toStdString();
            return false;
        }
        into = *value;
        return true;
    };
    if (!readOption("--paper", readPaper, out.request.paper) ||
        !readOption("--variants", readVariants, out.request.variants) ||
        !readOption("--seed", readSeed, out.request.seed)) {
        return std::nullopt;
    }
    if (options.has("--roster")) {
        out.rosterPath = path("--roster");
        const std::optional<QStringList> names = readRoster(out.rosterPath, &why);
        if (!names) {
            error = why.toStdString();
            return std::nullopt;
        }
        out.request.roster = *names;
    }
    if (const QString problem = out.request.problem(); !problem.isEmpty()) {
        error = problem.toStdString();
        return std::nullopt;
    }
    return out;
}

// "1 name", "2 names": a count with its noun in the number it takes.
std::string counted(size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// What was written, one line each.
std::string describe(const QString& role, const QString& path, const CommandExport& job) {
    const std::string p = path.toStdString();
    if (role == QLatin1String("lesson")) {
        return p + ": the lesson as PDF";
    }
    if (role == QLatin1String("worksheet")) {
        return p + ": the worksheet" +
               (job.request.variants > 0
                    ? " in " + counted(size_t(job.request.variants), "variant", "variants")
                    : std::string());
    }
    if (role == QLatin1String("answers")) {
        return p + ": its answer key";
    }
    if (role == QLatin1String("roster")) {
        return p + ": the roster, " + counted(job.request.roster.size(), "name", "names");
    }
    if (role == QLatin1String("notebook")) {
        return p + ": the lesson as a Jupyter notebook";
    }
    if (role == QLatin1String("html")) {
        return p + ": the lesson as a web page";
    }
    return p + ": the lesson as a bundle";
}

// `--verbose`: how many different answers each numeric question has among the variants, and
// why one has fewer than the variants (cli.md).
std::string spreadReport(const std::vector<QuestionSpread>& spread, int variants, bool roster) {
    std::string out;
    for (const QuestionSpread& q : spread) {
        out += "  " + q.question + ": " + std::to_string(q.distinct) +
               (q.distinct == 1 ? " answer" : " different answers") + " in " +
               (roster ? counted(size_t(variants), "sheet", "sheets")
                       : counted(size_t(variants), "variant", "variants"));
        if (q.distinct < variants) {
            if (q.found <= 1) {
                out += " (the same in every variant: it is about nothing that varies)";
            } else if (q.found == q.distinct) {
                out += " (the ranges of worksheet.vary give no other: " + std::to_string(q.found) +
                       " in " + counted(size_t(q.draws), "draw", "draws") + ")";
            } else {
                out += " (" + std::to_string(q.found) + " found in " +
                       counted(size_t(q.draws), "draw", "draws") +
                       "; these variants drew no other)";
            }
        }
        out += '\n';
    }
    return out;
}

} // namespace

int runExportCommand(const QStringList& arguments) {
    const ExportOptions options = parseExportOptions(arguments);
    if (!options.error.empty()) {
        return usage(options.error);
    }
    if (const std::string problem = applyCostLimitOptions(options); !problem.empty()) {
        return usage(problem);
    }
    std::string error;
    const std::optional<CommandExport> job = exportFromOptions(options, error);
    if (!job) {
        return usage(error);
    }
    const QString file = QString::fromStdString(options.file);
    const QStringList inputs{file, job->rosterPath};

    // Fail before the work when an output cannot be written at all.
    const QStringList targets = job->targets.paths(job->request);
    if (const QString clash = targetsClash(targets, inputs); !clash.isEmpty()) {
        return usage(clash.toStdString());
    }
    if (const QString problem = targetsProblem(targets, inputs); !problem.isEmpty()) {
        std::cerr << problem.toStdString() << '\n';
        return ExitOutputFailed;
    }

    // Everything is rendered first and written last, together: an export that fails half way
    // (a worksheet with no workable variant, say) writes none of its outputs.
    const Lesson lesson = openLessonSource(options.file);
    if (job->request.worksheet && !hasErrors(lesson.diagnostics) && !lessonHasWorksheet(lesson)) {
        return usage(options.file +
                     " has no worksheet options and no quizzes: nothing to put on a worksheet");
    }
    RenderedExport rendered;
    const ExportResult result = renderExport(lesson, job->request, &rendered);
    if (const int code = exitCodeOf(result, options.file, rendered.errors)) {
        return code;
    }
    // Now that the lesson is read, the data files its cells read are inputs too (the window
    // asks the same of exportInputs).
    QStringList written;
    const QStringList allInputs = exportInputs(lesson, file, job->rosterPath);
    if (const int code =
            exitCodeOf(writeExport(rendered, job->targets, allInputs, &written), options.file)) {
        return code;
    }
    for (qsizetype i = 0; i < written.size(); ++i) {
        std::cout << describe(rendered.parts[size_t(i)].role, written[i], *job) << '\n';
    }
    if (const QString note = sharedAnswersNote(job->request, rendered); !note.isEmpty()) {
        std::cout << "note: " << note.toStdString() << '\n';
    }
    if (options.has("--verbose")) {
        const int sheets =
            job->request.variants > 0 ? job->request.variants : int(job->request.roster.size());
        std::cout << spreadReport(rendered.worksheetSpread, std::max(sheets, 1),
                                  job->request.variants <= 0 && !job->request.roster.isEmpty());
    }
    return ExitDone;
}

} // namespace attnbook

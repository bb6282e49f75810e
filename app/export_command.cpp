#include "app/export_command.h"

#include "app/command_line.h"
#include "app/command_options.h"
#include "exports/export_output.h"
#include "exports/lesson_bundle.h"
#include "app/lesson_source.h"
#include "exports/pdf_lesson.h"
#include "exports/worksheet_pdf.h"

#include <QFileInfo>

#include <iostream>
#include <map>
#include <optional>

namespace attnbook {

namespace {

const char* const kExportUsage = "usage: attnbook export FILE [--pdf OUT.pdf] [--paper a4|letter]\n"
                                 "                            [--worksheet OUT.pdf [--answers "
                                 "KEY.pdf] [--variants N] [--seed S]\n"
                                 "                             [--roster NAMES.txt]]\n"
                                 "                            [--bundle OUT.zip]";

using ExportOptions = CommandOptions;

ExportOptions parseExportOptions(const QStringList& arguments) {
    ExportOptions options = parseCommandOptions(
        arguments, {{"--pdf", "--paper", "--worksheet", "--answers", "--variants", "--seed",
                     "--roster", "--bundle"},
                    {},
                    {}});
    if (!options.error.empty()) {
        return options;
    }
    if (!options.has("--pdf") && !options.has("--worksheet") && !options.has("--bundle")) {
        options.error = "say what to export: --pdf, --worksheet or --bundle";
    } else {
        for (const char* needsWorksheet : {"--answers", "--variants", "--seed", "--roster"}) {
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

// Every output path, none twice and none the lesson itself.
std::optional<std::string> clashingOutputs(const ExportOptions& options) {
    std::map<QString, std::string> seen;
    seen[QFileInfo(QString::fromStdString(options.file)).absoluteFilePath()] = "FILE";
    for (const char* name : {"--pdf", "--worksheet", "--answers", "--bundle"}) {
        if (!options.has(name)) {
            continue;
        }
        const QString path =
            QFileInfo(QString::fromStdString(options.value(name))).absoluteFilePath();
        if (const auto it = seen.find(path); it != seen.end()) {
            return std::string(name) + " and " + it->second + " name the same file";
        }
        seen[path] = name;
    }
    return std::nullopt;
}

int exitCodeOf(const ExportResult& result, const std::string& file) {
    switch (result.status) {
    case ExportStatus::Done:
        return ExitDone;
    case ExportStatus::InvalidDocument:
        std::cerr << formatDiagnostic(file, {Severity::Error, result.line, result.column,
                                             result.error.toStdString(), ""})
                  << '\n';
        return ExitInvalidDocument;
    case ExportStatus::Cancelled:
    case ExportStatus::Failed:
        break;
    }
    std::cerr << result.error.toStdString() << '\n';
    return ExitOutputFailed;
}

} // namespace

int runExportCommand(const QStringList& arguments) {
    const ExportOptions options = parseExportOptions(arguments);
    if (!options.error.empty()) {
        return usage(options.error);
    }
    if (const auto clash = clashingOutputs(options)) {
        return usage(*clash);
    }
    Paper paper = Paper::A4;
    if (options.has("--paper")) {
        const QString p = QString::fromStdString(options.value("--paper")).toLower();
        if (p != QLatin1String("a4") && p != QLatin1String("letter")) {
            return usage("--paper is a4 or letter, not " + options.value("--paper"));
        }
        paper = p == QLatin1String("letter") ? Paper::Letter : Paper::A4;
    }
    WorksheetOptions sheets;
    sheets.paper = paper;
    if (options.has("--variants")) {
        bool ok = false;
        sheets.variants = QString::fromStdString(options.value("--variants")).toInt(&ok);
        if (!ok || sheets.variants < 1 || sheets.variants > kMaxVariants) {
            return usage("--variants is a whole number from 1 to " + std::to_string(kMaxVariants));
        }
    }
    if (options.has("--seed")) {
        bool ok = false;
        sheets.seed = QString::fromStdString(options.value("--seed")).toULongLong(&ok);
        if (!ok) {
            return usage("--seed is a whole number from 0 to 18446744073709551615");
        }
    }
    if (options.has("--roster")) {
        QString error;
        const std::optional<QStringList> names =
            readRoster(QString::fromStdString(options.value("--roster")), &error);
        if (!names) {
            return usage(error.toStdString());
        }
        sheets.roster = *names;
    }

    // Fail before the work when an output cannot be written at all.
    std::vector<QString> paths;
    for (const char* name : {"--pdf", "--worksheet", "--answers", "--bundle"}) {
        if (options.has(name)) {
            paths.push_back(QString::fromStdString(options.value(name)));
        }
    }
    if (!sheets.roster.isEmpty()) {
        paths.push_back(rosterCsvPath(QString::fromStdString(options.value("--worksheet"))));
    }
    for (const QString& path : paths) {
        if (const QString problem = outputProblem(path); !problem.isEmpty()) {
            std::cerr << problem.toStdString() << '\n';
            return ExitOutputFailed;
        }
    }

    const Lesson lesson = openLessonSource(options.file);
    if (hasErrors(lesson.diagnostics)) {
        for (const Diagnostic& d : lesson.diagnostics) {
            if (d.severity == Severity::Error) {
                std::cerr << formatDiagnostic(options.file, d) << '\n';
            }
        }
        return ExitInvalidDocument;
    }
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    if (hasErrors(results.diagnostics)) {
        for (const Diagnostic& d : results.diagnostics) {
            std::cerr << formatDiagnostic(options.file, d) << '\n';
        }
        return ExitInvalidDocument;
    }

    // Everything is rendered first and written last, together: an export that fails half way
    // (a worksheet with no workable variant, say) writes none of its outputs.
    if (options.has("--worksheet") && !lessonHasWorksheet(lesson)) {
        return usage(options.file +
                     " has no worksheet options and no quizzes: nothing to put on a worksheet");
    }
    std::vector<ExportOutput> outputs;
    std::vector<std::string> done;
    if (options.has("--pdf")) {
        ExportOutput pdf{QString::fromStdString(options.value("--pdf")), {}};
        if (const int code =
                exitCodeOf(renderLessonPdf(lesson, results, paper, &pdf.bytes), options.file)) {
            return code;
        }
        outputs.push_back(std::move(pdf));
        done.push_back(options.value("--pdf") + ": the lesson as PDF");
    }
    if (options.has("--worksheet")) {
        const QString worksheet = QString::fromStdString(options.value("--worksheet"));
        sheets.answers = options.has("--answers");
        WorksheetFiles files;
        if (const int code = exitCodeOf(renderWorksheets(lesson, sheets, &files), options.file)) {
            return code;
        }
        outputs.push_back({worksheet, files.worksheet});
        done.push_back(options.value("--worksheet") + ": the worksheet" +
                       (sheets.variants > 0 ? " in " + std::to_string(sheets.variants) + " variants"
                                            : std::string()));
        if (sheets.answers) {
            outputs.push_back({QString::fromStdString(options.value("--answers")), files.answers});
            done.push_back(options.value("--answers") + ": its answer key");
        }
        if (!sheets.roster.isEmpty()) {
            outputs.push_back({rosterCsvPath(worksheet), files.roster});
            done.push_back(rosterCsvPath(worksheet).toStdString() + ": the roster, " +
                           std::to_string(sheets.roster.size()) + " names");
        }
    }
    std::vector<BundleEntry> entries;
    if (options.has("--bundle")) {
        if (const int code =
                exitCodeOf(lessonBundleEntries(lesson, results, {paper}, &entries), options.file)) {
            return code;
        }
    }
    OutputBatch batch;
    for (const ExportOutput& output : outputs) {
        if (const int code = exitCodeOf(batch.stage(output), options.file)) {
            return code; // the staged files are removed, no target has changed
        }
    }
    if (options.has("--bundle")) {
        const QString zip = QString::fromStdString(options.value("--bundle"));
        if (const int code = exitCodeOf(writeLessonBundle(zip, lesson, entries), options.file)) {
            return code;
        }
        done.push_back(options.value("--bundle") + ": the lesson as a bundle");
    }
    if (const int code = exitCodeOf(batch.commit(), options.file)) {
        return code;
    }
    for (const std::string& line : done) {
        std::cout << line << '\n';
    }
    return ExitDone;
}

} // namespace attnbook

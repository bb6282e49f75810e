// Worksheets and keys for every variant, laid out on a pool of threads within the memory
// limit, then written together (the pages of one sheet: worksheet_sheet.h).
#include "exports/worksheet/worksheet_pdf.h"
#include "exports/worksheet/worksheet_sheet.h"

#include "core/present/bound_markdown.h"
#include "core/present/presented_lesson.h"

#include "core/document/cell_cost.h"
#include "core/document/quiz_answer.h"
#include "core/document/source_text.h"
#include "core/math/worked_steps.h"
#include "exports/paint/pdf_cells.h"
#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_layout.h"
#include "exports/paint/pdf_prose.h"
#include "exports/paint/pdf_render.h"
#include "exports/worksheet/worksheet_answers.h"
#include "exports/worksheet/worksheet_transformer.h"
#include "files/export_output.h"

#include <QtConcurrent/QtConcurrentRun>
#include <QtCore/QBuffer>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QtCore/QSemaphore>
#include <QtCore/QThreadPool>
#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>
#include <QtGui/QTextBlock>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>

#include <algorithm>
#include <cmath>
#include <set>

namespace attnbook {

namespace {

constexpr std::uint64_t kMaxRosterBytes = 1ull << 20; // a class list, not a phone book

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// One variant's share of the export. Its worker lays out every page the variant prints (its
// sheet, or each roster name's, and its key) and keeps its answers; it then lets go of the
// variant's lesson and results, so that memory holds pages, not N computed lessons (400
// variants of a transformer lesson held 5 GB).
struct VariantWork {
    ExportResult status;
    WorksheetVariant variant; // its lesson and results emptied once laid out
    std::vector<SheetAnswer> answers;
    PdfSection worksheet; // without a roster
    PdfSection key;
};

// Runs `job` on `pool` and releases `finished` when it ends, however it ends: what the job
// throws (std::bad_alloc under a memory cap, say) becomes a failure in `failure`, and the
// thread that waits for every job never waits for one that died (it once waited for good).
template <class Job>
void runReleasing(QThreadPool& pool, QSemaphore& finished, std::atomic<bool>& stop,
                  ExportResult& failure, Job job) {
    (void)QtConcurrent::run(&pool, [&finished, &stop, &failure, job = std::move(job)] {
        struct Release {
            QSemaphore& semaphore;
            ~Release() { semaphore.release(); }
        } release{finished};
        try {
            job();
        } catch (const std::bad_alloc&) {
            failure = ExportResult::failed(
                QStringLiteral("out of memory while making the sheets: ask for fewer variants"));
            stop = true;
        } catch (const std::exception& e) {
            failure = ExportResult::failed(QString::fromUtf8(e.what()));
            stop = true;
        }
    });
}

// The questions a sheet asks: one per exercise and one per quiz.
int sheetQuestions(const Lesson& lesson) {
    return int(exerciseCells(lesson).size()) +
           int(std::count_if(lesson.cells.begin(), lesson.cells.end(),
                             [](const LessonCell& cell) { return cell.quiz() != nullptr; }));
}

// Why the laid-out sheets would pass the memory limit (laidOutSheetsBytes); "" when they fit.
QString sheetsOverMemory(const Lesson& lesson, int worksheets, int keys) {
    CellCost cost;
    cost.bytes = laidOutSheetsBytes(lesson, worksheets, keys);
    const std::string why = costProblem(cost, costLimits());
    if (why.empty()) {
        return {};
    }
    return QStringLiteral("%1 sheets%2 of %3 questions each would hold %4: ask for fewer")
        .arg(worksheets)
        .arg(keys > 0 ? QStringLiteral(" and %1 keys").arg(keys) : QString())
        .arg(sheetQuestions(lesson))
        .arg(QString::fromStdString(why));
}

// Each question's different answers among the variants, in sheet order; `found` from the plan
// for the questions about cells that vary, else the same as `distinct`.
std::vector<QuestionSpread> answerSpread(const std::vector<VariantWork>& work,
                                         const VariantPlan& plan) {
    std::vector<QuestionSpread> out;
    std::map<std::string, std::set<std::string>> answers;
    for (const VariantWork& w : work) {
        for (const SheetAnswer& a : w.answers) {
            if (answers[a.question].insert(a.text).second && answers[a.question].size() == 1) {
                out.push_back({a.question, 0, 0, 0});
            }
        }
    }
    for (QuestionSpread& q : out) {
        q.distinct = int(answers[q.question].size());
        q.found = q.distinct;
        for (const QuestionSpread& planned : plan.spread) {
            if (planned.question == q.question) {
                q.found = std::max(planned.found, q.distinct);
                q.draws = planned.draws;
            }
        }
    }
    return out;
}

// The roster's CSV: each name with the variant, seed and hash of its sheet (names take the
// variants in turn).
QByteArray rosterCsv(const QStringList& roster, const std::vector<VariantWork>& work) {
    const int sheets = int(work.size());
    QString csv = QStringLiteral("name,variant,seed,hash\r\n");
    for (int s = 0; s < roster.size(); ++s) {
        const WorksheetVariant& v = work[size_t(s % sheets)].variant;
        csv += QStringLiteral("%1,%2,%3,%4\r\n")
                   .arg(csvField(roster[s]))
                   .arg(v.number)
                   .arg(v.number > 0 ? QString::number(v.seed) : QString())
                   .arg(v.hash);
    }
    return csv.toUtf8();
}

// The worksheet and answer-key PDFs of the laid-out variants (or of the roster's sheets), each
// variant's label and hash, the spread of the answers and the roster's CSV, into `files`.
ExportResult writeSheets(const Lesson& lesson, const WorksheetOptions& options,
                         const PageGeometry& g, const VariantPlan& plan,
                         const std::vector<VariantWork>& work,
                         const std::vector<PdfSection>& studentSheets, WorksheetFiles* files,
                         const ExportControl& control) {
    const bool roster = !options.roster.isEmpty();
    files->variantLabels.clear();
    files->variantHashes.clear();
    files->spread = answerSpread(work, plan);
    std::vector<const PdfSection*> worksheetSections, keySections;
    for (const VariantWork& w : work) {
        files->variantLabels << w.variant.label();
        files->variantHashes << w.variant.hash;
        if (!roster) {
            worksheetSections.push_back(&w.worksheet);
        }
        keySections.push_back(&w.key);
    }
    for (const PdfSection& s : studentSheets) {
        worksheetSections.push_back(&s);
    }
    const QString title = qs(lesson.title());
    PdfDocumentInfo info(title + QStringLiteral(" — Worksheet"));
    info.author = qs(lesson.document.frontMatterValue("author"));
    info.subject = qs(lesson.document.frontMatterValue("subtitle"));
    const int totalPages =
        pageCount(worksheetSections) + (options.answers ? pageCount(keySections) : 0);
    {
        QBuffer buffer(&files->worksheet);
        buffer.open(QIODevice::WriteOnly);
        ExportResult r = renderPdf(buffer, g, info, worksheetSections, control, 0, totalPages);
        if (!r.ok()) {
            return r;
        }
        files->worksheetPages = pageCount(worksheetSections);
    }
    if (options.answers) {
        QBuffer buffer(&files->answers);
        buffer.open(QIODevice::WriteOnly);
        info.title = title + QStringLiteral(" — Answer key");
        ExportResult r =
            renderPdf(buffer, g, info, keySections, control, files->worksheetPages, totalPages);
        if (!r.ok()) {
            return r;
        }
        files->answerPages = pageCount(keySections);
    }
    if (roster) {
        files->roster = rosterCsv(options.roster, work);
    }
    return ExportResult::done();
}

// Why asking for variants makes no sense when nothing in the lesson varies, or "".
QString nothingVaries(const Lesson& lesson, const WorksheetOptions& options) {
    // A transformer exercise always varies: its tokens, the unit and the cache question.
    const std::vector<const LessonCell*> cells = worksheetCells(lesson);
    const bool anythingVaries = !transformerWorksheetCells(lesson).empty() ||
                                std::any_of(cells.begin(), cells.end(), [](const LessonCell* c) {
                                    return !c->attention()->worksheet->vary.empty();
                                });
    if (options.variants > 0 && !anythingVaries) {
        return (options.variants == 1
                    ? QStringLiteral(
                          "nothing in this lesson varies (no cell has worksheet.vary), so "
                          "a variant would be the lesson's own sheet")
                    : QStringLiteral(
                          "nothing in this lesson varies (no cell has worksheet.vary), so "
                          "%1 variants would be %1 identical sheets")
                          .arg(options.variants)) +
               QStringLiteral(": leave out the variants, or give a cell worksheet.vary");
    }
    return {};
}

} // namespace

double laidOutSheetsBytes(const Lesson& lesson, int worksheets, int keys) {
    // About 100 kB per question on a sheet, measured (attnbook-cost-bench): attention.md 54 kB,
    // transformer.md 108 kB; a roster of 1000 names for transformer.md held 1.27 GB.
    constexpr double kBytesPerQuestion = 100e3;
    return double(worksheets + keys) * std::max(1, sheetQuestions(lesson)) * kBytesPerQuestion;
}

QString rosterCsvPath(const QString& worksheetPath) {
    const QFileInfo info(worksheetPath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("-roster.csv"));
}

std::optional<QStringList> readRoster(const QString& path, QString* error) {
    // Only a regular file, opened without waiting (a FIFO is refused at once, never read).
    std::string why;
    const std::optional<std::string> bytes =
        readFileBytes(QFile::encodeName(path).toStdString(), why,
                      {.maxBytes = kMaxRosterBytes, .kind = "roster"});
    if (!bytes) {
        *error =
            QStringLiteral("%1: cannot read the roster: %2").arg(path, QString::fromStdString(why));
        return std::nullopt;
    }
    QStringList names;
    const QStringList lines = QString::fromStdString(*bytes).split(u'\n');
    for (QString line : lines) {
        line = line.trimmed();
        if (!line.isEmpty() && !line.startsWith(u'#')) {
            names << line;
        }
    }
    if (names.isEmpty()) {
        *error = QStringLiteral("%1: the roster holds no names (one name per line)").arg(path);
        return std::nullopt;
    }
    if (names.size() > kMaxVariants) {
        *error = QStringLiteral("%1: the roster holds %2 names, more than %3")
                     .arg(path)
                     .arg(names.size())
                     .arg(kMaxVariants);
        return std::nullopt;
    }
    return names;
}

ExportResult renderWorksheets(const Lesson& lesson, const WorksheetOptions& options,
                              WorksheetFiles* files, const ExportControl& control) {
    const PageGeometry g = pageGeometry(options.paper);
    const bool roster = !options.roster.isEmpty();
    const int count =
        options.variants > 0 ? options.variants : (roster ? int(options.roster.size()) : 0);
    const int sheets = std::max(count, 1);
    if (count > kMaxVariants) {
        return ExportResult::failed(QStringLiteral("at most %1 variants").arg(kMaxVariants));
    }
    if (const QString why = nothingVaries(lesson, options); !why.isEmpty()) {
        return ExportResult::refused(why);
    }
    // The variants are drawn in order, each against the ones before (planVariants); computing
    // and laying them out is then done in parallel. With --variants N every question must be
    // able to reach N different answers; a roster alone takes what the ranges give.
    VariantPlan plan;
    if (ExportResult r = planVariants(lesson, options.seed, count,
                                      options.variants > 0 ? options.variants : 0, &plan);
        !r.ok()) {
        return r;
    }
    if (control.cancelled()) {
        return ExportResult::cancelled();
    }

    if (const QString tooLarge = sheetsOverMemory(
            lesson, roster ? int(options.roster.size()) : sheets, options.answers ? sheets : 0);
        !tooLarge.isEmpty()) {
        return ExportResult::refused(tooLarge);
    }

    // The lesson's own results, for the cells no variant draws (computeVariant).
    AttentionEngine engine;
    const LessonResults lessonResults = computeLesson(lesson, engine);

    // The pool's threads never expire while it lives: the documents laid out on them keep font
    // data cached per thread, so the threads must outlive the documents (declared after).
    QThreadPool pool;
    pool.setExpiryTimeout(-1);
    pool.setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
    std::vector<VariantWork> work(static_cast<size_t>(sheets));
    std::vector<PdfSection> studentSheets(roster ? size_t(options.roster.size()) : 0);

    QSemaphore finished;
    std::atomic<bool> stop{false};
    const auto cancelled = [&] { return stop.load() || control.cancelled(); };
    for (int i = 0; i < sheets; ++i) {
        runReleasing(pool, finished, stop, work[size_t(i)].status, [&, i] {
            VariantWork& w = work[size_t(i)];
            if (cancelled()) {
                return;
            }
            w.status = computeVariant(lesson, plan, count > 0 ? i + 1 : 0, count, &w.variant,
                                      &lessonResults);
            if (!w.status.ok()) {
                stop = true;
                return;
            }
            if (options.answers) {
                w.key = sheetSection(w.variant, Sheet::Key, {}, g);
            }
            if (!roster) {
                w.worksheet = sheetSection(w.variant, Sheet::Worksheet, {}, g);
            }
            // Each roster name whose sheet is this variant's (names take the variants in turn).
            for (int name = i; name < int(studentSheets.size()) && !cancelled(); name += sheets) {
                studentSheets[size_t(name)] =
                    sheetSection(w.variant, Sheet::Worksheet, options.roster[name], g);
            }
            w.answers = variantAnswers(w.variant);
            w.variant.lesson = Lesson{};
            w.variant.results = LessonResults{};
            w.variant.transformerGivens.clear();
        });
    }
    for (int done = 1; done <= sheets; ++done) {
        finished.acquire();
        control.report(done, sheets, QStringLiteral("variant %1 of %2").arg(done).arg(sheets));
    }
    for (const VariantWork& w : work) {
        if (w.status.status == ExportStatus::InvalidDocument ||
            w.status.status == ExportStatus::Failed) {
            return w.status;
        }
    }
    if (cancelled()) {
        return ExportResult::cancelled();
    }

    return writeSheets(lesson, options, g, plan, work, studentSheets, files, control);
}

ExportResult exportWorksheets(const Lesson& lesson, const WorksheetOptions& options,
                              const QString& worksheetPath, const QString& answersPath,
                              const ExportControl& control) {
    std::vector<ExportOutput> outputs{{worksheetPath, {}}};
    if (!answersPath.isEmpty()) {
        outputs.push_back({answersPath, {}});
    }
    if (!options.roster.isEmpty()) {
        outputs.push_back({rosterCsvPath(worksheetPath), {}});
    }
    for (const ExportOutput& o : outputs) {
        if (const QString problem = outputProblem(o.path); !problem.isEmpty()) {
            return ExportResult::failed(problem);
        }
    }
    WorksheetOptions o = options;
    o.answers = !answersPath.isEmpty();
    WorksheetFiles files;
    if (ExportResult r = renderWorksheets(lesson, o, &files, control); !r.ok()) {
        return r;
    }
    size_t i = 0;
    outputs[i++].bytes = files.worksheet;
    if (!answersPath.isEmpty()) {
        outputs[i++].bytes = files.answers;
    }
    if (!options.roster.isEmpty()) {
        outputs[i++].bytes = files.roster;
    }
    return writeOutputs(outputs, control);
}

} // namespace attnbook

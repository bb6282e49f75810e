#include "exports/lesson_bundle.h"

#include "files/bundle_reader.h"

#include "exports/html/lesson_html.h"
#include "exports/notebook/lesson_notebook.h"
#include "exports/paint/pdf_figures.h"
#include "exports/pdf/pdf_lesson.h"
#include "exports/worksheet/worksheet_pdf.h"
#include "files/export_output.h"

#include <QtCore/QBuffer>
#include <QtCore/QRegularExpression>

#include <cmath>

namespace attnbook {

namespace {

QString csvNumber(double v) {
    if (std::isinf(v)) {
        return v < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    }
    return QString::fromStdString(shortestDouble(v));
}

QByteArray pngBytes(const QImage& image) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

void addAttentionData(const std::string& id, const AttentionResult& r,
                      std::vector<BundleEntry>& out) {
    const QString folder = QStringLiteral("data/%1/").arg(QString::fromStdString(id));
    const QStringList rows = queryLabels(r);
    const QStringList keys = keyLabels(r);
    const auto add = [&](const QString& name, const arma::mat& m, const QStringList& rowLabels,
                         const QStringList& columnLabels = {}) {
        if (m.is_empty()) {
            return;
        }
        out.push_back(
            {folder + name + QStringLiteral(".csv"),
             matrixCsv(m, rowLabels,
                       columnLabels.isEmpty() ? coordinateLabels(int(m.n_cols)) : columnLabels)});
    };
    const auto units = [](const arma::mat& m) { return coordinateLabels(int(m.n_rows)); };
    if (!r.direct) {
        add(QStringLiteral("X0"), r.X0, rows);
        add(QStringLiteral("P"), r.P, rows);
        add(QStringLiteral("X"), r.X, rows);
    }
    add(QStringLiteral("Q"), r.Q, rows);
    add(QStringLiteral("K"), r.K, keys);
    add(QStringLiteral("V"), r.V, keys);
    for (size_t h = 0; h < r.head.size(); ++h) {
        const QString head = QStringLiteral("head%1_").arg(h);
        add(head + QStringLiteral("scores"), r.head[h].scores(), rows, keys);
        add(head + QStringLiteral("weights"), r.head[h].weights(), rows, keys);
        add(head + QStringLiteral("context"), r.head[h].context, rows,
            coordinateLabels(r.dV, int(h) * r.dV + 1));
    }
    add(QStringLiteral("concat"), r.concat, rows);
    add(QStringLiteral("output"), r.output, rows);
    const AttentionGradients& g = r.grad;
    add(QStringLiteral("grad_upstream"), g.upstream, rows);
    if (r.direct) {
        add(QStringLiteral("grad_queries"), g.queries, rows);
        add(QStringLiteral("grad_keys"), g.keys, keys);
        add(QStringLiteral("grad_values"), g.values, keys);
    } else {
        add(QStringLiteral("grad_X"), g.X, rows);
        add(QStringLiteral("grad_W_Q"), g.W_Q, units(g.W_Q));
        add(QStringLiteral("grad_W_K"), g.W_K, units(g.W_K));
        add(QStringLiteral("grad_W_V"), g.W_V, units(g.W_V));
        add(QStringLiteral("grad_W_O"), g.W_O, units(g.W_O));
        for (const auto& [name, v] :
             {std::pair<const char*, const arma::rowvec*>{"grad_b_Q", &g.b_Q},
              {"grad_b_K", &g.b_K},
              {"grad_b_V", &g.b_V},
              {"grad_b_O", &g.b_O}}) {
            add(QString::fromLatin1(name), arma::mat(*v), {QString()});
        }
    }
}

} // namespace

QByteArray matrixCsv(const arma::mat& values, const QStringList& rowLabels,
                     const QStringList& columnLabels) {
    QString csv;
    for (int c = 0; c < int(values.n_cols); ++c) {
        csv += u',' + csvField(columnLabels.value(c));
    }
    csv += QStringLiteral("\r\n");
    for (arma::uword r = 0; r < values.n_rows; ++r) {
        csv += csvField(rowLabels.value(int(r)));
        for (arma::uword c = 0; c < values.n_cols; ++c) {
            csv += u',' + csvNumber(values(r, c));
        }
        csv += QStringLiteral("\r\n");
    }
    return csv.toUtf8();
}

ExportResult lessonBundleEntries(const Lesson& lesson, const LessonResults& results,
                                 const BundleOptions& options, std::vector<BundleEntry>* entries,
                                 const ExportControl& control) {
    entries->clear();
    entries->push_back({kBundleLessonName, QByteArray::fromStdString(lesson.document.serialize())});
    // Every file a cell reads, under data/files/PATH, so that the bundle
    // reopens with no folder beside it (the manifest hashes them like the rest).
    for (const std::string& path : lessonDataFiles(lesson)) {
        std::string error;
        const std::optional<std::string> bytes =
            lesson.files ? lesson.files->read(path, DataFileLimits{}.maxBytes, error)
                         : std::nullopt;
        if (!bytes) {
            return ExportResult::failed(
                QStringLiteral("%1: cannot put it in the bundle: %2")
                    .arg(QString::fromStdString(path), QString::fromStdString(error)));
        }
        entries->push_back({kBundleDataFilesFolder + QString::fromStdString(path),
                            QByteArray::fromStdString(*bytes)});
    }
    const int steps = 4;
    control.report(0, steps, QStringLiteral("the lesson PDF"));
    QByteArray pdf;
    if (ExportResult r = renderLessonPdf(lesson, results, options.paper, &pdf); !r.ok()) {
        return r;
    }
    entries->push_back({QStringLiteral("lesson.pdf"), pdf});
    if (control.cancelled()) {
        return ExportResult::cancelled();
    }
    control.report(1, steps, QStringLiteral("the worksheet"));
    if (lessonHasWorksheet(lesson)) {
        WorksheetOptions sheets;
        sheets.paper = options.paper;
        WorksheetFiles files;
        if (ExportResult r = renderWorksheets(lesson, sheets, &files, control); !r.ok()) {
            return r;
        }
        entries->push_back({QStringLiteral("worksheet.pdf"), files.worksheet});
        entries->push_back({QStringLiteral("answers.pdf"), files.answers});
    }
    control.report(2, steps, QStringLiteral("the data"));
    for (const ComputedCell& cell : results.cells) {
        const QString id = QString::fromStdString(cell.id);
        entries->push_back({QStringLiteral("data/%1.json").arg(id),
                            QByteArray::fromStdString(cell.json.dump() + "\n")});
        if (cell.attention) {
            addAttentionData(cell.id, *cell.attention, *entries);
        }
    }
    if (control.cancelled()) {
        return ExportResult::cancelled();
    }
    control.report(3, steps, QStringLiteral("the figures"));
    for (const ComputedCell& cell : results.cells) {
        const QString id = QString::fromStdString(cell.id);
        if (cell.attention) {
            std::vector<Figure> heads;
            for (int h = 0; h < std::min(cell.attention->h, 4); ++h) {
                heads.push_back(heatmapFigure(*cell.attention, h));
            }
            entries->push_back({QStringLiteral("figures/%1-heatmap.png").arg(id),
                                pngBytes(renderFigures(heads, 2.5))});
        } else if (const LessonCell* source = lesson.cell(cell.id);
                   source && source->chart() && cell.ok) {
            const Figure chart = chartFigure(*source->chart(), cell.series, QSizeF(460, 260));
            entries->push_back({QStringLiteral("figures/%1-chart.png").arg(id),
                                pngBytes(renderFigures({chart}, 2.5))});
        }
    }
    // The lesson's Jupyter twin, which recomputes every cell in NumPy (lesson_notebook.h).
    QByteArray notebook;
    if (ExportResult r = renderLessonNotebook(lesson, results, &notebook); !r.ok()) {
        return r;
    }
    entries->push_back({QStringLiteral("lesson.ipynb"), std::move(notebook)});
    // The lesson as one offline web page (lesson_html.h).
    QByteArray html;
    if (ExportResult r = renderLessonHtml(lesson, results, &html); !r.ok()) {
        return r;
    }
    entries->push_back({QStringLiteral("lesson.html"), std::move(html)});
    control.report(steps, steps, QStringLiteral("done"));
    return control.cancelled() ? ExportResult::cancelled() : ExportResult::done();
}

ExportResult exportLessonBundle(const QString& zipPath, const Lesson& lesson,
                                const LessonResults& results, const BundleOptions& options,
                                const ExportControl& control) {
    if (const QString problem = outputProblem(zipPath); !problem.isEmpty()) {
        return ExportResult::failed(problem);
    }
    std::vector<BundleEntry> entries;
    if (ExportResult r = lessonBundleEntries(lesson, results, options, &entries, control);
        !r.ok()) {
        return r;
    }
    return writeLessonBundle(zipPath, lesson, entries);
}

ExportResult writeLessonBundle(const QString& zipPath, const Lesson& lesson,
                               const std::vector<BundleEntry>& entries) {
    BundleMetadata metadata;
    metadata.title = QString::fromStdString(lesson.title());
    metadata.appVersion = QStringLiteral(ATTNBOOK_VERSION);
    QString error;
    if (!writeBundle(zipPath, metadata, entries, &error)) {
        return ExportResult::failed(error);
    }
    return ExportResult::done();
}

std::string bundleDerivedFileProblem(const QString& zipPath, const Lesson& lesson,
                                     const LessonResults& results) {
    QString error;
    const std::optional<Bundle> bundle = readBundle(zipPath, &error);
    if (!bundle || hasErrors(lessonProblems(lesson, results))) {
        return {}; // opening it, or the lesson's own errors, reported that already
    }
    struct Derived {
        const char* name;
        const char* what;
        const char* runs;
        ExportResult (*render)(const Lesson&, const LessonResults&, QByteArray*);
    };
    const Derived derived[] = {
        {"lesson.ipynb", "the notebook", "a notebook runs code on the machine that opens it",
         [](const Lesson& l, const LessonResults& r, QByteArray* out) {
             return renderLessonNotebook(l, r, out);
         }},
        {"lesson.html", "the web page", "a web page runs script in the browser that opens it",
         [](const Lesson& l, const LessonResults& r, QByteArray* out) {
             return renderLessonHtml(l, r, out);
         }},
    };
    for (const Derived& file : derived) {
        const auto stored = bundle->entries.find(QString::fromLatin1(file.name));
        if (stored == bundle->entries.end()) {
            continue;
        }
        QByteArray made;
        if (!file.render(lesson, results, &made).ok() || made == stored->second) {
            continue;
        }
        return std::string(file.name) + " is not " + file.what +
               " of this bundle's lesson.md: it was changed after the bundle was made (" +
               file.runs + "; make the bundle again with attnbook export LESSON.md --bundle " +
               "OUT.zip)";
    }
    return {};
}

} // namespace attnbook

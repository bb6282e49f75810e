#include "exports/export_progress.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QStringList>

#include <algorithm>
#include <tuple>

namespace attnbook {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExportProgress", text);
}

} // namespace

std::pair<double, QString> ExportProgress::bundleStep(double fraction, bool page,
                                                      const QString& step, const QString& inner) {
    static const QStringList stages = {QStringLiteral("the lesson PDF"),
                                       QStringLiteral("the worksheet"), QStringLiteral("the data"),
                                       QStringLiteral("the figures"), QStringLiteral("done")};
    static const QStringList said = {
        tr("rendering the lesson PDF"), tr("rendering the worksheet and its key"),
        tr("writing the data"), tr("drawing the figures"), tr("packing the bundle")};
    // Four phases share 85 % of the bar; packing takes the rest.
    const double width = 0.85 / 4;
    if (const int s = int(stages.indexOf(step)); s >= 0) {
        bundleStage_ = s;
        return {0.05 + width * s, said[s]};
    }
    return {0.05 + width * (bundleStage_ + (page ? 0.5 + 0.5 * fraction : 0.5 * fraction)),
            said[bundleStage_] + QStringLiteral(": ") + (inner.isEmpty() ? step : inner)};
}

std::pair<double, QString> ExportProgress::map(int done, int total, const QString& step) {
    const double f = total > 0 ? std::clamp(double(done) / total, 0.0, 1.0) : 0.0;
    const bool page = step.startsWith(QLatin1String("page "));
    const bool sheet =
        step.startsWith(QLatin1String("variant ")) || step.startsWith(QLatin1String("sheet "));
    double value = last_;
    QString text;
    const QString inner = page    ? tr("painted page %1 of %2").arg(done).arg(total)
                          : sheet ? tr("laid out %1").arg(step)
                                  : QString();
    switch (kind_) {
    case ExportKind::LessonPdf:
        value = page ? 0.12 + 0.83 * f : 0.08;
        text = page ? inner : tr("laying out the lesson");
        break;
    case ExportKind::Worksheet:
        // Laying out the variants takes the first 60 %, painting the pages the rest.
        value = page ? 0.6 + 0.38 * f : sheet ? 0.05 + 0.55 * f : value;
        text = inner.isEmpty() ? step : inner;
        break;
    case ExportKind::Bundle:
        std::tie(value, text) = bundleStep(f, page, step, inner);
        break;
    case ExportKind::Notebook:
        value = 0.1 + 0.85 * f;
        text = tr("writing the notebook");
        break;
    case ExportKind::WebPage:
        value = 0.1 + 0.85 * f;
        text = tr("writing the web page");
        break;
    }
    last_ = std::max(last_, std::min(value, 0.99));
    if (!text.isEmpty()) {
        text[0] = text[0].toUpper();
    }
    return {last_, text};
}

} // namespace attnbook

#include "app/models/cell_transformer_views.h"

namespace attnbook::transformer_views {
namespace {

QVariantList numbers(const std::vector<double>& values) {
    QVariantList out;
    out.reserve(qsizetype(values.size()));
    for (const double v : values) {
        out << v;
    }
    return out;
}

} // namespace

QVariantList toVariant(const std::vector<StageRow>& rows) {
    QVariantList out;
    for (const StageRow& r : rows) {
        QVariantMap row;
        row[QStringLiteral("label")] = QString::fromStdString(r.label);
        row[QStringLiteral("values")] = numbers(r.values);
        row[QStringLiteral("norm")] = r.norm;
        if (r.change) {
            row[QStringLiteral("change")] = numbers(*r.change);
            row[QStringLiteral("changeNorm")] = r.changeNorm;
        }
        out << row;
    }
    return out;
}

QVariantList toVariant(const std::vector<FfnRow>& rows) {
    QVariantList out;
    for (const FfnRow& r : rows) {
        QVariantMap row;
        row[QStringLiteral("label")] = QString::fromStdString(r.label);
        row[QStringLiteral("values")] = numbers(r.values);
        out << row;
    }
    return out;
}

QVariantList toVariant(const std::vector<NextWord>& words) {
    QVariantList out;
    for (const NextWord& w : words) {
        QVariantMap word;
        word[QStringLiteral("word")] = QString::fromStdString(w.word);
        word[QStringLiteral("prob")] = w.prob;
        word[QStringLiteral("chosen")] = w.chosen;
        out << word;
    }
    return out;
}

QVariantMap toVariant(const std::optional<TrainingCurve>& curve) {
    QVariantMap out;
    if (!curve) {
        return out;
    }
    const auto list = [](const std::vector<double>& values) {
        QVariantList l;
        for (double v : values) {
            l << v;
        }
        return l;
    };
    out[QStringLiteral("steps")] = list(curve->steps);
    out[QStringLiteral("loss")] = list(curve->loss);
    out[QStringLiteral("heldOut")] = list(curve->heldOut);
    out[QStringLiteral("shown")] = curve->shown;
    out[QStringLiteral("shownLoss")] = curve->shownLoss;
    out[QStringLiteral("stopped")] = QString::fromStdString(curve->stopped);
    return out;
}

QVariantMap toVariant(const std::optional<KnockoutView>& view) {
    QVariantMap out;
    if (!view) {
        return out;
    }
    QVariantList bars;
    for (const KnockoutBar& b : view->bars) {
        QVariantMap bar;
        bar[QStringLiteral("part")] = QString::fromStdString(b.part);
        bar[QStringLiteral("prob")] = b.prob;
        bar[QStringLiteral("topWord")] = QString::fromStdString(b.topWord);
        bar[QStringLiteral("topChanged")] = b.topChanged;
        bars << bar;
    }
    out[QStringLiteral("row")] = view->row;
    out[QStringLiteral("word")] = QString::fromStdString(view->word);
    out[QStringLiteral("full")] = view->full;
    out[QStringLiteral("bars")] = bars;
    return out;
}

QVariantList toVariant(const std::vector<GeneratedWord>& steps) {
    QVariantList out;
    for (const GeneratedWord& s : steps) {
        QVariantMap step;
        step[QStringLiteral("word")] = QString::fromStdString(s.word);
        step[QStringLiteral("prob")] = s.prob;
        step[QStringLiteral("costCached")] = s.costCached;
        step[QStringLiteral("costFull")] = s.costFull;
        step[QStringLiteral("keys")] = s.keys;
        out << step;
    }
    return out;
}

QVariantMap toVariant(const std::optional<Blocks>& blocks) {
    QVariantMap out;
    if (!blocks) {
        return out;
    }
    QVariantList steps;
    for (const BlockStep& s : blocks->steps) {
        QVariantMap step;
        step[QStringLiteral("first")] = s.first;
        step[QStringLiteral("end")] = s.end;
        step[QStringLiteral("max")] = s.max ? QVariant(*s.max) : QVariant();
        step[QStringLiteral("total")] = s.total;
        step[QStringLiteral("out")] = numbers(s.out);
        steps << step;
    }
    out[QStringLiteral("steps")] = steps;
    out[QStringLiteral("output")] = numbers(blocks->output);
    out[QStringLiteral("plain")] = numbers(blocks->plain);
    out[QStringLiteral("difference")] = blocks->difference;
    return out;
}

} // namespace attnbook::transformer_views

#include "app/models/lesson_search.h"

#include "app/models/attention_cell_model.h"
#include "app/models/cell_list_model.h"
#include "app/models/chart_cell_model.h"
#include "app/models/lesson_session.h"
#include "app/models/quiz_cell_model.h"

#include <QTextDocument>

namespace attnbook {

LessonSearch::LessonSearch(QObject* parent) : QObject(parent) {}

void LessonSearch::setSession(LessonSession* session) {
    if (session == session_) {
        return;
    }
    if (session_) {
        disconnect(session_->cells(), nullptr, this, nullptr);
    }
    session_ = session;
    if (session_) {
        CellListModel* cells = session_->cells();
        connect(cells, &QAbstractItemModel::modelReset, this, &LessonSearch::refresh);
        connect(cells, &QAbstractItemModel::dataChanged, this, &LessonSearch::refresh);
    }
    Q_EMIT sessionChanged();
    refresh();
}

QString LessonSearch::plainText(const QString& markdown) {
    QTextDocument document;
    document.setMarkdown(markdown, QTextDocument::MarkdownDialectGitHub);
    return document.toPlainText();
}

QString LessonSearch::searchText(int row) const {
    if (!session_ || row < 0 || row >= session_->cells()->count()) {
        return {};
    }
    const CellListModel::Row& r = session_->cells()->row(row);
    const auto plain = [this](const QString& markdown) {
        auto found = plainCache_.constFind(markdown);
        if (found == plainCache_.constEnd()) {
            found = plainCache_.insert(markdown, plainText(markdown));
        }
        return *found;
    };
    if (r.kind == QLatin1String("prose")) {
        return plain(r.markdown);
    }
    QStringList lines{r.cellId};
    if (const auto* attention = qobject_cast<const AttentionCellModel*>(r.cell.data())) {
        lines << attention->tokens();
    } else if (const auto* quiz = qobject_cast<const QuizCellModel*>(r.cell.data())) {
        lines << plain(quiz->question());
        for (const QString& choice : quiz->choices()) {
            lines << plain(choice);
        }
    } else if (const auto* chart = qobject_cast<const ChartCellModel*>(r.cell.data())) {
        lines << chart->title() << chart->xLabel() << chart->yLabel();
    }
    return lines.join(u'\n');
}

void LessonSearch::collect() {
    hits_.clear();
    if (!session_ || text_.isEmpty()) {
        return;
    }
    if (plainCache_.size() > 4096) {
        plainCache_.clear(); // what-ifs rewrite prose with new numbers: keep the cache small
    }
    for (int row = 0; row < session_->cells()->count(); ++row) {
        const QString haystack = searchText(row);
        int occurrence = 0;
        for (qsizetype at = haystack.indexOf(text_, 0, Qt::CaseInsensitive); at >= 0;
             at = haystack.indexOf(text_, at + text_.size(), Qt::CaseInsensitive)) {
            hits_.push_back({row, occurrence++});
        }
    }
}

void LessonSearch::find(const QString& text, int fromRow) {
    text_ = text;
    collect();
    Q_EMIT resultsChanged();
    int first = hits_.empty() ? -1 : 0;
    for (size_t i = 0; i < hits_.size(); ++i) {
        if (hits_[i].row >= fromRow) {
            first = int(i);
            break;
        }
    }
    current_ = -2; // announce the current hit even when its index did not change
    setCurrent(first);
}

void LessonSearch::refresh() {
    if (text_.isEmpty()) {
        return;
    }
    const Hit was = current_ >= 0 ? hits_[size_t(current_)] : Hit{};
    collect();
    Q_EMIT resultsChanged();
    int index = hits_.empty() ? -1 : 0;
    for (size_t i = 0; i < hits_.size(); ++i) {
        if (hits_[i].row > was.row || hits_[i] == was) {
            index = int(i);
            break;
        }
    }
    setCurrent(index);
}

void LessonSearch::next() {
    if (hits_.empty()) {
        return;
    }
    setCurrent((current_ + 1) % int(hits_.size()));
}

void LessonSearch::previous() {
    if (hits_.empty()) {
        return;
    }
    setCurrent(current_ <= 0 ? int(hits_.size()) - 1 : current_ - 1);
}

void LessonSearch::clear() {
    text_.clear();
    hits_.clear();
    Q_EMIT resultsChanged();
    setCurrent(-1);
}

void LessonSearch::setCurrent(int index) {
    if (index == current_) {
        return;
    }
    current_ = index;
    Q_EMIT currentChanged();
}

QString LessonSearch::status() const {
    if (text_.isEmpty()) {
        return {};
    }
    if (hits_.empty()) {
        return tr("no match");
    }
    return tr("%1 of %2").arg(current_ + 1).arg(hits_.size());
}

} // namespace attnbook

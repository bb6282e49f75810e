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

std::vector<std::string> LessonSearch::rowTexts() const {
    std::vector<std::string> rows;
    if (!session_) {
        return rows;
    }
    if (plainCache_.size() > 4096) {
        plainCache_.clear(); // what-ifs rewrite prose with new numbers: keep the cache small
    }
    for (int row = 0; row < session_->cells()->count(); ++row) {
        rows.push_back(searchText(row).toCaseFolded().toStdString()); // case ignored
    }
    return rows;
}

void LessonSearch::find(const QString& text, int fromRow) {
    // Nothing typed finds nothing: no row's text is needed.
    find_.find(text.isEmpty() ? std::vector<std::string>() : rowTexts(),
               text.toCaseFolded().toStdString(), fromRow);
    Q_EMIT resultsChanged();
    Q_EMIT currentChanged(); // even when the current hit's index did not change
}

void LessonSearch::refresh() {
    if (find_.text().empty()) {
        return;
    }
    const int was = find_.current();
    find_.refresh(rowTexts());
    Q_EMIT resultsChanged();
    announce(was);
}

void LessonSearch::next() {
    const int was = find_.current();
    find_.next();
    announce(was);
}

void LessonSearch::previous() {
    const int was = find_.current();
    find_.previous();
    announce(was);
}

void LessonSearch::clear() {
    const int was = find_.current();
    find_.clear();
    Q_EMIT resultsChanged();
    announce(was);
}

void LessonSearch::announce(int was) {
    if (find_.current() != was) {
        Q_EMIT currentChanged();
    }
}

QString LessonSearch::status() const {
    return QString::fromStdString(find_.status());
}

} // namespace attnbook

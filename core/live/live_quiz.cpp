#include "core/live/live_quiz.h"

#include "core/document/bindings.h"
#include "core/document/html_comments.h"
#include "core/document/quiz_answer.h"
#include "core/math/number_format.h"

#include <optional>

namespace attnbook {

namespace {

std::string trimmed(const std::string& text) {
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// A quiz text as words: its bindings written in ("—" for one the what-if took away, as the
// page's values show it), claims and the author's notes out.
std::string plainText(const std::string& text, const LessonResults& results) {
    const std::string noNotes = withoutHtmlComments(text);
    return trimmed(substituteBindings(noNotes, scanProse(noNotes, 1), [&](const Binding& b) {
        return std::optional<std::string>(results.boundText(b).value_or("—"));
    }));
}

// The choice's letter and words: "C: It becomes zero."
std::string choiceAnswer(const QuizCellSpec& quiz, const LessonResults& results) {
    std::string out(1, char('A' + quiz.choice));
    if (quiz.choice >= 0 && size_t(quiz.choice) < quiz.choices.size()) {
        out += ": " + plainText(quiz.choices[size_t(quiz.choice)], results);
    }
    return out;
}

LiveQuizVerdict choiceVerdict(const QuizCellSpec& quiz, const LessonResults& results,
                              const std::string& given) {
    const std::string answer = choiceAnswer(quiz, results);
    const std::optional<double> index = parseAnswerNumber(given);
    if (!index || *index < 0 || *index >= double(quiz.choices.size()) || *index != int(*index)) {
        return {"unanswered", "Pick one of the choices first.", answer};
    }
    if (int(*index) == quiz.choice) {
        return {"right", "Right.", answer};
    }
    return {"wrong", "Not quite — the answer is " + answer, answer};
}

// The quiz's answer for these results: its number, or nullopt with why it has none.
std::optional<double> numberAnswer(const std::string& quizId, const QuizCellSpec& quiz,
                                   const LessonResults& results, std::string& why) {
    if (quiz.answerKind == QuizCellSpec::AnswerKind::Number) {
        return quiz.number;
    }
    // The answer `computeLesson` resolved with the quiz (resolveQuizAnswer), as `compute`
    // prints it.
    const ComputedCell* cell = results.cell(quizId);
    const Json* answer = cell ? cell->json.find("answer") : nullptr;
    if (answer && answer->isNumber()) {
        return answer->number();
    }
    std::string error;
    const std::optional<Binding> binding = parseBinding(quiz.text, error);
    why = binding ? results.value(*binding).error : error;
    return std::nullopt;
}

LiveQuizVerdict numberVerdict(const std::string& quizId, const QuizCellSpec& quiz,
                              const LessonResults& results, const std::string& given) {
    std::string why;
    const std::optional<double> answer = numberAnswer(quizId, quiz, results, why);
    if (!answer) {
        return {"unknown",
                "This question's answer cannot be computed for your what-if" +
                    (why.empty() ? std::string(".") : ": " + why),
                "—"};
    }
    const std::string shown = readableNumber(*answer, quizShownDecimals(quiz));
    const std::string typed = trimmed(given);
    if (typed.empty()) {
        return {"unanswered", "Type a number first.", shown};
    }
    std::string reason; // read as the window reads it (quiz_answer.h)
    const std::optional<double> number = readQuizAnswer(typed, reason);
    if (!number) {
        return {"not-a-number", "Not a number: " + reason + ".", shown};
    }
    if (quizAccepts(quiz, *number, *answer)) {
        return {"right", "Right — the answer is " + shown + ".", shown};
    }
    return {"wrong", "Not quite — the answer is " + shown + ".", shown};
}

} // namespace

LiveQuizVerdict liveQuizVerdict(const Lesson& lesson, const LessonResults& results,
                                const std::string& quizId, const std::string& given) {
    const LessonCell* cell = lesson.cell(quizId);
    const QuizCellSpec* quiz = cell ? cell->quiz() : nullptr;
    if (!quiz) {
        return {"unknown", "This lesson has no quiz '" + quizId + "'.", ""};
    }
    switch (quiz->answerKind) {
    case QuizCellSpec::AnswerKind::Choice:
        return choiceVerdict(*quiz, results, given);
    case QuizCellSpec::AnswerKind::Number:
    case QuizCellSpec::AnswerKind::Binding:
        return numberVerdict(quizId, *quiz, results, given);
    case QuizCellSpec::AnswerKind::Text:
        break;
    }
    // Free text is not judged: the sample answer is there to compare with.
    const std::string sample = plainText(quiz->text, results);
    if (trimmed(given).empty()) {
        return {"unanswered", "Write your answer first.", sample};
    }
    return {"sample", "Compare yours with the sample answer below.", sample};
}

Json liveQuizVerdictJson(const LiveQuizVerdict& verdict) {
    Json out = Json::object();
    out.set("verdict", verdict.verdict);
    out.set("says", verdict.says);
    out.set("answer", verdict.answer);
    return out;
}

std::vector<BindingPath> quizAnswerPaths(const Lesson& lesson) {
    std::vector<BindingPath> paths;
    for (const LessonCell& cell : lesson.cells) {
        const QuizCellSpec* quiz = cell.quiz();
        if (!quiz || quiz->answerKind != QuizCellSpec::AnswerKind::Binding) {
            continue;
        }
        std::string error;
        if (const std::optional<Binding> binding = parseBinding(quiz->text, error)) {
            paths.insert(paths.end(), binding->paths.begin(), binding->paths.end());
        }
    }
    return paths;
}

} // namespace attnbook

// Checking a lesson's prose and quizzes against its results (checkLesson), and every problem of
// a lesson in line order (lessonProblems): bindings that do not resolve, false claims, quizzes
// about missing cells and hand-typed computed numbers, each folded with the cell it reads past
// the end of (past_the_end.h).
#include "core/document/lesson.h"

#include "core/document/bindings.h"
#include "core/document/expression.h"
#include "core/document/past_the_end.h"
#include "core/document/typed_numbers.h"

#include <algorithm>
#include <tuple>

namespace attnbook {

namespace {

class LessonChecker {
  public:
    LessonChecker(const Lesson& lesson, const LessonResults& results, FalseClaims falseClaims)
        : lesson_(lesson), results_(results), falseClaims_(falseClaims) {}

    void checkText(std::string_view text, int firstLine, int firstColumn,
                   const std::vector<LineRange>& codeLines, const std::string& cellId) {
        for (const ProsePiece& piece : scanProse(text, firstLine, firstColumn, codeLines)) {
            switch (piece.kind) {
            case ProsePiece::Kind::Binding:
                checkBinding(piece, cellId);
                break;
            case ProsePiece::Kind::Malformed:
                add(Severity::Error, piece, "malformed binding: " + piece.error, cellId);
                break;
            case ProsePiece::Kind::Unclosed:
                add(Severity::Warning, piece,
                    "'{{' is never closed with '}}', so it shows as typed (write {{{{ for "
                    "literal braces)",
                    cellId);
                break;
            default:
                break;
            }
        }
    }

    std::vector<CheckedProblem> take() { return std::move(out_); }

  private:
    void add(Severity severity, const ProsePiece& piece, const std::string& message,
             const std::string& cellId, const std::string& pastTheEndOf = {}) {
        out_.push_back({{severity, piece.line, piece.column, message, cellId}, pastTheEndOf});
    }

    // A binding that does not resolve, or a claim that is false, is an error.
    void checkBinding(const ProsePiece& piece, const std::string& cellId) {
        const Binding& binding = piece.binding;
        for (const BindingPath& path : binding.paths) {
            const LessonCell* target = lesson_.cell(path.cellId);
            const ComputedCell* computed = results_.cell(path.cellId);
            if (target && (!computed || !computed->ok)) {
                return; // the cell's own error says why it has no values
            }
        }
        if (binding.claim) {
            const ClaimVerdict verdict = evaluateClaim(binding, results_.lookup());
            if (!verdict.error.empty() && falseClaims_ == FalseClaims::AreErrors) {
                add(Severity::Error, piece,
                    "claim {{? " + binding.expression + "}}: " + verdict.error, cellId,
                    cellReadPastItsEnd(results_, binding));
            } else if (!verdict.holds && falseClaims_ == FalseClaims::AreErrors) {
                add(Severity::Error, piece,
                    "claim is false: " + binding.expression + " (" + verdict.sides + ")", cellId);
            }
            return;
        }
        const BindingValue value = results_.value(binding);
        if (!value.value && falseClaims_ != FalseClaims::AreListedWithBrokenBindings) {
            add(Severity::Error, piece, "binding {{" + binding.expression + "}}: " + value.error,
                cellId, cellReadPastItsEnd(results_, binding));
        }
    }

    const Lesson& lesson_;
    const LessonResults& results_;
    FalseClaims falseClaims_;
    std::vector<CheckedProblem> out_;
};

// checkLesson's problems before folding, each with the cell it reads past the end of.
std::vector<CheckedProblem> checkedProblems(const Lesson& lesson, const LessonResults& results,
                                            FalseClaims falseClaims) {
    LessonChecker checker(lesson, results, falseClaims);
    for (const Segment& segment : lesson.document.segments) {
        if (!segment.isCell()) {
            const ProseBlock& prose = segment.prose();
            checker.checkText(prose.text, prose.firstLine, 1, lesson.document.codeBlocks, "");
        }
    }
    std::vector<Diagnostic> subjects;
    for (const LessonCell& cell : lesson.cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            if (!quiz->cell.empty() && !lesson.cell(quiz->cell)) {
                const FilePosition at = cell.read().positions.of("cell");
                subjects.push_back({Severity::Error, at.line, at.column,
                                    "cell: there is no cell '" + quiz->cell + "' to ask about",
                                    cell.id});
            }
            const auto check = [&](const std::string& key, const std::string& text) {
                const FilePosition at = cell.read().positions.of(key);
                checker.checkText(text, at.line, at.column, {}, cell.id);
            };
            check("question", quiz->question);
            check("explain", quiz->explain);
            for (const std::string& choice : quiz->choices) {
                check("choices", choice);
            }
        }
    }
    std::vector<CheckedProblem> out = checker.take();
    for (const Diagnostic& subject : subjects) {
        out.push_back({subject, {}});
    }
    for (const TypedNumber& site : findTypedNumbers(lesson, results)) {
        out.push_back({site.diagnostic(), {}});
    }
    return out;
}

} // namespace

std::vector<Diagnostic> checkLesson(const Lesson& lesson, const LessonResults& results,
                                    FalseClaims falseClaims) {
    return foldPastTheEnd(checkedProblems(lesson, results, falseClaims));
}

namespace {

// Whether `d` is resolveQuizAnswer's error for a quiz whose answer binding did not resolve.
bool isUnresolvedAnswer(const Lesson& lesson, const LessonResults& results, const Diagnostic& d) {
    const LessonCell* cell = lesson.cell(d.cellId);
    const QuizCellSpec* quiz = cell ? cell->quiz() : nullptr;
    const ComputedCell* computed = results.cell(d.cellId);
    if (d.severity != Severity::Error || !quiz ||
        quiz->answerKind != QuizCellSpec::AnswerKind::Binding || !computed) {
        return false;
    }
    const Json* answer = computed->json.find("answer");
    const FilePosition at = cell->read().positions.of("answer");
    return answer && answer->isNull() && d.line == at.line && d.column == at.column;
}

// The cell a quiz's answer binding reads past the end of, when `d` is that answer's error.
std::string answerPastTheEnd(const Lesson& lesson, const LessonResults& results,
                             const Diagnostic& d) {
    if (!isUnresolvedAnswer(lesson, results, d)) {
        return {};
    }
    std::string error;
    const std::optional<Binding> binding = parseBinding(lesson.cell(d.cellId)->quiz()->text, error);
    return binding ? cellReadPastItsEnd(results, *binding) : std::string();
}

} // namespace

std::vector<Diagnostic> lessonProblems(const Lesson& lesson, const LessonResults& results,
                                       FalseClaims falseClaims) {
    std::vector<CheckedProblem> all;
    for (const Diagnostic& d : lesson.diagnostics) {
        all.push_back({d, {}});
    }
    for (const Diagnostic& d : results.diagnostics) {
        if (falseClaims != FalseClaims::AreListedWithBrokenBindings ||
            !isUnresolvedAnswer(lesson, results, d)) {
            all.push_back({d, answerPastTheEnd(lesson, results, d)});
        }
    }
    const std::vector<CheckedProblem> lint = checkedProblems(lesson, results, falseClaims);
    all.insert(all.end(), lint.begin(), lint.end());
    std::stable_sort(all.begin(), all.end(), [](const CheckedProblem& a, const CheckedProblem& b) {
        return std::tie(a.diagnostic.line, a.diagnostic.column) <
               std::tie(b.diagnostic.line, b.diagnostic.column);
    });
    return foldPastTheEnd(all);
}

} // namespace attnbook

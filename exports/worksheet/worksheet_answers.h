#pragma once
// The answers a worksheet asks for, as its key prints them: what two variants should not share
// (docs/worksheets.md, "Variants"). A numeric quiz has one answer; an attention exercise has
// one, every blank box at once; a transformer exercise one per part. Multiple-choice
// and free-text quizzes are not here: their choices are shuffled instead (choiceOrder).

#include "exports/worksheet/worksheet_variants.h"

#include <string>
#include <vector>

namespace attnbook {

struct SheetAnswer {
    std::string question; // "quiz blue_self_score", "exercise colour", "exercise lm (a)"
    std::string text;     // as the key prints it
};

// A numeric quiz's answer as the key prints it: at the decimals its answer asks for (the
// binding's digits, 4 by default, or as the author typed it), the same in every variant, so that
// one key never says "3" where the next says "2.5000".
std::string quizAnswerText(const QuizCellSpec& quiz, double value);

// Is this quiz answered with a number (typed or bound)?
bool isNumericQuiz(const QuizCellSpec& quiz);

// The answers of `cell`'s exercise, computed as `computed`; none when the cell is not an
// exercise or did not compute.
std::vector<SheetAnswer> exerciseAnswers(const LessonCell& cell, const ComputedCell& computed,
                                         const TransformerSheetGivens& givens);

// The answers of the numeric quizzes about `cellId` (quizSubject), resolved against `results`;
// a quiz whose answer does not resolve there (it binds another cell) is left out.
std::vector<SheetAnswer> quizAnswersAbout(const Lesson& lesson, const std::string& cellId,
                                          const LessonResults& results);

// Every answer of one computed variant, in the order the sheet asks them.
std::vector<SheetAnswer> variantAnswers(const WorksheetVariant& variant);

} // namespace attnbook

#pragma once
// Whether `check --fix` may bind a hand-typed number. A typed number that equals a
// cell's value in the lesson as written may still be that value only by coincidence: "which
// gives 0.5" may be a share the author worked out that happens to equal the scale 1/√4.
// --fix binds it only when the relationship holds in every what-if of the sweep and every
// worksheet variant it is shown: a computed number (not a vector, not an input the author
// typed into the cell) that stays put while a number of its cell bound in the same paragraph or
// quiz changes is a constant beside numbers that vary, and taken for a coincidence. The site is
// then reported with the setting that shows it and left as typed.
//
// Two values of the cell that show the same number are not taken for a coincidence: under
// one-hot vectors and identity projections, weights, context rows and the vectors themselves
// agree by construction and part under any token edit, and the binding rule's choice (the
// earliest stage, the first entry) is what an author restating a number means.

#include "core/document/lesson.h"
#include "core/document/typed_numbers.h"

#include <string>
#include <vector>

namespace attnbook {

class CoincidenceCheck {
  public:
    CoincidenceCheck(const LessonResults& lesson, std::vector<TypedNumber> sites);

    // The lesson's results under one what-if or variant, named by `setting`
    // ("playground.tokens=[red, blue] (remove token 3)", "worksheet variant 2").
    void observe(const LessonResults& other, const std::string& setting);

    // Why site i is a coincidence, or "" when its binding held in everything observed.
    const std::string& why(size_t i) const { return why_[i]; }
    const std::vector<TypedNumber>& sites() const { return sites_; }

  private:
    std::vector<TypedNumber> sites_;
    std::vector<std::string> why_;
    // Per site: the chosen value's text and each neighbour's text in the lesson as written.
    std::vector<std::string> candidateBefore_;
    std::vector<std::vector<Binding>> neighbours_; // of the chosen value's cell
    std::vector<std::vector<std::string>> neighboursBefore_;
};

} // namespace attnbook

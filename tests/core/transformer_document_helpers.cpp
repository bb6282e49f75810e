// The shared computing of transformer_document_helpers.h.
#include "transformer_document_helpers.h"

#include <utility>

namespace attnbook::test {

std::string describe(const std::vector<Diagnostic>& all) {
    std::string out;
    for (const Diagnostic& d : all) {
        out += formatDiagnostic("f.md", d) + "\n";
    }
    return out;
}

Computed compute(Lesson lesson) {
    AttentionEngine engine;
    Computed c{std::move(lesson), {}, {}};
    c.results = computeLesson(c.lesson, engine);
    c.problems = lessonProblems(c.lesson, c.results);
    return c;
}

} // namespace attnbook::test

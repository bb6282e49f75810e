// libFuzzer target: the document reader, the whole way a lesson goes in `check` and `compute`
// (parse, read cells, compute under tight cost limits, check bindings, print JSON, write back).
// Crashes, hangs, sanitizer reports and uncaught exceptions are findings.
#include "core/document/lesson.h"
#include "tests/fuzz/fuzz_lesson.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool ready = (attnbook::fuzz::setFuzzLimits(), true);
    (void)ready;
    using namespace attnbook;
    const fuzz::ComputedInput input = fuzz::computedLesson(data, size); // checked too
    (void)lessonJson(input.lesson, input.results).dump();
    (void)input.lesson.document.serialize();
    return 0;
}

// libFuzzer target: the document reader, the whole way a lesson goes in `check` and `compute`
// (parse, read cells, compute under tight cost limits, check bindings, print JSON, write back).
// Crashes, hangs, sanitizer reports and uncaught exceptions are findings.
#include "core/document/cell_cost.h"
#include "core/document/data_files.h"
#include "core/document/lesson.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

// Small limits: every input computes in milliseconds, so the fuzzer explores the reader.
void setFuzzLimits() {
    attnbook::CostLimits limits;
    limits.maxBytes = 64.0 * 1024 * 1024;
    limits.maxMultiplyAdds = 2e7;
    limits.maxJsonBytes = 4.0 * 1024 * 1024;
    attnbook::setCostLimits(limits);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool ready = (setFuzzLimits(), true);
    (void)ready;
    using namespace attnbook;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    // No {file: PATH} value reads the disk: an empty folder in memory.
    const Lesson lesson = parseLesson(bytes, "fuzz.md", memoryDataFiles({}));
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    (void)checkLesson(lesson, results);
    (void)lessonJson(lesson, results).dump();
    (void)lesson.document.serialize();
    return 0;
}

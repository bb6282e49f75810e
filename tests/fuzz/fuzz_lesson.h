#pragma once
// What every fuzz target of a lesson shares: small limits, so that every input computes in
// milliseconds and the fuzzer explores the code rather than the arithmetic, and the way in (a
// lesson read from the input's bytes with no data file on disk, then computed).

#include "core/document/cell_cost.h"
#include "core/document/data_files.h"
#include "core/document/lesson.h"
#include "core/math/attention_engine.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace attnbook::fuzz {

inline void setFuzzLimits() {
    CostLimits limits;
    limits.maxBytes = 64.0 * 1024 * 1024;
    limits.maxMultiplyAdds = 2e7;
    limits.maxJsonBytes = 4.0 * 1024 * 1024;
    setCostLimits(limits);
}

struct ComputedInput {
    Lesson lesson;
    LessonResults results;
    bool clean = false; // read and computed without an error
};

// The input as a lesson (no {file: PATH} value reads the disk: an empty folder in memory),
// computed.
inline ComputedInput computedLesson(const std::uint8_t* data, std::size_t size) {
    ComputedInput out;
    out.lesson = parseLesson(std::string(reinterpret_cast<const char*>(data), size), "fuzz.md",
                             memoryDataFiles({}));
    AttentionEngine engine;
    out.results = computeLesson(out.lesson, engine);
    out.clean = !hasErrors(lessonProblems(out.lesson, out.results));
    return out;
}

} // namespace attnbook::fuzz

// libFuzzer target: `--set ID.KEY=YAML` values (app/what_if.h) applied to a small lesson
// through the cell editor, then recomputed under tight cost limits.
#include "core/document/data_files.h"
#include "core/live/what_if.h"
#include "tests/fuzz/fuzz_lesson.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const char* const kLesson = "# Set\n\n```attention colour\ntokens: [red, blue, red]\nvocab:\n"
                            "  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\n```\n\n"
                            "```chart c\nx: {var: n, from: 1, to: 10, points: 5}\n"
                            "series:\n  - {label: a, y: n}\n```\n\n"
                            "```quiz q\nquestion: Which?\nchoices: [a, b]\nanswer: 0\n```\n";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace attnbook;
    static const Lesson lesson = [] {
        fuzz::setFuzzLimits();
        return parseLesson(kLesson, "set.md", memoryDataFiles({}));
    }();
    // Each line is one --set argument.
    std::vector<SetOption> sets;
    const std::string text(reinterpret_cast<const char*>(data), size);
    size_t start = 0;
    while (start <= text.size() && sets.size() < 8) {
        const size_t end = std::min(text.find('\n', start), text.size());
        std::string error;
        if (const std::optional<SetOption> set =
                parseSetOption(text.substr(start, end - start), error)) {
            sets.push_back(*set);
        }
        start = end + 1;
    }
    AttentionEngine engine;
    const WhatIf whatIf = applyWhatIf(lesson, sets, engine);
    (void)lessonJson(whatIf.lesson, whatIf.results).dump();
    return 0;
}

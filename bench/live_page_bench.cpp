// The live web page's question timed natively, for the wasm/native ratio of the page's
// benchmark (tests/exports/live_page_check.py --bench runs this with the same what-ifs):
//
//   attnbook-live-page-bench LESSON.md [WORDS]...
//
// WORDS is one what-if list, its `compute --set` words joined by '\n' ("" for none). For each,
// a session of its own (LivePageSession, as the page's module holds one) answers it once
// after opening, and the time of that answer is printed, one line per list: "FIRST WHOLE WORDS",
// FIRST with the gradient checks left for later (what the page shows first), WHOLE with them.
#include "core/document/data_files.h"
#include "core/document/lesson.h"
#include "core/live/live_page.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) {
            lines.push_back(line);
        }
    }
    return lines;
}

} // namespace

int main(int argc, char** argv) {
    using namespace attnbook;
    if (argc < 2) {
        std::fprintf(stderr, "usage: attnbook-live-page-bench LESSON.md [WORDS]...\n");
        return 2;
    }
    std::ifstream file(argv[1], std::ios::binary);
    std::stringstream bytes;
    bytes << file.rdbuf();
    // As the page asks: first with the gradient checks left for later, then (when something
    // waits for them) again with them.
    const auto timed = [&](const std::vector<std::string>& words, LiveChecks checks) {
        LivePageSession session(parseLesson(bytes.str(), argv[1], dataFilesBeside(argv[1])));
        const auto start = std::chrono::steady_clock::now();
        session.answer(words, checks);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    };
    for (int i = 2; i < argc; ++i) {
        const std::vector<std::string> words = linesOf(argv[i]);
        std::printf("%.3f %.3f %s\n", timed(words, LiveChecks::Later),
                    timed(words, LiveChecks::Now), words.empty() ? "" : words.front().c_str());
    }
    return 0;
}

// The browser's entry to attnbook's core: `attnbook compute` without a file system.
//
//   const core = await createAttnbookCore();
//   const r = core.compute(markdownText, "attention.md", {"data/tiny/model.safetensors": bytes});
//   r.exitCode  0 done, 3 the document is invalid (as the command line's)
//   r.stdout    the JSON `attnbook compute FILE` prints (with its final newline), or ""
//   r.stderr    FILE:LINE:COLUMN: error: MESSAGE lines, or the exception's message
//   r.millis    the time the core took (parse, compute, check, JSON)
//
// `files` maps each {file: PATH} a lesson reads (PATH as written in the lesson) to its bytes
// (Uint8Array, ArrayBuffer or string). It follows computeCommand (app/cli/command_line.cpp)
// without --set and --cell: the lesson is refused on any error of its own, of its cells or of
// its bindings and claims; warnings are not printed.
#include "core/document/data_files.h"
#include "core/document/diagnostic.h"
#include "core/document/lesson.h"
#include "core/math/attention_engine.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <string>

namespace {

using namespace attnbook;
using emscripten::val;

constexpr int kExitDone = 0;
constexpr int kExitInvalidDocument = 3;
constexpr int kExitFailed = 4; // an exception escaped the core (the command line would abort)

std::map<std::string, std::string> filesOf(const val& files) {
    std::map<std::string, std::string> out;
    if (files.isUndefined() || files.isNull()) {
        return out;
    }
    const val keys = val::global("Object").call<val>("keys", files);
    const int count = keys["length"].as<int>();
    for (int i = 0; i < count; ++i) {
        const std::string path = keys[i].as<std::string>();
        out[path] = files[path].as<std::string>(); // embind takes a string or a byte array
    }
    return out;
}

std::string errorLines(const std::string& path, const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::Error) {
            out += formatDiagnostic(path, d) + "\n";
        }
    }
    return out;
}

val result(int exitCode, const std::string& out, const std::string& err, double millis) {
    val r = val::object();
    r.set("exitCode", exitCode);
    r.set("stdout", out);
    r.set("stderr", err);
    r.set("millis", millis);
    return r;
}

val compute(const std::string& markdown, const std::string& path, const val& files) {
    const auto start = std::chrono::steady_clock::now();
    const auto millis = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    };
    try {
        Lesson lesson = parseLesson(markdown, path, memoryDataFiles(filesOf(files)));
        if (hasErrors(lesson.diagnostics)) {
            return result(kExitInvalidDocument, "", errorLines(path, lesson.diagnostics), millis());
        }
        AttentionEngine engine;
        const LessonResults results = computeLesson(lesson, engine);
        const std::vector<Diagnostic> problems =
            lessonProblems(lesson, results, FalseClaims::AreErrors);
        if (hasErrors(problems)) {
            return result(kExitInvalidDocument, "", errorLines(path, problems), millis());
        }
        const std::string json = lessonJson(lesson, results).dump() + "\n";
        return result(kExitDone, json, "", millis());
    } catch (const std::exception& e) {
        return result(kExitFailed, "", std::string("attnbook: ") + e.what() + "\n", millis());
    }
}

} // namespace

EMSCRIPTEN_BINDINGS(attnbook_core) {
    emscripten::function("compute", &compute);
}

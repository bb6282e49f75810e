// The live web page's module (docs/web-page.md): the lesson's core compiled to WebAssembly,
// behind five C functions the page script (exports/html/live_page.js) calls through
// emscripten's ccall. No embind: its glue builds functions with `new Function`, which the
// page's Content-Security-Policy forbids.
//
//   attnbook_add_file(PATH, BYTES, SIZE)  a {file: PATH} the lesson reads, before opening it
//   attnbook_open(MARKDOWN, PATH)         reads and computes the lesson: "" or its errors
//   attnbook_live(WORDS, LATER)           WORDS: a JSON array of `compute --set` words; the
//                                         answer of livePage (core/live/live_page.h) as JSON;
//                                         LATER 1: the gradient checks left for a second call
//                                         (LiveChecks::Later), which the page makes after
//                                         showing the first answer
//   attnbook_quiz(ID, GIVEN)              the reader's answer GIVEN to quiz ID, judged for the
//                                         what-ifs last asked of attnbook_live: the verdict
//                                         of core/live/live_quiz.h as JSON
//   attnbook_controls(WORDS, CELL, EDIT)  cell CELL's controls under the what-ifs WORDS (the
//                                         words the last answer applied), and with EDIT (a
//                                         JSON object, ReaderEdit of core/live/reader_controls.h;
//                                         "" for none) the words the reader's change gives:
//                                         {"controls", "set", "why"}; with the change made,
//                                         "controls" shows it
//
// The strings returned stay valid until the next call.
#include "core/document/data_files.h"
#include "core/document/diagnostic.h"
#include "core/document/lesson.h"
#include "core/live/live_page.h"
#include "core/live/live_quiz.h"
#include "core/live/reader_controls.h"

#include <emscripten/emscripten.h>
#include <nlohmann/json.hpp>

#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace attnbook;

struct ModuleState {
    std::map<std::string, std::string> files;
    std::unique_ptr<LivePageSession> session;
    std::string answer;
};

ModuleState& state() {
    static ModuleState s;
    return s;
}

// The words of a JSON array of strings (JSON.stringify of the page's list); anything else
// gives none.
std::vector<std::string> wordsOf(const char* json) {
    const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
    std::vector<std::string> words;
    if (parsed.is_array()) {
        for (const nlohmann::json& word : parsed) {
            if (word.is_string()) {
                words.push_back(word.get<std::string>());
            }
        }
    }
    return words;
}

// A reader's change of a control, as the page sends it: {"control", "op", "index", "to",
// "word", "number"}; a member missing or of another type keeps its default.
ReaderEdit editOf(const nlohmann::json& json) {
    ReaderEdit edit;
    const auto text = [&](const char* key, std::string& out) {
        if (json.contains(key) && json[key].is_string()) {
            out = json[key].get<std::string>();
        }
    };
    const auto number = [&](const char* key, auto& out) {
        if (json.contains(key) && json[key].is_number()) {
            out = json[key].get<std::remove_reference_t<decltype(out)>>();
        }
    };
    text("control", edit.control);
    text("op", edit.op);
    text("word", edit.word);
    number("index", edit.index);
    number("to", edit.to);
    number("number", edit.number);
    return edit;
}

} // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void attnbook_add_file(const char* path, const char* bytes, int size) {
    state().files[path] = std::string(bytes, size_t(size));
}

EMSCRIPTEN_KEEPALIVE const char* attnbook_open(const char* markdown, const char* path) {
    ModuleState& s = state();
    s.answer.clear();
    try {
        auto lesson =
            std::make_unique<Lesson>(parseLesson(markdown, path, memoryDataFiles(s.files)));
        for (const Diagnostic& d : lesson->diagnostics) {
            if (d.severity == Severity::Error) {
                s.answer += formatDiagnostic(path, d) + "\n";
            }
        }
        if (s.answer.empty()) {
            s.session = std::make_unique<LivePageSession>(std::move(*lesson));
        }
    } catch (const std::exception& e) {
        s.answer = std::string("attnbook: ") + e.what();
    }
    return s.answer.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* attnbook_live(const char* wordsJson, int later) {
    ModuleState& s = state();
    if (!s.session) {
        s.answer = "{\"error\": \"no lesson is open\"}";
        return s.answer.c_str();
    }
    try {
        s.answer = livePageJson(s.session->answer(wordsOf(wordsJson),
                                                  later ? LiveChecks::Later : LiveChecks::Now))
                       .dump();
    } catch (const std::exception& e) {
        s.answer = "{\"error\": \"the core failed\"}";
    }
    return s.answer.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* attnbook_quiz(const char* quizId, const char* given) {
    ModuleState& s = state();
    if (!s.session) {
        s.answer = "{\"error\": \"no lesson is open\"}";
        return s.answer.c_str();
    }
    try {
        s.answer = liveQuizVerdictJson(liveQuizVerdict(s.session->lesson(),
                                                       s.session->currentResults(), quizId, given))
                       .dump();
    } catch (const std::exception& e) {
        s.answer = "{\"error\": \"the core failed\"}";
    }
    return s.answer.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* attnbook_controls(const char* wordsJson, const char* cellId,
                                                   const char* editJson) {
    ModuleState& s = state();
    if (!s.session) {
        s.answer = "{\"error\": \"no lesson is open\"}";
        return s.answer.c_str();
    }
    try {
        const std::optional<LessonCell> cell =
            s.session->cellUnderWhatIfs(wordsOf(wordsJson), cellId);
        if (!cell) {
            s.answer = "{\"error\": \"no such cell, or the what-ifs do not apply\"}";
            return s.answer.c_str();
        }
        nlohmann::json out;
        out["set"] = nlohmann::json::array();
        out["why"] = "";
        const nlohmann::json edit = nlohmann::json::parse(editJson, nullptr, false);
        std::optional<ReaderControls> after;
        if (edit.is_object()) {
            std::string why;
            ReaderControls made;
            const auto keys = readerEditKeys(*cell, editOf(edit), why, &made);
            out["why"] = why;
            if (keys) {
                for (const auto& [key, yaml] : *keys) {
                    out["set"].push_back(cell->id + "." + key + "=" + yaml);
                }
                after = std::move(made);
            }
        }
        // With an edit made: what the controls show once its words are in force.
        out["controls"] = nlohmann::json::parse(
            readerControlsJson(after ? *after : readerControls(*cell)).dump());
        s.answer = out.dump();
    } catch (const std::exception& e) {
        s.answer = "{\"error\": \"the core failed\"}";
    }
    return s.answer.c_str();
}

} // extern "C"

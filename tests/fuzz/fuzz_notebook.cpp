// libFuzzer target: lesson → Jupyter notebook (exports/notebook/lesson_notebook.h). Any lesson
// that reads and computes without errors is made into a notebook, and every code cell is
// lexed as Python would lex it: a finding is a code cell where lesson text escaped its string
// literal, i.e. where
//   - a line ends inside a string literal, or holds a control character or a non-ASCII byte
//     outside a string literal or a comment (lesson text reaches code only as literals), or
//   - a comment holds anything but the generator's own words and string literals (a
//     comment's text past a line break would be code).
// The full property (each cell's syntax tree has the benign lesson's shape, and the notebook
// runs) is test_notebook_hostile's, with Python's own parser; this target checks the lexical
// part of it in process, fast enough to fuzz.
#include "exports/notebook/lesson_notebook.h"

#include "tests/fuzz/fuzz_lesson.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

namespace {

// Whether one line of generated Python keeps lesson text inside string literals: no control
// character anywhere (a \r or \f would start a new line for Python or for a reader), every
// literal closed on its line, and nothing but ASCII outside literals and the comment.
bool lineIsSafe(const std::string& line) {
    bool inString = false;
    bool inComment = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            return false;
        }
        if (inComment) {
            continue; // the generator's words (× ÷ √ ∂ in UTF-8) and literals
        }
        if (inString) {
            if (c == '\\') {
                ++i; // an escape: the next byte is part of the literal
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '#') {
            inComment = true;
        } else if (c >= 0x80) {
            return false; // non-ASCII outside a literal or a comment is lesson text
        }
    }
    return !inString;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool ready = (attnbook::fuzz::setFuzzLimits(), true);
    (void)ready;
    using namespace attnbook;
    const fuzz::ComputedInput input = fuzz::computedLesson(data, size);
    if (!input.clean) {
        return 0;
    }
    QByteArray notebook;
    if (!renderLessonNotebook(input.lesson, input.results, &notebook).ok()) {
        return 0;
    }
    const QJsonObject root = QJsonDocument::fromJson(notebook).object();
    if (root.isEmpty()) {
        std::abort(); // the notebook is not JSON
    }
    bool functions = true; // the first code cell: the notebook's own functions, no lesson text
    for (const QJsonValue& cell : root.value(QStringLiteral("cells")).toArray()) {
        if (cell.toObject().value(QStringLiteral("cell_type")).toString() !=
            QLatin1String("code")) {
            continue;
        }
        if (std::exchange(functions, false)) {
            continue;
        }
        for (const QJsonValue& line : cell.toObject().value(QStringLiteral("source")).toArray()) {
            std::string text = line.toString().toStdString();
            if (!text.empty() && text.back() == '\n') {
                text.pop_back();
            }
            if (!lineIsSafe(text)) {
                std::abort(); // lesson text escaped its literal
            }
        }
    }
    return 0;
}

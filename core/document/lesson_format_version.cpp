#include "core/document/lesson_format_version.h"

#include <string>

namespace attnbook {

std::optional<Diagnostic> lessonFormatProblem(const YamlNode& frontMatter) {
    const YamlNode* stated = frontMatter.isMap() ? frontMatter.find(kLessonFormatKey) : nullptr;
    if (!stated) {
        return std::nullopt;
    }
    const std::string& text = stated->scalar;
    // `1` or `"1"`: a version written in quotes is still that version.
    const bool whole = stated->isScalar() && !text.empty() && text.size() <= 6 &&
                       text.find_first_not_of("0123456789") == std::string::npos;
    const int version = whole ? std::stoi(text) : 0;
    if (version < 1) {
        return Diagnostic{Severity::Error, stated->at.line, stated->at.column,
                          std::string(kLessonFormatKey) +
                              " is the version of the lesson format, a whole number from 1 (" +
                              kLessonFormatKey + ": " + std::to_string(kLessonFormatVersion) +
                              "), not " + stated->describe(),
                          ""};
    }
    if (version > kLessonFormatVersion) {
        return Diagnostic{Severity::Error, stated->at.line, stated->at.column,
                          "this lesson is written for version " + text +
                              " of the lesson format, and this attnbook reads up to version " +
                              std::to_string(kLessonFormatVersion) +
                              ": open it with a newer attnbook",
                          ""};
    }
    return std::nullopt;
}

} // namespace attnbook

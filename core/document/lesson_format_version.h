#pragma once
// The version of the lesson format (docs/lesson-format.md "Version"): a lesson may say in its
// front matter which version it was written for, `attnbook-format: 1`; a lesson that says
// nothing is read as version 1. A lesson written for a newer version is refused with a clear
// error rather than read wrongly.

#include "core/document/diagnostic.h"
#include "core/document/yaml_tree.h"

#include <optional>

namespace attnbook {

// The newest version of the format this program reads.
inline constexpr int kLessonFormatVersion = 1;
// The front matter key that states it (namespaced: `format` means other things to other tools).
inline constexpr const char* kLessonFormatKey = "attnbook-format";

// What is wrong with the version that FRONTMATTER states (not a whole number from 1, or newer
// than kLessonFormatVersion), or nullopt when it states none or one this program reads.
std::optional<Diagnostic> lessonFormatProblem(const YamlNode& frontMatter);

} // namespace attnbook

#pragma once
// Where a lesson comes from: a `.md` file, or the lesson inside a bundle.

#include "core/document/lesson.h"

#include <string>

namespace attnbook {

// Loads FILE as cli.md says ("FILE may always be a bundle"). A bundle that
// is unsafe or damaged gives one diagnostic naming it. The lesson's `files` is
// where its {file: PATH} values came from (the folder of FILE, the bundle's
// data/files/, or the data beside a bundled ":/documents/..." lesson): pass it to
// every re-read of the lesson.
Lesson openLessonSource(const std::string& path);

bool isBundlePath(const std::string& path);

// Writes `bytes` to `path` by the output policy (files/output_policy.h):
// atomically, links resolved, only over a regular file, keeping its owner,
// group and mode. On failure returns false with a message naming the path and
// the reason; an existing file at `path` is left as it was.
bool writeFileAtomically(const std::string& path, const std::string& bytes, std::string& error);

} // namespace attnbook

#pragma once

#include <QStringList>

namespace attnbook {

// Opens the notebook window on FILE (or the bundled default lesson) and runs
// the event loop; returns the exit code. Needs a QApplication.
int runWindow(const QStringList& arguments);

} // namespace attnbook

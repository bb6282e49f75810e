#pragma once

#include <QStringList>

namespace attnbook {

// `attnbook shot ...` (cli.md); `arguments` start with "shot". Returns the exit code.
int runShotCommand(const QStringList& arguments);

} // namespace attnbook

#pragma once

#include <QStringList>

namespace attnbook {

// `attnbook export ...` (cli.md); `arguments` start with "export". Returns the exit code.
int runExportCommand(const QStringList& arguments);

} // namespace attnbook

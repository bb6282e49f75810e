#pragma once
// The headless commands of cli.md: compute, check, edit, new, export, shot,
// --version and --help. main() sends everything else to the window.

#include "app/cli/exit_code.h"

#include <QStringList>

namespace attnbook {

// True when `arguments` (without the program name) name a headless command.
bool isHeadlessCommand(const QStringList& arguments);

// Runs a headless command; returns the process's exit code.
int runCommandLine(const QStringList& arguments);

} // namespace attnbook

#include "export_command.h"

#include "command_line.h"

#include <iostream>

namespace attnbook {

int runExportCommand(const QStringList&) {
    std::cerr << "attnbook: export is not built yet\n";
    return ExitUsage;
}

} // namespace attnbook

#include "shot_command.h"

#include "command_line.h"

#include <iostream>

namespace attnbook {

int runShotCommand(const QStringList&) {
    std::cerr << "attnbook: shot is not built yet\n";
    return ExitUsage;
}

} // namespace attnbook

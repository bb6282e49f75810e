#pragma once
// The process's exit codes (cli.md "Exit codes"), shared by every command.

namespace attnbook {

enum ExitCode {
    ExitDone = 0,            // done
    ExitOutputFailed = 1,    // an output could not be written; nothing partial is left
    ExitUsage = 2,           // usage error
    ExitInvalidDocument = 3, // the document or bundle is invalid
};

} // namespace attnbook

#pragma once
// The arguments after a command: one FILE and `--name value` options
// (also `--name=value`). Shared by every command, so they all read alike.

#include <QStringList>

#include <string>
#include <vector>

namespace attnbook {

struct CommandOptionSpec {
    std::vector<std::string> valued;     // options that take a value, each at most once
    std::vector<std::string> repeatable; // options that take a value and may repeat (--set)
    std::vector<std::string> flags;      // options without a value (--strict)
};

struct CommandOptions {
    std::string file;
    std::vector<std::pair<std::string, std::string>> values; // in the order given
    std::vector<std::string> flags;
    std::string error; // non-empty: a usage error to report

    std::vector<std::string> all(const std::string& name) const;
    std::string value(const std::string& name) const; // "" when absent
    bool has(const std::string& name) const;
};

// `arguments` start with the command's name, which is skipped.
CommandOptions parseCommandOptions(const QStringList& arguments, const CommandOptionSpec& spec);

} // namespace attnbook

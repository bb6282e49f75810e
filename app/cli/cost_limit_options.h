#pragma once
// --max-memory, --max-work and --max-json: the limits every command that computes a lesson
// charges it against (core/document/cell_cost.h; docs/command-line.md). One reader for
// compute, check and export.

#include "app/cli/command_options.h"

#include <optional>
#include <string>
#include <vector>

namespace attnbook {

// The three options' names, for a command's option spec.
const std::vector<std::string>& costLimitOptions();

// "512M", "2G", "1e9", "1048576": a positive number, K, M and G in powers of 1024.
std::optional<double> readAmount(const std::string& text);

// Sets the limits the options give (the defaults for those not given). Returns why an option's
// value is not an amount, or "" when all are read.
std::string applyCostLimitOptions(const CommandOptions& options);

} // namespace attnbook

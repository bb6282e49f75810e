#include "app/cli/command_options.h"

#include <algorithm>

namespace attnbook {

std::vector<std::string> CommandOptions::all(const std::string& name) const {
    std::vector<std::string> out;
    for (const auto& [k, v] : values) {
        if (k == name) {
            out.push_back(v);
        }
    }
    return out;
}

std::string CommandOptions::value(const std::string& name) const {
    const std::vector<std::string> given = all(name);
    return given.empty() ? std::string() : given.back();
}

bool CommandOptions::has(const std::string& name) const {
    return std::find(flags.begin(), flags.end(), name) != flags.end() || !all(name).empty();
}

CommandOptions parseCommandOptions(const QStringList& arguments, const CommandOptionSpec& spec) {
    const auto listed = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    CommandOptions options;
    for (int i = 1; i < arguments.size(); ++i) {
        const std::string arg = arguments[i].toStdString();
        if (arg.rfind("--", 0) != 0) {
            if (!options.file.empty()) {
                options.error = "unexpected argument " + arg;
                return options;
            }
            options.file = arg;
            continue;
        }
        std::string name = arg;
        std::string value;
        bool inlineValue = false;
        if (const size_t eq = arg.find('='); eq != std::string::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
            inlineValue = true;
        }
        if (listed(spec.flags, name) && !inlineValue) {
            options.flags.push_back(name);
            continue;
        }
        const bool repeatable = listed(spec.repeatable, name);
        if (!repeatable && !listed(spec.valued, name)) {
            options.error = "unknown option " + name;
            return options;
        }
        if (!inlineValue) {
            if (i + 1 >= arguments.size()) {
                options.error = name + " needs a value";
                return options;
            }
            value = arguments[++i].toStdString();
        }
        if (value.empty()) {
            options.error = name + " needs a value";
            return options;
        }
        if (!repeatable && options.has(name)) {
            options.error = name + " is given twice";
            return options;
        }
        options.values.emplace_back(name, value);
    }
    if (options.file.empty()) {
        options.error = "which FILE?";
    }
    return options;
}

} // namespace attnbook

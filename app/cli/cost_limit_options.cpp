#include "app/cli/cost_limit_options.h"

#include "core/document/cell_cost.h"

#include <cmath>
#include <cstdlib>

namespace attnbook {

const std::vector<std::string>& costLimitOptions() {
    static const std::vector<std::string> names = {"--max-memory", "--max-work", "--max-json"};
    return names;
}

std::optional<double> readAmount(const std::string& text) {
    if (text.empty()) {
        return std::nullopt;
    }
    double scale = 1;
    std::string digits = text;
    switch (text.back()) {
    case 'K':
    case 'k':
        scale = 1024.0;
        break;
    case 'M':
    case 'm':
        scale = 1024.0 * 1024;
        break;
    case 'G':
    case 'g':
        scale = 1024.0 * 1024 * 1024;
        break;
    default:
        break;
    }
    if (scale != 1) {
        digits.pop_back();
    }
    char* end = nullptr;
    const double value = std::strtod(digits.c_str(), &end);
    if (digits.empty() || end != digits.c_str() + digits.size() || !std::isfinite(value) ||
        value <= 0) {
        return std::nullopt;
    }
    return value * scale;
}

std::string applyCostLimitOptions(const CommandOptions& options) {
    CostLimits limits;
    double* targets[] = {&limits.maxBytes, &limits.maxMultiplyAdds, &limits.maxJsonBytes};
    const std::vector<std::string>& names = costLimitOptions();
    for (size_t i = 0; i < names.size(); ++i) {
        if (!options.has(names[i])) {
            continue;
        }
        const std::optional<double> amount = readAmount(options.value(names[i]));
        if (!amount) {
            return names[i] + " takes a positive number (512M, 2G, 2e10), not '" +
                   options.value(names[i]) + "'";
        }
        *targets[i] = *amount;
    }
    setCostLimits(limits);
    return {};
}

} // namespace attnbook

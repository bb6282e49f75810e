#include "core/present/view_titles.h"

#include <array>
#include <utility>

namespace attnbook {

std::string viewTitle(const std::string& view) {
    static constexpr std::array<std::pair<const char*, const char*>, 14> kTitles = {{
        // an attention cell's views (a transformer's layers show them too)
        {"matrices", "Matrices"},
        {"heatmap", "Heatmap of the shares"},
        {"shares", "Shares of attention"},
        {"arithmetic", "Arithmetic"},
        {"trace", "Trace"},
        {"gradients", "Gradients"},
        // a transformer cell's own
        {"stream", "Residual stream"},
        {"ffn", "FFN"},
        {"next", "Next word"},
        {"generation", "Generation"},
        {"cache", "Cache"},
        {"blocks", "Attention in blocks"},
        {"knockout", "Knock-outs"},
        {"training", "Training"},
    }};
    for (const auto& [name, title] : kTitles) {
        if (view == name) {
            return title;
        }
    }
    return view;
}

} // namespace attnbook

#include "core/document/past_the_end.h"

#include "core/document/bindings.h"

#include <map>

namespace attnbook {

std::string cellReadPastItsEnd(const LessonResults& results, const Binding& binding) {
    for (const BindingPath& path : binding.paths) {
        const ComputedCell* computed = results.cell(path.cellId);
        if (computed && computed->ok && readsPastTheEnd(computed->json, path)) {
            return path.cellId;
        }
    }
    return {};
}

std::vector<Diagnostic> foldPastTheEnd(const std::vector<CheckedProblem>& problems) {
    std::map<std::string, size_t> first;             // cell → index in `out`
    std::map<std::string, std::pair<int, int>> more; // cell → count, last line
    std::vector<Diagnostic> out;
    for (const CheckedProblem& p : problems) {
        if (p.pastTheEndOf.empty()) {
            out.push_back(p.diagnostic);
        } else if (!first.count(p.pastTheEndOf)) {
            first[p.pastTheEndOf] = out.size();
            out.push_back(p.diagnostic);
        } else {
            auto& [count, last] = more[p.pastTheEndOf];
            ++count;
            last = std::max(last, p.diagnostic.line);
        }
    }
    for (const auto& [cell, counted] : more) {
        const auto [count, last] = counted;
        Diagnostic& d = out[first.at(cell)];
        d.message = "this and " + std::to_string(count) + " more binding" +
                    (count == 1 ? "" : "s") + " (to line " + std::to_string(last) +
                    ") read past the end of " + cell + "'s lists: " + d.message;
    }
    return out;
}

} // namespace attnbook

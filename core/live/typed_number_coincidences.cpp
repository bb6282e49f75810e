#include "core/live/typed_number_coincidences.h"

#include <algorithm>

namespace attnbook {
namespace {

// How `expression` reads at `digits` in `results`, or "—" when it does not resolve.
std::string shownAs(const LessonResults& results, const std::string& expression, int digits) {
    std::string error;
    std::optional<Binding> binding = parseBinding(expression, error);
    if (!binding) {
        return "—";
    }
    binding->digits = digits;
    return results.boundText(*binding).value_or("—");
}

// An input the author typed into the cell (a token's vector) is restated by a vector or a
// number beside numbers that vary for other reasons; a computed single number is not.
bool isComputedNumber(const TypedNumber& site) {
    if (site.typed.empty() || site.typed.front() == '[' || site.candidates.empty()) {
        return false;
    }
    const std::string& path = site.candidates[0];
    const size_t dot = path.find('.');
    const std::string top = path.substr(dot + 1, path.find_first_of(".[", dot + 1) - dot - 1);
    return top != "X0" && top != "X" && top != "P" && top != "queries" && top != "keys" &&
           top != "values";
}

int digitsOf(const TypedNumber& site) {
    const size_t colon = site.binding.rfind(':');
    return colon == std::string::npos ? 4 : std::stoi(site.binding.substr(colon + 1));
}

} // namespace

CoincidenceCheck::CoincidenceCheck(const LessonResults& lesson, std::vector<TypedNumber> sites)
    : sites_(std::move(sites)), why_(sites_.size()) {
    for (const TypedNumber& site : sites_) {
        candidateBefore_.push_back(
            site.candidates.empty() ? "" : shownAs(lesson, site.candidates[0], digitsOf(site)));
        // Only numbers of the same cell: another cell's what-if says nothing about this one.
        std::string error;
        const std::optional<Binding> chosen =
            site.candidates.empty() ? std::nullopt : parseBinding(site.candidates[0], error);
        const std::string cell =
            chosen && !chosen->paths.empty() ? chosen->paths.front().cellId : std::string();
        std::vector<Binding> sameCell;
        std::vector<std::string> shown;
        for (const Binding& neighbour : site.neighbours) {
            if (!neighbour.paths.empty() &&
                std::all_of(neighbour.paths.begin(), neighbour.paths.end(),
                            [&](const BindingPath& p) { return p.cellId == cell; })) {
                sameCell.push_back(neighbour);
                shown.push_back(lesson.boundText(neighbour).value_or("—"));
            }
        }
        neighbours_.push_back(std::move(sameCell));
        neighboursBefore_.push_back(std::move(shown));
    }
}

void CoincidenceCheck::observe(const LessonResults& other, const std::string& setting) {
    for (size_t i = 0; i < sites_.size(); ++i) {
        const TypedNumber& site = sites_[i];
        if (!why_[i].empty() || site.candidates.empty()) {
            continue; // the first reason is the one reported
        }
        const std::string chosen = shownAs(other, site.candidates[0], digitsOf(site));
        if (chosen != candidateBefore_[i] || !isComputedNumber(site)) {
            continue;
        }
        for (size_t n = 0; n < neighbours_[i].size(); ++n) {
            const std::string now = other.boundText(neighbours_[i][n]).value_or("—");
            if (now != neighboursBefore_[i][n]) {
                why_[i] = "it equals " + site.candidates[0] +
                          " only by coincidence, it seems: " + "when " + setting + ", {{" +
                          neighbours_[i][n].expression + "}} beside it becomes " + now + " while " +
                          site.candidates[0] + " stays " + chosen +
                          "; bind what the text means by hand";
                break;
            }
        }
    }
}

} // namespace attnbook

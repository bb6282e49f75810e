#include "core/live/prose_rebinding.h"

#include "core/document/expression.h"
#include "core/document/html_comments.h"
#include "core/present/prose_rows.h"

#include <variant>

namespace attnbook {

std::set<std::string> QuotedCells::add(const std::vector<ProsePiece>& pieces) {
    std::set<std::string> read;
    for (const ProsePiece& piece : pieces) {
        if (piece.kind != ProsePiece::Kind::Binding) {
            continue;
        }
        for (const BindingPath& path : piece.binding.paths) {
            read.insert(path.cellId);
            std::shared_ptr<JsonSelection>& paths = paths_[path.cellId];
            if (!paths) {
                paths = std::make_shared<JsonSelection>();
            }
            paths->add(path);
            const auto* first =
                path.steps.empty() ? nullptr : std::get_if<std::string>(&path.steps[0]);
            if (first && (*first == "grad" || *first == "gradcheck")) {
                gradients_.insert(path.cellId);
            }
        }
    }
    return read;
}

std::shared_ptr<const JsonSelection> QuotedCells::paths(const std::string& id) const {
    const auto found = paths_.find(id);
    return found == paths_.end() ? nullptr : found->second;
}

std::string ProseBinder::bound(std::string_view text, const std::vector<ProsePiece>& pieces) const {
    return withoutHtmlComments(substituteBindings(
        text, pieces, [this](const Binding& binding) { return boundMarkdown(binding); },
        [this](const Binding& claim) { return claimMark(claim); }));
}

std::string ProseBinder::bound(const std::string& text) const {
    return bound(text, scanProse(text, 1));
}

std::optional<std::string> ProseBinder::boundMarkdown(const Binding& binding) const {
    if (awaitsRest(binding)) {
        return std::string("…"); // the gradients or the generation of this what-if are coming
    }
    const BindingValue value = results_.value(binding);
    if (value.value) {
        return escapeMarkdown(formatBoundValue(*value.value, binding.digits));
    }
    if (readsEditedCell(binding)) {
        // The reader's what-if took this value away (an index past the new tokens, a layer
        // switched off): a dash with the mark of a false claim, the reason on hover.
        return "— " + whatIfMark(binding.expression + ": " + value.error);
    }
    // A binding that does not resolve as the author wrote it is listed as an error; in the
    // prose it stays visible as what the author wrote.
    return "`{{" + binding.expression + "}}`";
}

// A claim shows nothing while it holds. When a what-if makes it false, the sentence it guards
// keeps its words and gets a visible mark (docs/lesson-format.md).
std::string ProseBinder::claimMark(const Binding& claim) const {
    if (awaitsRest(claim)) {
        return {}; // not decided yet: no mark flashes while the gradients are checked
    }
    const ClaimVerdict verdict = evaluateClaim(claim, results_.lookup());
    if (verdict.holds) {
        return {};
    }
    std::string detail = claim.expression + ": ";
    if (verdict.error.empty()) {
        detail += verdict.sides;
    } else if (readsEditedCell(claim)) {
        detail += verdict.error;
    } else {
        // A claim that cannot be decided does not hold for the reader's what-if; as the author
        // wrote it, its error is listed with the problems instead.
        return {};
    }
    std::string mark(1, ' ');
    mark += whatIfMark(detail);
    return mark;
}

bool ProseBinder::awaitsRest(const Binding& binding) const {
    for (const BindingPath& path : binding.paths) {
        const auto cell = statuses_.find(path.cellId);
        if (cell != statuses_.end() && cell->second.awaits && cell->second.awaits(path)) {
            return true;
        }
    }
    return false;
}

bool ProseBinder::readsEditedCell(const Binding& binding) const {
    for (const BindingPath& path : binding.paths) {
        const auto cell = statuses_.find(path.cellId);
        if (cell != statuses_.end() && cell->second.edited && cell->second.edited()) {
            return true;
        }
    }
    return false;
}

std::string whatIfMark(const std::string& detail) {
    // A short mark in the sentence; the detail travels in the link, not as eight lines of
    // expression.
    return "[**⚠ not true for your edit**](#claim:" + percentEncoded(detail) + ")";
}

std::string percentEncoded(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        const bool unreserved = (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') ||
                                (byte >= '0' && byte <= '9') || byte == '-' || byte == '.' ||
                                byte == '_' || byte == '~';
        if (unreserved) {
            out += c;
        } else {
            out += '%';
            out += kHex[byte >> 4];
            out += kHex[byte & 0xF];
        }
    }
    return out;
}

} // namespace attnbook

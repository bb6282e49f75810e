#include "core/document/file_value_source.h"

#include "core/document/json.h"
#include "core/document/text_scan.h"

namespace attnbook {

std::optional<FileValueSource> keptFileValue(const FileValueSource& source, const arma::mat& before,
                                             const arma::mat& after) {
    // before, after: (rows × cols), the shape read.
    if (after.n_rows != source.rows || after.n_cols != source.cols ||
        before.n_rows != source.rows || before.n_cols != source.cols) {
        return std::nullopt;
    }
    FileValueSource kept = source;
    for (arma::uword c = 0; c < after.n_cols; ++c) {
        for (arma::uword r = 0; r < after.n_rows; ++r) {
            if (after(r, c) != before(r, c)) {
                kept.set[{r, c}] = after(r, c);
            }
        }
    }
    if (kept.set.size() * 2 > after.n_elem) {
        return std::nullopt;
    }
    return kept;
}

std::string fileValueText(const FileValueSource& source) {
    std::string out = "{" + source.reference;
    if (!source.set.empty()) {
        out += ", set: [";
        bool first = true;
        for (const auto& [at, value] : source.set) {
            out += std::string(first ? "" : ", ") + "[" + std::to_string(at.first) + ", " +
                   std::to_string(at.second) + ", " + shortestDouble(value) + "]";
            first = false;
        }
        out += "]";
    }
    return out + "}";
}

std::string yamlFlowScalar(const std::string& text) {
    // Letters, digits and _ . / - after a letter, digit or _: never a YAML number, boolean or
    // null, never a flow indicator.
    const bool reserved = text == "true" || text == "false" || text == "null" || text == "True" ||
                          text == "False" || text == "Null" || text == "TRUE" || text == "FALSE" ||
                          text == "NULL";
    const bool leads = !text.empty() && (isAsciiLetter(text.front()) || text.front() == '_' ||
                                         isAsciiDigit(text.front()));
    bool plain = leads && !reserved && !isDecimalNumber(text);
    for (const char c : text) {
        plain = plain && (isAsciiLetter(c) || isAsciiDigit(c) || c == '_' || c == '.' || c == '/' ||
                          c == '-');
    }
    return plain ? text : jsonStringLiteral(text);
}

} // namespace attnbook

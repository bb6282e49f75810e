#include "core/document/sample_answers.h"

#include "core/document/text_scan.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace attnbook {

bool namesSampleAnswer(std::string_view line) {
    // The words without their emphasis and a closing colon: "**Sample answer**" → "Sample
    // answer". A sentence that mentions sample answers does not start with the words.
    const auto decoration = [](char c) {
        return std::isspace(static_cast<unsigned char>(c)) != 0 || c == '*' || c == '_' || c == ':';
    };
    while (!line.empty() && decoration(line.front())) {
        line.remove_prefix(1);
    }
    while (!line.empty() && decoration(line.back())) {
        line.remove_suffix(1);
    }
    if (line.size() > 32) {
        return false;
    }
    std::string lower(line);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return lower.rfind("sample answer", 0) == 0 || lower.rfind("a sample answer", 0) == 0;
}

namespace {

// The fence a line opens or closes (``` or ~~~, up to three spaces in), else "".
std::string_view fenceOf(std::string_view line) {
    size_t indent = 0;
    while (indent < line.size() && indent < 3 && line[indent] == ' ') {
        ++indent;
    }
    const std::string_view rest = line.substr(indent);
    for (std::string_view fence : {std::string_view("```"), std::string_view("~~~")}) {
        if (rest.substr(0, 3) == fence) {
            return fence;
        }
    }
    return {};
}

} // namespace

ProseWithoutAnswers takeSampleAnswers(std::string_view markdown) {
    ProseWithoutAnswers out;
    std::string heading;
    std::string_view openFence; // the fence of the code block the line is in, if any
    bool inAnswer = false, afterBlank = true;
    size_t start = 0;
    while (start < markdown.size()) {
        size_t end = markdown.find('\n', start);
        end = end == std::string_view::npos ? markdown.size() : end + 1;
        const std::string_view line = markdown.substr(start, end - start);
        std::string_view bare = line;
        while (!bare.empty() && (bare.back() == '\n' || bare.back() == '\r')) {
            bare.remove_suffix(1);
        }
        const bool code = !openFence.empty();
        std::string_view title;
        const int level = code ? 0 : atxHeading(bare, title);
        if (level > 0) {
            inAnswer = false;
            heading = std::string(title);
        } else if (!code && !inAnswer && afterBlank && namesSampleAnswer(bare)) {
            inAnswer = true;
            out.answers.push_back({heading, {}});
        }
        (inAnswer ? out.answers.back().markdown : out.markdown) += line;
        if (const std::string_view fence = fenceOf(bare); !fence.empty()) {
            if (openFence.empty()) {
                openFence = fence;
            } else if (fence == openFence) {
                openFence = {};
            }
        }
        afterBlank = bare.find_first_not_of(" \t") == std::string_view::npos;
        start = end;
    }
    return out;
}

} // namespace attnbook

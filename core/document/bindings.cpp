#include "core/document/bindings.h"

#include "core/document/cell_reader.h"

#include "core/math/number_format.h"

#include <cmath>
#include <cstdio>

namespace attnbook {

std::string didYouMean(const std::string& name, const std::vector<std::string>& known) {
    const std::string guess = closestName(name, known);
    return guess.empty() ? std::string() : " — did you mean '" + guess + "'?";
}

const Json* resolveBindingPath(const Json& cell, const BindingPath& path, std::string& error) {
    const Json* at = &cell;
    std::string walked = path.cellId;
    for (const auto& step : path.steps) {
        const Json* next = nullptr;
        if (const auto* key = std::get_if<std::string>(&step)) {
            next = at->find(*key);
            if (!next) {
                std::vector<std::string> keys;
                if (at->isObject()) {
                    for (const auto& entry : at->object_()) {
                        keys.push_back(entry.first);
                    }
                }
                error = walked + " has no '" + *key + "'" + didYouMean(*key, keys);
                return nullptr;
            }
            walked += "." + *key;
        } else {
            const size_t index = std::get<size_t>(step);
            next = at->at(index);
            if (!next) {
                error = at->isArray()
                            ? walked + " has " + std::to_string(at->array().size()) +
                                  " entries, so [" + std::to_string(index) + "] is out of range"
                            : walked + " is not a list";
                return nullptr;
            }
            walked += "[" + std::to_string(index) + "]";
        }
        at = next;
    }
    if (at->isObject()) {
        error = walked + " is a group of values, not a value";
        return nullptr;
    }
    return at;
}

bool readsPastTheEnd(const Json& cell, const BindingPath& path) {
    const Json* at = &cell;
    for (const auto& step : path.steps) {
        if (const auto* key = std::get_if<std::string>(&step)) {
            at = at->find(*key);
            if (!at) {
                return false;
            }
        } else if (const Json* next = at->at(std::get<size_t>(step))) {
            at = next;
        } else {
            return at->isArray();
        }
    }
    return false;
}

std::string formatBoundValue(const Json& value, int digits) {
    if (value.isNumber()) {
        return fixedNumber(value.number(), digits); // the window's and the paper's minus sign
    }
    if (value.isString()) {
        return value.string();
    }
    if (value.isNull()) {
        return fixedNumber(-HUGE_VAL, digits); // a blocked score
    }
    if (value.isArray()) {
        std::string out = "[";
        for (size_t i = 0; i < value.array().size(); ++i) {
            out += (i ? ", " : "") + formatBoundValue(value.array()[i], digits);
        }
        return out + "]";
    }
    return value.dump();
}

std::vector<ProsePiece> scanProse(std::string_view text, int firstLine, int firstColumn,
                                  const std::vector<LineRange>& codeLines) {
    std::vector<ProsePiece> pieces;
    int line = firstLine;
    int column = firstColumn;
    size_t textStart = 0;
    const auto inCodeBlock = [&](int l) {
        return std::any_of(codeLines.begin(), codeLines.end(),
                           [&](const LineRange& r) { return l >= r.first && l <= r.last; });
    };
    const auto flushText = [&](size_t end, int startLine, int startColumn) {
        if (end > textStart) {
            pieces.push_back({ProsePiece::Kind::Text,
                              textStart,
                              end - textStart,
                              startLine,
                              startColumn,
                              {},
                              {}});
        }
    };
    int textLine = line, textColumn = column;
    size_t i = 0;
    size_t nextLineEnd = 0; // see the "{{" case below: found again when passed
    size_t nextClose = 0;
    // Advances over text[i], keeping line and column (in characters).
    const auto step = [&]() {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
        ++i;
    };
    while (i < text.size()) {
        if ((i == 0 || text[i - 1] == '\n') && inCodeBlock(line)) {
            flushText(i, textLine, textColumn);
            const size_t start = i;
            const int startLine = line;
            while (i < text.size() && text[i] != '\n') {
                step();
            }
            if (i < text.size()) {
                step();
            }
            pieces.push_back({ProsePiece::Kind::Code, start, i - start, startLine, 1, {}, {}});
            textStart = i, textLine = line, textColumn = column;
            continue;
        }
        if (text[i] == '`') { // a code span: skip to the matching run of backticks
            size_t run = 0;
            while (i + run < text.size() && text[i + run] == '`') {
                ++run;
            }
            size_t search = i + run;
            size_t close = std::string_view::npos;
            while ((search = text.find('`', search)) != std::string_view::npos) {
                size_t other = 0;
                while (search + other < text.size() && text[search + other] == '`') {
                    ++other;
                }
                if (other == run) {
                    close = search;
                    break;
                }
                search += other;
            }
            const size_t end = close == std::string_view::npos ? i + run : close + run;
            flushText(i, textLine, textColumn);
            const size_t start = i;
            const int startLine = line, startColumn = column;
            while (i < end) {
                step();
            }
            pieces.push_back(
                {ProsePiece::Kind::Code, start, end - start, startLine, startColumn, {}, {}});
            textStart = i, textLine = line, textColumn = column;
            continue;
        }
        if (text.compare(i, 2, "{{") != 0) {
            step();
            continue;
        }
        const int startLine = line, startColumn = column;
        const size_t start = i;
        if (text.compare(i, 4, "{{{{") == 0) {
            flushText(start, textLine, textColumn);
            pieces.push_back(
                {ProsePiece::Kind::LiteralBraces, start, 4, startLine, startColumn, {}, {}});
            for (int k = 0; k < 4; ++k) {
                step();
            }
            textStart = i, textLine = line, textColumn = column;
            continue;
        }
        // The next line break and the next "}}" at or after i + 2, each found again only once
        // the scan has passed it: searching from every "{{" to the end of its line made a
        // paragraph of 300,000 bindings on one line quadratic (46 s).
        if (nextLineEnd != std::string_view::npos && nextLineEnd < i + 2) {
            nextLineEnd = text.find('\n', i + 2);
        }
        if (nextClose != std::string_view::npos && nextClose < i + 2) {
            nextClose = text.find("}}", i + 2);
        }
        const size_t close = nextClose;
        const size_t lineEnd = nextLineEnd;
        if (close == std::string_view::npos ||
            (lineEnd != std::string_view::npos && lineEnd < close)) {
            flushText(start, textLine, textColumn);
            pieces.push_back(
                {ProsePiece::Kind::Unclosed, start, 2, startLine, startColumn, {}, {}});
            step(), step();
            textStart = i, textLine = line, textColumn = column;
            continue;
        }
        flushText(start, textLine, textColumn);
        std::string error;
        const std::string_view inner = text.substr(i + 2, close - i - 2);
        const std::optional<Binding> binding = parseBinding(inner, error);
        ProsePiece piece{binding ? ProsePiece::Kind::Binding : ProsePiece::Kind::Malformed,
                         start,
                         close + 2 - start,
                         startLine,
                         startColumn,
                         binding.value_or(Binding{}),
                         error};
        pieces.push_back(std::move(piece));
        while (i < close + 2) {
            step();
        }
        textStart = i, textLine = line, textColumn = column;
    }
    flushText(text.size(), textLine, textColumn);
    return pieces;
}

std::string substituteBindings(std::string_view text, const std::vector<ProsePiece>& pieces,
                               const BindingLookup& valueOf, const ClaimText& claimText) {
    std::string out;
    out.reserve(text.size());
    for (const ProsePiece& piece : pieces) {
        const std::string_view raw = text.substr(piece.offset, piece.length);
        switch (piece.kind) {
        case ProsePiece::Kind::Binding:
            if (piece.binding.claim) {
                out += claimText ? claimText(piece.binding) : std::string();
                break;
            }
            if (const auto value = valueOf(piece.binding)) {
                out += *value;
            } else {
                out += raw;
            }
            break;
        case ProsePiece::Kind::LiteralBraces:
            out += "{{";
            break;
        default:
            out += raw;
        }
    }
    return out;
}

} // namespace attnbook

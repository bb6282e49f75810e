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

namespace {

// The scan of scanProse: a cursor over the text that keeps its line and column (in
// characters), the start of the plain text not yet made a piece, and the pieces so far.
class ProseScanner {
  public:
    ProseScanner(std::string_view text, int firstLine, int firstColumn,
                 const std::vector<LineRange>& codeLines)
        : text_(text), codeLines_(codeLines), line_(firstLine), column_(firstColumn),
          textLine_(firstLine), textColumn_(firstColumn) {}

    std::vector<ProsePiece> scan() {
        while (i_ < text_.size()) {
            if ((i_ == 0 || text_[i_ - 1] == '\n') && inCodeBlock(line_)) {
                codeBlockLine();
            } else if (text_[i_] == '`') {
                codeSpan();
            } else if (text_.compare(i_, 2, "{{") != 0) {
                step();
            } else {
                braces();
            }
        }
        flushText(text_.size());
        return std::move(pieces_);
    }

  private:
    bool inCodeBlock(int l) const {
        return std::any_of(codeLines_.begin(), codeLines_.end(),
                           [&](const LineRange& r) { return l >= r.first && l <= r.last; });
    }

    // The plain text from textStart_ up to `end`, as one piece.
    void flushText(size_t end) {
        if (end > textStart_) {
            pieces_.push_back({ProsePiece::Kind::Text,
                               textStart_,
                               end - textStart_,
                               textLine_,
                               textColumn_,
                               {},
                               {}});
        }
    }

    // Plain text starts again where the scan stands.
    void startText() { textStart_ = i_, textLine_ = line_, textColumn_ = column_; }

    // Advances over text[i], keeping line and column (in characters).
    void step() {
        if (text_[i_] == '\n') {
            ++line_;
            column_ = 1;
        } else if ((static_cast<unsigned char>(text_[i_]) & 0xC0) != 0x80) {
            ++column_;
        }
        ++i_;
    }

    // A line of a fenced or indented code block, whole.
    void codeBlockLine() {
        flushText(i_);
        const size_t start = i_;
        const int startLine = line_;
        while (i_ < text_.size() && text_[i_] != '\n') {
            step();
        }
        if (i_ < text_.size()) {
            step();
        }
        pieces_.push_back({ProsePiece::Kind::Code, start, i_ - start, startLine, 1, {}, {}});
        startText();
    }

    // A code span: skip to the matching run of backticks.
    void codeSpan() {
        size_t run = 0;
        while (i_ + run < text_.size() && text_[i_ + run] == '`') {
            ++run;
        }
        size_t search = i_ + run;
        size_t close = std::string_view::npos;
        while ((search = text_.find('`', search)) != std::string_view::npos) {
            size_t other = 0;
            while (search + other < text_.size() && text_[search + other] == '`') {
                ++other;
            }
            if (other == run) {
                close = search;
                break;
            }
            search += other;
        }
        const size_t end = close == std::string_view::npos ? i_ + run : close + run;
        flushText(i_);
        const size_t start = i_;
        const int startLine = line_, startColumn = column_;
        while (i_ < end) {
            step();
        }
        pieces_.push_back(
            {ProsePiece::Kind::Code, start, end - start, startLine, startColumn, {}, {}});
        startText();
    }

    // At "{{": literal braces ("{{{{"), an unclosed "{{", or a binding up to its "}}".
    void braces() {
        const int startLine = line_, startColumn = column_;
        const size_t start = i_;
        if (text_.compare(i_, 4, "{{{{") == 0) {
            flushText(start);
            pieces_.push_back(
                {ProsePiece::Kind::LiteralBraces, start, 4, startLine, startColumn, {}, {}});
            for (int k = 0; k < 4; ++k) {
                step();
            }
            startText();
            return;
        }
        // The next line break and the next "}}" at or after i + 2, each found again only once
        // the scan has passed it: searching from every "{{" to the end of its line made a
        // paragraph of 300,000 bindings on one line quadratic (46 s).
        if (nextLineEnd_ != std::string_view::npos && nextLineEnd_ < i_ + 2) {
            nextLineEnd_ = text_.find('\n', i_ + 2);
        }
        if (nextClose_ != std::string_view::npos && nextClose_ < i_ + 2) {
            nextClose_ = text_.find("}}", i_ + 2);
        }
        const size_t close = nextClose_;
        const size_t lineEnd = nextLineEnd_;
        if (close == std::string_view::npos ||
            (lineEnd != std::string_view::npos && lineEnd < close)) {
            flushText(start);
            pieces_.push_back(
                {ProsePiece::Kind::Unclosed, start, 2, startLine, startColumn, {}, {}});
            step(), step();
            startText();
            return;
        }
        flushText(start);
        std::string error;
        const std::string_view inner = text_.substr(i_ + 2, close - i_ - 2);
        const std::optional<Binding> binding = parseBinding(inner, error);
        ProsePiece piece{binding ? ProsePiece::Kind::Binding : ProsePiece::Kind::Malformed,
                         start,
                         close + 2 - start,
                         startLine,
                         startColumn,
                         binding.value_or(Binding{}),
                         error};
        pieces_.push_back(std::move(piece));
        while (i_ < close + 2) {
            step();
        }
        startText();
    }

    std::string_view text_;
    const std::vector<LineRange>& codeLines_;
    std::vector<ProsePiece> pieces_;
    size_t i_ = 0;
    int line_, column_;
    size_t textStart_ = 0;
    int textLine_, textColumn_;
    size_t nextLineEnd_ = 0; // see braces(): found again when passed
    size_t nextClose_ = 0;
};

} // namespace

std::vector<ProsePiece> scanProse(std::string_view text, int firstLine, int firstColumn,
                                  const std::vector<LineRange>& codeLines) {
    return ProseScanner(text, firstLine, firstColumn, codeLines).scan();
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

#include "core/document/prose_sentences.h"

#include <algorithm>
#include <cctype>

namespace attnbook {
namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string trimmed(std::string_view text) {
    size_t begin = 0, end = text.size();
    while (begin < end && isSpace(text[begin])) {
        ++begin;
    }
    while (end > begin && isSpace(text[end - 1])) {
        --end;
    }
    return std::string(text.substr(begin, end - begin));
}

// Cuts one prose block at a time, keeping the sentence being read and whether its full stop
// has been seen (claims and comments up to the next word still belong to it).
class SentenceCutter {
  public:
    explicit SentenceCutter(std::vector<ProseSentence>& out) : out_(out) {}

    void block(const ProseBlock& prose, const std::vector<LineRange>& codeLines,
               int firstColumn = 1) {
        text_ = prose.text;
        line_ = prose.firstLine;
        column_ = firstColumn;
        position_ = 0;
        lineChecked_ = std::string::npos;
        newParagraph();
        const std::vector<ProsePiece> pieces =
            scanProse(text_, prose.firstLine, firstColumn, codeLines);
        size_t next = 0; // the first piece that does not end before i
        size_t i = 0;
        const auto jump = [&](size_t to) {
            advanceTo(to);
            i = to;
        };
        while (i < text_.size()) {
            while (next < pieces.size() && pieces[next].offset + pieces[next].length <= i) {
                ++next;
            }
            const ProsePiece* piece = next < pieces.size() && pieces[next].offset == i &&
                                              pieces[next].kind != ProsePiece::Kind::Text
                                          ? &pieces[next]
                                          : nullptr;
            if (piece && atLineStart(i) && isCodeBlockLine(*piece)) {
                newParagraph(); // a code block is no sentence, and ends the paragraph
                jump(piece->offset + piece->length);
                continue;
            }
            if (atLineStart(i) && lineChecked_ != i) {
                lineChecked_ = i;
                if (const size_t skip = lineStart(i); skip != i) {
                    jump(skip);
                    continue;
                }
            }
            if (piece) {
                takePiece(*piece);
                jump(piece->offset + piece->length);
                continue;
            }
            if (text_.compare(i, 4, "<!--") == 0) {
                const size_t close = text_.find("-->", i + 4);
                const size_t inner = close == std::string::npos ? text_.size() : close;
                takeComment(std::string_view(text_).substr(i + 4, inner - i - 4));
                jump(close == std::string::npos ? text_.size() : close + 3);
                continue;
            }
            takeChar(i);
            jump(i + 1);
        }
        close();
    }

    void finish() { close(); }
    size_t section() const { return section_; }
    void setSection(size_t section) { section_ = section; }

  private:
    bool atLineStart(size_t i) const { return i == 0 || text_[i - 1] == '\n'; }

    // At the start of a line: what the line's Markdown says about sentences. Returns where
    // reading goes on (past a list marker, or past a whole heading or table rule).
    size_t lineStart(size_t i) {
        const size_t end = std::min(text_.find('\n', i), text_.size());
        const std::string_view line(text_.data() + i, end - i);
        size_t indent = 0;
        while (indent < line.size() && (line[indent] == ' ' || line[indent] == '\t')) {
            ++indent;
        }
        const std::string_view rest = line.substr(indent);
        if (rest.empty()) {
            newParagraph();
            return i;
        }
        if (rest.substr(0, 3) == "```" || rest.substr(0, 3) == "~~~") {
            newParagraph();
            return end; // a code fence; the lines between are code pieces
        }
        if (rest[0] == '#') {
            newParagraph();
            ++section_;
            return end; // a heading names a section; it claims nothing
        }
        if (rest[0] == '|') {
            newParagraph();
            return end; // a table row quotes values; its cells assert nothing in words
        }
        if (rest[0] == '>') {
            return i + indent + 1;
        }
        if (rest.size() > 1 && (rest[0] == '-' || rest[0] == '*' || rest[0] == '+') &&
            rest[1] == ' ') {
            newParagraph();
            return i + indent + 2;
        }
        size_t digits = 0;
        while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) {
            ++digits;
        }
        if (digits > 0 && digits + 1 < rest.size() &&
            (rest[digits] == '.' || rest[digits] == ')') && rest[digits + 1] == ' ') {
            newParagraph();
            return i + indent + digits + 2;
        }
        return i;
    }

    void takePiece(const ProsePiece& piece) {
        if (piece.kind == ProsePiece::Kind::Binding && piece.binding.claim) {
            ProseSentence* owner = open_ ? &current_ : lastOfParagraph();
            // A claim that opens a paragraph guards the sentence it starts.
            (owner ? *owner : current_).claims.push_back(piece.binding);
            extend(piece.offset + piece.length);
            return;
        }
        startContent(piece.offset, piece.line, piece.column);
        if (piece.kind == ProsePiece::Kind::Binding) {
            current_.values.push_back(piece.binding);
            current_.words += ' ';
        } else {
            current_.words.append(text_, piece.offset, piece.length);
        }
        extend(piece.offset + piece.length);
    }

    // scanProse gives a code block's line as one piece from its column 1 to its line break; a
    // code span starts with a backtick.
    bool isCodeBlockLine(const ProsePiece& piece) const {
        return piece.kind == ProsePiece::Kind::Code && text_[piece.offset] != '`';
    }

    void takeComment(std::string_view inside) {
        std::string note = trimmed(inside);
        std::transform(note.begin(), note.end(), note.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (note != "general") {
            return; // an author's note: part of no sentence
        }
        if (ProseSentence* owner = open_ ? &current_ : lastOfParagraph()) {
            owner->general = true;
        }
    }

    void takeChar(size_t i) {
        const char c = text_[i];
        if (isSpace(c)) {
            if (open_ && !stopped_) {
                current_.words += c;
            }
            return;
        }
        if (open_ && stopped_ && isClosingMark(c)) {
            // "*the cat sat.*": the closing marks after its full stop are the sentence's own,
            // so a claim or a general mark right after them is the sentence's too.
            current_.words += c;
            extend(i + 1);
            return;
        }
        startContent(i, line_, column_);
        current_.words += c;
        extend(i + 1);
        if ((c == '.' || c == '!' || c == '?') && endsSentence(i + 1)) {
            stopped_ = true;
        }
    }

    // Whether a full stop at `i - 1` ends its sentence: closing marks, then a space, the end, a
    // claim or a comment. "0.5" does not.
    static bool isClosingMark(char c) {
        return std::string_view(")]*_\"'").find(c) != std::string_view::npos;
    }

    bool endsSentence(size_t i) const {
        while (i < text_.size() && isClosingMark(text_[i])) {
            ++i;
        }
        return i >= text_.size() || isSpace(text_[i]) || text_.compare(i, 3, "{{?") == 0 ||
               text_.compare(i, 4, "<!--") == 0;
    }

    // Something that shows: it opens a sentence, or a new one after a full stop.
    void startContent(size_t offset, int line, int column) {
        if (open_ && stopped_) {
            close();
        }
        if (!open_) {
            open_ = true;
            current_.line = line;
            current_.column = column;
            begin_ = end_ = offset;
        }
    }

    void extend(size_t end) {
        if (open_) {
            end_ = std::max(end_, end);
        }
    }

    ProseSentence* lastOfParagraph() {
        if (out_.empty() || out_.back().paragraph != paragraph_) {
            return nullptr;
        }
        return &out_.back();
    }

    void close() {
        if (open_) {
            current_.source = text_.substr(begin_, end_ - begin_);
            current_.paragraph = paragraph_;
            current_.section = section_;
            current_.words = trimmed(current_.words);
            out_.push_back(std::move(current_));
        } else if (ProseSentence* last = lastOfParagraph(); last && !current_.claims.empty()) {
            // Claims with no words after them: the paragraph's last sentence holds them.
            last->claims.insert(last->claims.end(), current_.claims.begin(), current_.claims.end());
        }
        current_ = ProseSentence{};
        open_ = stopped_ = false;
    }

    void newParagraph() {
        close();
        ++paragraph_;
    }

    void advanceTo(size_t end) {
        for (size_t k = position_; k < end && k < text_.size(); ++k) {
            if (text_[k] == '\n') {
                ++line_;
                column_ = 1;
            } else if ((static_cast<unsigned char>(text_[k]) & 0xC0) != 0x80) {
                ++column_;
            }
        }
        position_ = std::max(position_, end);
    }

    std::vector<ProseSentence>& out_;
    std::string text_;
    ProseSentence current_;
    bool open_ = false;          // current_ has begun
    bool stopped_ = false;       // current_'s full stop has been read
    size_t begin_ = 0, end_ = 0; // of current_ in text_
    size_t lineChecked_ = std::string::npos;
    size_t position_ = 0;
    int line_ = 1;
    int column_ = 1;
    size_t paragraph_ = 0;
    size_t section_ = 0;
};

} // namespace

LessonSentences proseSentences(const Document& document, const std::vector<QuizText>& quizTexts) {
    LessonSentences out;
    SentenceCutter cutter(out.sentences);
    for (const Segment& segment : document.segments) {
        if (segment.isCell()) {
            out.cellSection[segment.cell().id] = cutter.section();
        } else {
            cutter.block(segment.prose(), document.codeBlocks);
        }
    }
    for (const QuizText& quiz : quizTexts) {
        const auto section = out.cellSection.find(quiz.cellId);
        cutter.setSection(section == out.cellSection.end() ? 0 : section->second);
        cutter.block(ProseBlock{quiz.line, quiz.text}, {}, quiz.column);
    }
    cutter.finish();
    return out;
}

std::vector<std::string> cellsNamedBy(const ProseSentence& sentence) {
    std::vector<std::string> cells;
    const auto add = [&](const std::vector<Binding>& bindings) {
        for (const Binding& binding : bindings) {
            for (const BindingPath& path : binding.paths) {
                if (std::find(cells.begin(), cells.end(), path.cellId) == cells.end()) {
                    cells.push_back(path.cellId);
                }
            }
        }
    };
    add(sentence.values);
    add(sentence.claims);
    return cells;
}

} // namespace attnbook

#include "core/present/live_marks.h"

#include "core/document/html_comments.h"

#include <algorithm>

namespace attnbook {

std::string markedValue(int number, const std::string& markdown) {
    std::string out(kValueMarkOpen);
    out += std::to_string(number);
    out += kMarkNumberEnd;
    out += markdown;
    out += kMarkClose;
    return out;
}

std::string markedClaim(int number) {
    std::string out(kClaimMarkOpen);
    out += std::to_string(number);
    out += kMarkClose;
    return out;
}

namespace {

// The number after a mark's opening at `at`, and where it ends; -1 when no digit follows.
int markNumber(std::string_view text, size_t& at) {
    int number = -1;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && number < 100000000) {
        number = std::max(number, 0) * 10 + (text[at] - '0');
        ++at;
    }
    return number;
}

} // namespace

void readLiveMarks(std::string_view text, const LiveMarkSteps& steps) {
    size_t plainFrom = 0;
    int openValues = 0;
    size_t i = 0;
    while (i < text.size()) {
        const std::string_view rest = text.substr(i);
        const bool valueMark = rest.starts_with(kValueMarkOpen);
        const bool claimMark = rest.starts_with(kClaimMarkOpen);
        const bool closeMark = rest.starts_with(kMarkClose);
        const bool numberEnd = rest.starts_with(kMarkNumberEnd);
        if (!valueMark && !claimMark && !closeMark && !numberEnd) {
            ++i;
            continue;
        }
        if (i > plainFrom) {
            steps.text(text.substr(plainFrom, i - plainFrom));
        }
        i += kMarkClose.size(); // every mark character is three bytes
        if (valueMark || claimMark) {
            const int number = markNumber(text, i);
            const std::string_view end = valueMark ? kMarkNumberEnd : kMarkClose;
            if (number >= 0 && text.substr(i).starts_with(end)) {
                i += end.size();
                if (valueMark) {
                    ++openValues;
                    steps.value(number);
                } else {
                    steps.claim(number);
                }
            }
        } else if (closeMark && openValues > 0) {
            --openValues;
            steps.valueEnd();
        }
        plainFrom = i;
    }
    if (plainFrom < text.size()) {
        steps.text(text.substr(plainFrom));
    }
}

std::string withoutLiveMarks(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    const auto nothing = [](auto...) {};
    readLiveMarks(text, {[&](std::string_view plain) { out += plain; }, nothing, nothing, nothing});
    return out;
}

namespace {

void scanProseBlocks(const Document& document, NumberedProse& numbered) {
    for (const Segment& segment : document.segments) {
        if (!segment.isCell()) {
            const ProseBlock& prose = segment.prose();
            numbered.pieces.push_back(scanProse(blankedHtmlComments(prose.text), prose.firstLine, 1,
                                                document.codeBlocks));
        }
    }
}

// Numbered after every list is in place: the pointers stay valid.
void numberPieces(NumberedProse& numbered) {
    for (const std::vector<ProsePiece>& block : numbered.pieces) {
        for (const ProsePiece& piece : block) {
            if (piece.kind != ProsePiece::Kind::Binding) {
                continue;
            }
            std::vector<NumberedBinding>& list =
                piece.binding.claim ? numbered.claims : numbered.values;
            list.push_back({int(list.size()), &piece.binding, piece.line});
        }
    }
}

} // namespace

NumberedProse numberedProsePieces(const Document& document) {
    NumberedProse numbered;
    scanProseBlocks(document, numbered);
    numberPieces(numbered);
    return numbered;
}

std::vector<const std::string*> markedQuizTexts(const QuizCellSpec& quiz) {
    std::vector<const std::string*> texts = {&quiz.question};
    for (const std::string& choice : quiz.choices) {
        texts.push_back(&choice);
    }
    texts.push_back(&quiz.explain);
    return texts;
}

NumberedProse numberedProsePieces(const Lesson& lesson) {
    NumberedProse numbered;
    scanProseBlocks(lesson.document, numbered);
    for (const Segment& segment : lesson.document.segments) {
        const LessonCell* cell = segment.isCell() ? lesson.cell(segment.cell().id) : nullptr;
        const QuizCellSpec* quiz = cell ? cell->quiz() : nullptr;
        if (!quiz) {
            continue;
        }
        const std::vector<const std::string*> texts = markedQuizTexts(*quiz);
        for (size_t i = 0; i < texts.size(); ++i) {
            const char* key = i == 0 ? "question" : i + 1 == texts.size() ? "explain" : "choices";
            const FilePosition at = cell->read().positions.of(key);
            numbered.pieces.push_back(
                scanProse(blankedHtmlComments(*texts[i]), at.line, at.column));
        }
    }
    numberPieces(numbered);
    return numbered;
}

std::string liveLessonSource(const Document& document) {
    Document blanked = document;
    for (Segment& segment : blanked.segments) {
        if (segment.isCell()) {
            CellBlock& cell = std::get<CellBlock>(segment.block);
            cell.body = blankedHtmlComments(cell.body);
        } else {
            ProseBlock& prose = std::get<ProseBlock>(segment.block);
            prose.text = blankedHtmlComments(prose.text);
        }
    }
    return blanked.serialize();
}

} // namespace attnbook

#pragma once
// Prose as the window shows it: cut into pieces at headings (so the outline
// can jump to each and an edit redraws only the pieces that quote the
// edited cell), with bindings replaced by Markdown-safe values (prose_rebinding.h writes them
// in). No Qt: the live lesson (live_lesson.h) keeps these pieces, the window shows them.

#include "core/document/bindings.h"
#include "core/document/document.h"

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace attnbook {

// Prose without headings is cut between paragraphs once a piece is this long, so that the
// window, which lays out the rows in view only, never lays out a megabyte for one screen.
// Shipped lessons have no piece this long.
inline constexpr size_t kLongProseBytes = 8192;

struct ProsePieceRow {
    int firstLine = 0;
    int lastLine = 0;
    std::string text;         // the exact prose bytes of these lines
    int headingLevel = 0;     // 1–6 when the piece starts with a heading
    std::string headingTitle; // the heading as plain text
    std::vector<ProsePiece> pieces;
    std::set<std::string> boundCells; // cells its bindings read
    // A coding challenge's sample answer (sample_answers.h): the window folds it.
    bool sampleAnswer = false;
};

// Cuts a prose block before every heading (markdown_headings.h: ATX or setext, outside code
// and comments), before a paragraph that names a sample answer (which runs to the next
// heading: sample_answers.h), and a piece longer than kLongProseBytes also between two
// paragraphs (see splitProse); pieces holding only blank lines are dropped.
std::vector<ProsePieceRow> splitProse(const ProseBlock& block,
                                      const std::vector<LineRange>& codeLines);

// A bound value as literal Markdown text: "[0.38, 0.23]" must not become a
// link, and "*" or "_" must not start emphasis.
std::string escapeMarkdown(const std::string& text);

// The number of lines `text` spans (a final line without a line end counts).
int lineCount(const std::string& text);

} // namespace attnbook

#pragma once
// A lesson's prose cut into sentences, for the what-if sweep of `check`: what a
// sentence says in words, which numbers and tokens it binds, which claims guard it, and which
// cells it is about. A claim or an HTML comment written right after a sentence's full stop
// belongs to that sentence ("…to itself.{{? EXPR}}"), as authors write them. An author marks a
// sentence whose words hold whatever its numbers are with `<!-- general -->` in the same place.

#include "core/document/bindings.h"
#include "core/document/document.h"

#include <map>
#include <string>
#include <vector>

namespace attnbook {

struct ProseSentence {
    int line = 0;                // where its first character is, from 1
    int column = 0;              // in characters, from 1
    std::string source;          // as written, bindings included (for messages)
    std::string words;           // its text outside bindings and comments, code spans included
    std::vector<Binding> values; // the bindings it shows, in order
    std::vector<Binding> claims; // the claims in it or right after its full stop
    bool general = false;        // marked `<!-- general -->`
    size_t paragraph = 0;        // sentences of one paragraph (or list item) share it
    size_t section = 0;          // sentences under one heading share it
};

struct LessonSentences {
    std::vector<ProseSentence> sentences;      // in file order
    std::map<std::string, size_t> cellSection; // the section each cell stands in, by id
};

// A quiz's explanation (or question), where its YAML scalar starts.
struct QuizText {
    std::string cellId;
    int line = 0;
    int column = 0;
    std::string text; // as YAML reads it
};

// The sentences of every prose block of `document`, then of each quiz text (one paragraph
// each, in its quiz's section). Code blocks, headings and table rows are not sentences; a
// heading starts a new section, a blank line, a list item or a cell a new paragraph. A quiz
// text's sentences after its first line stand where YAML's folding puts them: near.
LessonSentences proseSentences(const Document& document,
                               const std::vector<QuizText>& quizTexts = {});

// The cells a sentence binds or claims about.
std::vector<std::string> cellsNamedBy(const ProseSentence& sentence);

} // namespace attnbook

#pragma once
// A coding challenge's sample answer: a short paragraph that names one
// ("**Sample answer**") begins it, and it runs to the next heading. Students try the challenge
// before they see it, so the window folds it behind "Show a sample answer" and the web page
// in <details>; one rule for both, here.

#include <string>
#include <string_view>
#include <vector>

namespace attnbook {

// Whether the line (outside code) names a sample answer: without emphasis and a closing colon,
// at most 32 characters that start with "sample answer" or "a sample answer", in any case
// ("**Sample answer**", "Sample answers:", "*A sample answer (Python)*").
bool namesSampleAnswer(std::string_view line);

// A Markdown text with its sample answers taken out, for paper: the lesson PDF prints them in
// an appendix, after the challenges, not under each one.
struct SampleAnswer {
    std::string heading;  // the heading the answer sits under, as written ("1. Softmax…")
    std::string markdown; // from the paragraph that names it to the next heading
};
struct ProseWithoutAnswers {
    std::string markdown; // the text less its answers
    std::vector<SampleAnswer> answers;
};
// Code fences (``` and ~~~) are followed, so a "# comment" in an answer's code is not a heading.
ProseWithoutAnswers takeSampleAnswers(std::string_view markdown);

} // namespace attnbook

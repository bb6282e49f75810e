#pragma once
// Which words of a sentence name what (sentence_words.cpp): what the what-if sweep reads to tell
// which sentences a what-if may make false.

#include <cstddef>
#include <string>
#include <vector>

namespace attnbook {

// Words that name what the cell key `key` holds ("mask": masked, causal, future…).
const std::vector<std::string>& topicWords(const std::string& key);
// The counts a sentence may state in words ("three", "2"), and the nouns they count for `key`.
const std::vector<std::string>& countWords();
const std::vector<std::string>& countedNouns(const std::string& key);
// Where `word` stands in `text` as a whole word (case folded), or npos.
size_t findWord(const std::string& text, const std::string& word);
// A token named by hand (*cat*, `cat`, "cat"…), or in plain words when it is not English's.
bool namesTokenByHand(const std::string& words, const std::string& label);
bool namesTokenBare(const std::string& words, const std::string& label);
// A number, proportion, comparison or rank stated in words ("about 67%", "the largest"), or "".
std::string numberWords(const std::string& sentenceWords);

} // namespace attnbook

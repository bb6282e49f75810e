// Which words of a sentence name what: a setting of a cell, a count, a token, or a number or
// relation stated without a binding. The what-if sweep (what_if_sweep.cpp) reads them to tell
// which sentences a what-if may make false.
#include "core/live/sentence_words.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace attnbook {
namespace {

bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           (static_cast<unsigned char>(c) & 0x80) != 0;
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

// Common words that are tokens of the lessons too: named bare, they are English, not the token.
bool isFunctionWord(const std::string& word) {
    static const std::set<std::string> words = {
        "the",  "a",    "an",   "and",  "or",   "of",   "to",   "in",   "on",   "at",
        "by",   "for",  "with", "from", "is",   "it",   "its",  "was",  "be",   "as",
        "that", "this", "not",  "no",   "but",  "if",   "so",   "we",   "you",  "they",
        "he",   "she",  "his",  "her",  "them", "one",  "two",  "all",  "any",  "each",
        "new",  "old",  "up",   "out",  "into", "than", "then", "what", "which"};
    return words.count(lower(word)) > 0;
}

// The text outside `code spans`: a number in code is a name or a formula, not a claim.
std::string outsideCode(const std::string& words) {
    std::string out;
    bool code = false;
    for (char c : words) {
        if (c == '`') {
            code = !code;
            out += ' ';
        } else if (!code) {
            out += c;
        }
    }
    return out;
}

} // namespace

// Words that name what a key of a cell holds: a sentence that says them is about that setting.
// Heads are named by their count ("two heads"): "each head" is true for any number of them.
const std::vector<std::string>& topicWords(const std::string& key) {
    static const std::map<std::string, std::vector<std::string>> words = {
        {"mask", {"mask", "masks", "masked", "causal", "future"}},
        {"padding", {"padding", "padded", "pad"}},
        {"scale",
         {"scale", "scaled", "scales", "scaling", "√", "sqrt", "square root", "divide", "divided",
          "divides", "dividing"}},
        {"positional", {"position", "positions", "positional", "sinusoid", "sinusoidal"}},
        {"W_Q", {"identity", "W_Q"}},
        {"W_K", {"identity", "W_K"}},
        {"W_V", {"identity", "W_V"}},
        {"W_O", {"identity", "W_O"}},
        {"temperature", {"temperature"}},
        {"generate", {"generate", "generates", "generated", "generation"}},
        // A transformer cell's views (no key holds them; "mask " is its mask view).
        {"norm", {"norm", "norms", "normalization", "normalizations", "LayerNorm"}},
        {"ffn", {"feed-forward", "FFN", "FFNs"}},
        {"mask ", {"mask", "masks", "masked", "causal", "future"}},
    };
    static const std::vector<std::string> none;
    const auto found = words.find(key);
    return found == words.end() ? none : found->second;
}

// The counts a sentence may state in words ("three tokens", "2 heads"), and what they count.
const std::vector<std::string>& countWords() {
    static const std::vector<std::string> words = {
        "one", "two",    "three",  "four", "five", "six", "seven", "eight", "nine",
        "ten", "eleven", "twelve", "1",    "2",    "3",   "4",     "5",     "6",
        "7",   "8",      "9",      "10",   "11",   "12",  "single"};
    return words;
}
const std::vector<std::string>& countedNouns(const std::string& key) {
    static const std::map<std::string, std::vector<std::string>> nouns = {
        {"tokens", {"tokens", "words"}},
        {"heads", {"heads", "head"}},
        {"layers", {"layers", "layer", "blocks", "block"}}};
    static const std::vector<std::string> none;
    const auto found = nouns.find(key);
    return found == nouns.end() ? none : found->second;
}

// Where `word` stands in `text` as a whole word (case folded), or npos.
size_t findWord(const std::string& text, const std::string& word) {
    const std::string haystack = lower(text), needle = lower(word);
    const bool symbol = !isWordChar(needle.front()) || (needle.front() & 0x80);
    for (size_t at = haystack.find(needle); at != std::string::npos;
         at = haystack.find(needle, at + 1)) {
        const size_t end = at + needle.size();
        if (symbol || ((at == 0 || !isWordChar(haystack[at - 1])) &&
                       (end >= haystack.size() || !isWordChar(haystack[end])))) {
            return at;
        }
    }
    return std::string::npos;
}

// A token named by hand: *cat*, _cat_, `cat`, "cat", “cat” or ‘cat’ (a bare "the" in a
// sentence is English, not the token).
bool namesTokenByHand(const std::string& words, const std::string& label) {
    static const std::vector<std::pair<std::string, std::string>> marks = {
        {"*", "*"}, {"_", "_"}, {"`", "`"}, {"\"", "\""}, {"“", "”"}, {"‘", "’"}};
    for (const auto& [open, close] : marks) {
        if (words.find(open + label + close) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// A token named in plain words: a word of three letters or more that is not one of English's
// function words ("the cat sat" names cat and sat; "the" is English).
bool namesTokenBare(const std::string& words, const std::string& label) {
    if (label.size() < 3 || isFunctionWord(label) ||
        !std::all_of(label.begin(), label.end(),
                     [](unsigned char c) { return std::isalpha(c) || c >= 0x80; })) {
        return false;
    }
    return findWord(words, label) != std::string::npos;
}

// A number or a proportion in words, a comparison or a rank: what a sentence says about a
// cell's numbers without binding them ("about 67%", "three times as much", "more than 0.9",
// "less than a third", "the largest", "orthogonal", "the second pick"). "" when it says none.
// Each is true for some numbers only, so it needs a claim that reads them.
std::string numberWords(const std::string& sentenceWords) {
    const std::string words = outsideCode(sentenceWords);
    // A percentage or a decimal typed by hand: "67%", "67 percent", "0.9".
    for (size_t i = 0; i < words.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(words[i])) ||
            (i > 0 && (isWordChar(words[i - 1]) || words[i - 1] == '.'))) {
            continue;
        }
        size_t end = i;
        while (end < words.size() && std::isdigit(static_cast<unsigned char>(words[end]))) {
            ++end;
        }
        const bool decimal = end + 1 < words.size() && words[end] == '.' &&
                             std::isdigit(static_cast<unsigned char>(words[end + 1]));
        if (decimal) {
            size_t last = end + 1;
            while (last < words.size() && std::isdigit(static_cast<unsigned char>(words[last]))) {
                ++last;
            }
            return words.substr(i, last - i);
        }
        size_t after = end;
        while (after < words.size() && words[after] == ' ') {
            ++after;
        }
        if (after < words.size() && words[after] == '%') {
            return words.substr(i, after + 1 - i);
        }
        if (lower(words.substr(after, 7)) == "percent") {
            return words.substr(i, after + 7 - i);
        }
    }
    static const std::vector<std::string> phrases = {
        // proportions and multiples
        "half", "a third", "two thirds", "a quarter", "three quarters", "a fifth", "a tenth",
        "twice", "double", "triple", "times as", "times more", "times larger", "times the",
        // comparisons and approximations
        "more than", "less than", "fewer than", "larger than", "smaller than", "greater than",
        "higher than", "lower than", "bigger than", "at least", "at most", "as much as",
        "as large as", "about the same", "roughly", "nearly", "almost", "approximately", "close to",
        // ranks and relations
        "largest", "smallest", "biggest", "highest", "lowest", "the most", "the least", "the top",
        "second pick", "second choice", "second-best", "runner-up", "first choice", "wins", "beats",
        "outweighs", "orthogonal", "perpendicular", "equal", "equally", "identical", "uniform",
        "uniformly", "evenly", "all of its", "nearly all", "most of"};
    for (const std::string& phrase : phrases) {
        if (const size_t at = findWord(words, phrase); at != std::string::npos) {
            return words.substr(at, phrase.size());
        }
    }
    return {};
}

} // namespace attnbook

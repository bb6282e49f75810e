#pragma once
// The hostile lessons of the notebook's property test (test_notebook_hostile.cpp): strings made
// of the pieces that break out of text (line breaks of every kind, quotes, comment and escape
// starters, HTML that opens or closes a fold or a script, code), each put into one field of an
// otherwise benign lesson of every cell kind. write_hostile_lessons writes such lessons as files
// for the web page's test in Chromium (hostile_page_check.py, docs/web-page.md).

#include <QtCore/QString>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attnbook::hostile {

inline constexpr int kStringsPerField = 500;

// The pieces hostile strings are made of.
const std::vector<std::string>& hostilePieces();

// kStringsPerField strings: `first`, then random joins of one to eight pieces.
std::vector<std::string> hostileStrings(uint32_t seed, const std::vector<std::string>& first);

// Names for the chart's variable: Python's keywords and builtins, IPython's names, the
// notebook's own functions, dunders, and random identifiers.
std::vector<std::string> hostileNames(uint32_t seed);

// Cell ids (a letter or _, then letters, digits, _ and -): the notebook's own names, Python's
// keywords and builtins, dunders, and random ids.
std::vector<std::string> hostileCellIds(uint32_t seed);

// Formulas of n: what muParser reads, and what it should not be let through with.
std::vector<std::string> hostileFormulas(uint32_t seed);

// `text` as prose that leaves the cells after it cells (no code fence, no '<').
std::string asPlainProse(std::string text);

// A YAML double-quoted scalar holding exactly `text` (valid UTF-8 passes as is).
std::string yamlQuoted(const std::string& text);

// The field a hostile string goes into, with the benign value every other lesson has there.
struct Fields {
    std::string title = "Plain title";
    std::string prose = "Plain prose";
    std::string token = "red";
    std::string fileName = "keys";
    std::string tensorName = "layer.q";
    std::string chartTitle = "Cost";
    std::string chartLabel = "whole text";
    std::string variable = "n";
    std::string formula; // empty: VARIABLE^2/2
    std::string question = "Which token?";
    std::string choice = "red";
    std::string explain = "Because.";
    std::string sample = "A sample.";
    std::string transformerId = "tf";
    std::string transformerToken = "red";
    std::string vocabWord = "green";
};

// The lesson made from `f`: an attention cell reading two data files, a chart, a transformer
// cell and two quizzes.
std::string lessonText(const Fields& f);

// The lesson's data files in `folder`: weights.safetensors (a tensor named f.tensorName) and
// f.fileName + ".csv".
bool writeDataFiles(const QString& folder, const Fields& f);

struct Field {
    const char* name;
    std::vector<std::string> values;
    std::function<void(Fields&, const std::string&)> set;
    int minimumAccepted; // how many of the strings a lesson must accept: the test reaches code
};

// Every field of the lesson with its hostile strings, the reproducers of the hostile round
// first; `breakOut` is code that leaves a marker file, were it ever run.
std::vector<Field> hostileFields(const std::string& breakOut);

} // namespace attnbook::hostile

// parsedBodyAfterSets (core/document/cell_editor.h) takes an edited cell's parsed body from the
// lesson's instead of parsing the edited text: wherever it does, the tree must be the one the
// text parses to — every node's kind, text, quoting and file position — and where it cannot be
// sure it must say so (nullopt) rather than guess. Checked over every key of every cell of the
// shipped lessons with values of every shape, one and two at a time, against parseYaml of the
// edited text.
#include "core/document/cell_editor.h"
#include "core/document/cell_reader.h"
#include "core/document/lesson.h"

#include "test_support.h"

#include <filesystem>

using namespace attnbook;

namespace {

std::string describe(const YamlNode& node) {
    std::string out = std::to_string(int(node.kind)) + "@" + std::to_string(node.at.line) + ":" +
                      std::to_string(node.at.column) + (node.quoted ? "q" : "") + "'" +
                      node.scalar + "'";
    for (const YamlNode& item : node.items) {
        out += " [" + describe(item) + "]";
    }
    for (const auto& [key, value] : node.entries) {
        out += " {" + describe(key) + " = " + describe(value) + "}";
    }
    return out;
}

// The edited text parsed whole, as readCell parses it; "error" when it does not parse.
std::string parsedWhole(const CellBlock& cell) {
    try {
        return describe(parseYaml(cellYamlText(cell), cell.bodyFirstLine, cell.indent));
    } catch (const YamlError&) {
        return "error";
    }
}

struct Tally {
    int spliced = 0;
    int declined = 0;
};

// Sets `sets` in the cell with setCellKey; when the splice answers, it must equal the text's.
void compare(const Document& document, const std::string& id, const std::vector<KeySet>& sets,
             Tally& tally) {
    Document edited = document;
    for (const KeySet& set : sets) {
        if (setCellKey(edited, id, set.key, set.value)) {
            return; // refused as a whole: no body to compare
        }
    }
    const CellBlock* before = document.findCell(id);
    const CellBlock* after = edited.findCell(id);
    REQUIRE(before);
    REQUIRE(after);
    const std::optional<YamlNode> spliced = parsedBodyAfterSets(*before, *after, sets);
    if (!spliced) {
        ++tally.declined;
        return;
    }
    ++tally.spliced;
    std::string words = id;
    for (const KeySet& set : sets) {
        words += " " + set.key + "=" + set.value;
    }
    INFO(words);
    CHECK_EQ(describe(*spliced), parsedWhole(*after));
}

const std::vector<std::string> kValues = {"2",
                                          "-0.5",
                                          "1e-3",
                                          "0x1F",
                                          "~",
                                          "true",
                                          "[a, b]",
                                          "[[1, 0], [0, 1]]",
                                          "{steps: 2}",
                                          "\"quoted: text\"",
                                          "'single'",
                                          "text with # a comment",
                                          "  spaced",
                                          "[]",
                                          "{}",
                                          "-",
                                          "a: b",
                                          "- a",
                                          "[unclosed",
                                          "#only a comment",
                                          "| block",
                                          "&anchor x",
                                          "*alias",
                                          "!tag x",
                                          "\"two\\nlines\"",
                                          "caf\xc3\xa9",
                                          "[a, b] # trailing"};

} // namespace

TEST_CASE("a body spliced after sets is the tree its text parses to, or none") {
    Tally tally;
    for (const auto& entry :
         std::filesystem::directory_iterator(ATTNBOOK_SOURCE_DIR "/documents")) {
        if (entry.path().extension() != ".md") {
            continue;
        }
        const auto bytes = test::readFile(entry.path());
        REQUIRE(bytes);
        const Lesson lesson = parseLesson(*bytes, entry.path().string());
        for (const CellBlock* cell : lesson.document.cells()) {
            std::vector<std::string> keys = {"new_key"};
            try {
                const YamlNode body =
                    parseYaml(cellYamlText(*cell), cell->bodyFirstLine, cell->indent);
                for (const auto& [key, value] : body.entries) {
                    keys.push_back(key.scalar);
                }
            } catch (const YamlError&) {
                continue;
            }
            for (const std::string& key : keys) {
                for (const std::string& value : kValues) {
                    compare(lesson.document, cell->id, {{key, value}}, tally);
                }
                // two at once: this key and a new one, and this key twice
                compare(lesson.document, cell->id, {{key, "3"}, {"other_key", "[x]"}}, tally);
                compare(lesson.document, cell->id, {{"other_key", "1"}, {key, "[y, z]"}}, tally);
                compare(lesson.document, cell->id, {{key, "1"}, {key, "2"}}, tally);
            }
        }
    }
    MESSAGE(tally.spliced << " spliced, " << tally.declined << " declined");
    CHECK_GT(tally.spliced, 1000); // the fast way is the usual one
    CHECK_GT(tally.declined, 100); // and the shapes it cannot be sure of are declined
}

TEST_CASE("a body spliced after sets keeps line endings and indentation as the text reads") {
    // a fence indented by two spaces, CRLF line endings, a comment after a key
    const std::string text =
        "# T\r\n\r\n  ```attention c\r\n  tokens: [a, b]\r\n  # the vectors\r\n"
        "  vocab: {a: [1, 0], b: [0, 1]}\r\n  temperature: 1\r\n  ```\r\n";
    const Lesson lesson = parseLesson(text, "t.md");
    Tally tally;
    for (const std::string& value : {"[b, a]", "2", "[b]"}) {
        compare(lesson.document, "c", {{"tokens", value}}, tally);
        compare(lesson.document, "c", {{"temperature", value}}, tally);
        compare(lesson.document, "c", {{"mask", value}}, tally);
    }
    CHECK_EQ(tally.spliced, 9);
    // a key written over two lines is parsed again from the text
    const Lesson twoLines = parseLesson(
        "# T\n\n```attention c\ntokens: [a,\n  b]\nvocab: {a: [1], b: [2]}\n```\n", "t.md");
    Tally declined;
    compare(twoLines.document, "c", {{"tokens", "[b, a]"}}, declined);
    CHECK_EQ(declined.spliced, 0);
    CHECK_EQ(declined.declined, 1);
}

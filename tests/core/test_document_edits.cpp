// Structural edits keep every untouched byte and give a lesson that reads
// back with the intended cells in the intended order.
#include "core/document/cell_editor.h"
#include "core/document/document_edits.h"
#include "core/document/lesson.h"
#include "core/document/yaml_tree.h"

#include "test_support.h"

#include <algorithm>

using namespace attnbook;

namespace {

const char* kLesson = "---\ntitle: T\n---\n\n# T\n\nIntro.\n\n```quiz q1\nquestion: One?\n"
                      "answer: 1\n```\n\nMiddle.\n\n```quiz q2\nquestion: Two?\nanswer: 2\n```\n\n"
                      "End.\n";

std::vector<std::string> cellIds(const std::string& bytes) {
    const Lesson lesson = parseLesson(bytes, "t.md");
    if (hasErrors(lesson.diagnostics)) {
        return {"<errors>"};
    }
    std::vector<std::string> ids;
    for (const LessonCell& c : lesson.cells) {
        ids.push_back(c.id);
    }
    return ids;
}

Document parsed(const std::string& bytes) {
    return parseLesson(bytes, "t.md").document;
}

} // namespace

TEST_CASE("insertDuplicateDeleteMove") {
    Document doc = parsed(kLesson);
    CHECK(!insertCell(doc, 0, CellKind::Quiz, "q0", "question: Zero?\nanswer: 0\n"));
    CHECK_EQ(cellIds(doc.serialize()), (std::vector<std::string>{"q0", "q1", "q2"}));
    CHECK(insertCell(doc, 0, CellKind::Quiz, "q1", "question: Dup?\nanswer: 0\n"));
    CHECK(insertCell(doc, 0, CellKind::Quiz, "9x", ""));

    doc = parsed(doc.serialize());
    CHECK(!duplicateCell(doc, "q2", "q3"));
    CHECK_EQ(cellIds(doc.serialize()), (std::vector<std::string>{"q0", "q1", "q2", "q3"}));

    doc = parsed(doc.serialize());
    CHECK(!moveCell(doc, "q3", -1));
    CHECK_EQ(cellIds(doc.serialize()), (std::vector<std::string>{"q0", "q1", "q3", "q2"}));
    doc = parsed(doc.serialize());
    CHECK(!moveCell(doc, "q0", -1)); // above the intro paragraph
    doc = parsed(doc.serialize());
    CHECK(moveCell(doc, "q0", -1).has_value()); // already at the top

    CHECK(!deleteCell(doc, "q3"));
    CHECK(!deleteCell(doc, "q0"));
    CHECK(deleteCell(doc, "nope").has_value());
    CHECK_EQ(cellIds(doc.serialize()), (std::vector<std::string>{"q1", "q2"}));
}

TEST_CASE("deletingWhatWasInsertedGivesTheOriginalBytes") {
    Document doc = parsed(kLesson);
    CHECK(!insertCell(doc, 2, CellKind::Attention, "fresh", "tokens: [a]\nvocab: {a: [1]}\n"));
    const std::string withCell = doc.serialize();
    CHECK(withCell.find("```attention fresh\ntokens: [a]\nvocab: {a: [1]}\n```\n") !=
          std::string::npos);
    doc = parsed(withCell);
    CHECK(!deleteCell(doc, "fresh"));
    CHECK_EQ(doc.serialize(), std::string(kLesson));
}

TEST_CASE("movesKeepEveryLine") {
    const auto sortedLines = [](const std::string& bytes) {
        std::vector<std::string> lines = test::split(bytes, '\n');
        std::sort(lines.begin(), lines.end());
        return lines;
    };
    Document doc = parsed(kLesson);
    CHECK(!moveCell(doc, "q1", +1));
    const std::string moved = doc.serialize();
    CHECK_EQ(cellIds(moved), (std::vector<std::string>{"q1", "q2"})); // past "Middle."
    CHECK(moved.find("Middle.") < moved.find("```quiz q1"));
    CHECK_EQ(sortedLines(moved), sortedLines(kLesson));
    doc = parsed(moved);
    CHECK(!moveCell(doc, "q2", -1));
    CHECK_EQ(cellIds(doc.serialize()), (std::vector<std::string>{"q2", "q1"}));
    CHECK_EQ(sortedLines(doc.serialize()), sortedLines(kLesson));
}

TEST_CASE("proseEditsKeepLineEndings") {
    std::string crlf;
    for (const char* c = kLesson; *c; ++c) {
        crlf += *c == '\n' ? std::string("\r\n") : std::string(1, *c);
    }
    Document doc = parsed(crlf);
    int intro = -1;
    for (size_t i = 0; i < doc.segments.size(); ++i) {
        if (!doc.segments[i].isCell() &&
            doc.segments[i].prose().text.find("Intro.") != std::string::npos) {
            intro = int(i);
        }
    }
    REQUIRE(intro >= 0);
    CHECK(!setProseText(doc, intro, "\r\n# T\n\nA new intro,\non two lines.\n\n"));
    const std::string bytes = doc.serialize();
    CHECK(bytes.find("A new intro,\r\non two lines.\r\n\r\n```quiz q1") != std::string::npos);
    CHECK((bytes.find("\n\n") == std::string::npos || bytes.find("\r\n\r\n") != std::string::npos));
    CHECK_EQ(cellIds(bytes), (std::vector<std::string>{"q1", "q2"}));
    CHECK_EQ(unusedCellId(doc, "quiz"), std::string("quiz1"));
}

TEST_CASE("a list of words written as YAML reads back as the same words, whatever they hold") {
    // A line break inside a double-quoted scalar folds to a space: a token holding one was
    // written as a what-if the lesson then refused, and a Keep would have changed it.
    const std::vector<std::string> words{
        "x\nimport os\n#", "a\tb", "q\"\\", "\x01\x1b\x7f", "line\xE2\x80\xA8sep",
        "nel\xC2\x85",     "true", "plain", " lead",        "r\r\n"};
    const std::string yaml = yamlFlowStrings(words);
    CHECK(yaml.find('\n') == std::string::npos); // one line
    const YamlNode read = parseYaml("k: " + yaml, 1);
    REQUIRE(read.kind == YamlNode::Kind::Map);
    const YamlNode* list = nullptr;
    for (const auto& [key, value] : read.entries) {
        if (key.scalar == "k") {
            list = &value;
        }
    }
    REQUIRE(list);
    REQUIRE_EQ(list->items.size(), words.size());
    for (size_t i = 0; i < words.size(); ++i) {
        CAPTURE(i);
        CHECK_EQ(list->items[i].scalar, words[i]);
    }
}

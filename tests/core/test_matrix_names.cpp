// One table of an attention cell's input matrices (core/document/matrix_names.h) that
// the editing, the cell reader, Keep and the window consult, and one rule of which matrix a
// reader may edit.
#include "core/document/editable_attention.h"
#include "core/document/lesson.h"
#include "core/document/matrix_names.h"
#include "core/live/attention_live_cell.h"
#include "core/math/attention_engine.h"
#include "core/math/attention_shapes.h"

#include <doctest/doctest.h>

#include <string>

using namespace attnbook;

namespace {

const AttentionCellSpec& onlyCell(const Lesson& lesson) {
    REQUIRE(!lesson.cells.empty());
    REQUIRE(lesson.cells[0].attention());
    return *lesson.cells[0].attention();
}

Lesson lessonOf(const std::string& body) {
    return parseLesson("```attention a\n" + body + "```\n", "names.md");
}

} // namespace

TEST_CASE("every name of the table reads and writes the member it names") {
    const Lesson lesson = lessonOf("tokens: [a, b, c]\nX: [[1, 0], [0, 1], [1, 1]]\n"
                                   "W_Q: [[1, 2], [3, 4]]\nW_K: [[5, 6], [7, 8]]\n"
                                   "W_V: [[9, 10], [11, 12]]\nW_O: [[13, 14], [15, 16]]\n"
                                   "b_Q: [1, 2]\nb_K: [3, 4]\nb_V: [5, 6]\nb_O: [7, 8]\n");
    const AttentionCellSpec& spec = onlyCell(lesson);
    const EditableAttention state = EditableAttention::fromSpec(spec);
    const AttentionShapes shapes = resolveShapes(spec.config, AttentionLimits{});
    int seen = 0;
    for (const InputMatrixName& entry : inputMatrixNames()) {
        CAPTURE(entry.name);
        CHECK_EQ(inputMatrixNamed(entry.name), &entry);
        CHECK_EQ(inputMatrixOfKey(entry.key), &entry);
        CHECK_EQ(inputMatrixOfGradient(entry.gradientName), &entry);
        if (!entry.existsIn(spec.config)) {
            CHECK_FALSE(isEditableMatrix(state, entry.name));
            continue;
        }
        ++seen;
        // The cell reader filled the member the table names, in the shape the table gives.
        const arma::mat value = editableMatrix(state, entry.name);
        CHECK_EQ(editableShape(state, entry.name), entry.shapeIn(shapes));
        CHECK_EQ(std::make_pair(value.n_rows, value.n_cols), entry.shapeIn(shapes));
        if (entry.projection) {
            CHECK(arma::approx_equal((spec.config.*(entry.projection)).weights, value, "absdiff",
                                     0.0));
        } else if (entry.bias) {
            CHECK(arma::approx_equal(arma::mat(spec.config.*(entry.bias)), value, "absdiff", 0.0));
        } else {
            CHECK(arma::approx_equal(spec.config.*(entry.matrix), value, "absdiff", 0.0));
        }
        // An edit through the name lands in that member and in no other.
        EditableAttention edited = state;
        REQUIRE_FALSE(setMatrixEntry(edited, entry.name, 0, 1, 99.0));
        CHECK_EQ(editableMatrix(edited, entry.name)(0, 1), 99.0);
        for (const InputMatrixName& other : inputMatrixNames()) {
            if (&other != &entry && other.existsIn(spec.config)) {
                CHECK(arma::approx_equal(editableMatrix(edited, other.name),
                                         editableMatrix(state, other.name), "absdiff", 0.0));
            }
        }
        // Keep writes it under its cell key.
        const auto keys = changedKeys(state, edited);
        REQUIRE_EQ(keys.size(), size_t(1));
        CHECK_EQ(keys[0].first, std::string(entry.key));
    }
    CHECK_EQ(seen, 9); // X0, four weights, four biases
}

TEST_CASE("direct mode has queries, keys and values in the table's shapes") {
    const Lesson lesson = lessonOf("queries: [[1, 0], [0, 1]]\nkeys: [[1, 0], [0, 1], [1, 1]]\n"
                                   "values: [[1, 2, 3], [4, 5, 6], [7, 8, 9]]\n");
    const AttentionCellSpec& spec = onlyCell(lesson);
    const EditableAttention state = EditableAttention::fromSpec(spec);
    const AttentionShapes shapes = resolveShapes(spec.config, AttentionLimits{});
    for (const char* name : {"queries", "keys", "values"}) {
        CAPTURE(name);
        REQUIRE(isEditableMatrix(state, name));
        CHECK_EQ(editableShape(state, name), inputMatrixNamed(name)->shapeIn(shapes));
    }
    CHECK_FALSE(isEditableMatrix(state, "W_Q"));
    CHECK_FALSE(isEditableMatrix(state, "X0"));
}

TEST_CASE("one rule of editability: the mode has the matrix and a control allows its kind") {
    const std::string body = "tokens: [a, b]\nX: [[1, 0], [0, 1]]\n";
    for (const std::string& controls :
         {std::string("[]"), std::string("[vectors]"), std::string("[projections]"),
          std::string("[vectors, projections]")}) {
        CAPTURE(controls);
        const Lesson lesson = lessonOf(body + "controls: " + controls + "\n");
        const AttentionCellSpec& spec = onlyCell(lesson);
        const AttentionLiveCell live(spec);
        const bool vectors = controls.find("vectors") != std::string::npos;
        const bool projections = controls.find("projections") != std::string::npos;
        for (const InputMatrixName& entry : inputMatrixNames()) {
            CAPTURE(entry.name);
            const bool allowed = std::string(entry.control) == "vectors" ? vectors : projections;
            const bool expected = !entry.isDirect() && allowed;
            CHECK_EQ(readerMayEdit(spec.config, spec.controls, entry.name), expected);
            CHECK_EQ(live.isEditable(entry.name), expected);
            CHECK_EQ(live.fixedReason(entry.name).empty(), expected);
        }
        CHECK_FALSE(live.isEditable("Q"));
        CHECK_FALSE(live.isEditable("upstream"));
    }
}

TEST_CASE("a weight left at identity points its error at the widths that decide it") {
    // W_Q defaults to the identity, (h·d_k × d) = (3 × 2) here, which cannot be: the error is
    // W_Q's, but the author wrote d_k, not W_Q, and the table's decidedBy points there (line 4).
    const Lesson lesson = parseLesson(
        "```attention a\ntokens: [a, b]\nX: [[1, 0], [0, 1]]\nd_k: 3\n```\n", "names.md");
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    int errors = 0;
    for (const Diagnostic& d : results.diagnostics) {
        if (d.severity == Severity::Error) {
            CAPTURE(d.message);
            CHECK_EQ(d.line, 4);
            ++errors;
        }
    }
    CHECK_EQ(errors, 1);
}

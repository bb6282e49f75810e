// {file: PATH} cell values (docs/lesson-format.md): every format and slicing
// option against files NumPy wrote (make_data_fixtures.py runs at test
// time), every unsafe path refused, errors that name the file and the key
// at the value's line and column, and loaded values computing exactly like
// typed ones.
// Longer than 500 lines on purpose: every format, option and refusal of {file: PATH} against
// the same fixtures NumPy writes once.
#include "core/document/cell_editor.h"
#include "core/document/editable_attention.h"
#include "core/document/lesson.h"
#include "core/document/tensor_file.h"

#include "test_support.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

using namespace attnbook;

namespace {

// The fixtures' base matrix, as make_data_fixtures.py defines it (5 × 7).
double base(arma::uword r, arma::uword c) {
    return double(7 * r + c) / 3.0 - 5.0;
}

arma::mat baseMatrix(bool asFloat32 = false) {
    arma::mat a(5, 7);
    for (arma::uword r = 0; r < 5; ++r) {
        for (arma::uword c = 0; c < 7; ++c) {
            a(r, c) = asFloat32 ? double(float(base(r, c))) : base(r, c);
        }
    }
    return a;
}

bool sameMatrix(const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols && arma::all(arma::vectorise(a == b));
}

std::string describe(const std::vector<Diagnostic>& all) {
    std::string out;
    for (const Diagnostic& d : all) {
        out += formatDiagnostic("t.md", d) + "\n";
    }
    return out;
}

// The fixture folders, made once for every test case: NumPy writes the files.
struct Fixture {
    test::TempDir root;  // outside/ and lesson/ below
    std::string folder;  // the lesson's folder, holding the fixtures
    std::string outside; // a folder next to it

    Fixture() : folder(root.filePath("lesson")), outside(root.filePath("outside")) {
        const test::ProcessResult python = test::runProcess(
            ATTNBOOK_PYTHON3, {ATTNBOOK_SOURCE_DIR "/tests/core/make_data_fixtures.py", folder});
        REQUIRE_MESSAGE((python.started && !python.timedOut), python.err);
        REQUIRE_MESSAGE(python.exitCode == 0, python.err);
        REQUIRE(test::makePath(outside));
        REQUIRE(std::filesystem::copy_file(folder + "/c64.npy", outside + "/secret.npy"));
    }
};

const Fixture& fixture() {
    static const Fixture made;
    return made;
}

const std::string& folder() {
    return fixture().folder;
}

const std::string& outside() {
    return fixture().outside;
}

std::optional<Tensor> tensor(const std::string& name, std::string& error,
                             const std::string& tensorName = {},
                             const DataFileLimits& limits = {}) {
    const auto bytes = folderDataFiles(folder())->read(name, limits.maxBytes, error);
    if (!bytes) {
        return std::nullopt;
    }
    return readTensor(*bytes, *tensorFormatOf(name), tensorName, limits, error);
}

arma::mat load(const std::string& name, const std::string& tensorName = {}) {
    std::string error;
    const std::optional<Tensor> t = tensor(name, error, tensorName);
    if (!t) {
        FAIL(name << ": " << error);
    }
    return t->values;
}

std::string tensorError(const std::string& name, const std::string& tensorName = {},
                        const DataFileLimits& limits = {}) {
    std::string error;
    if (tensor(name, error, tensorName, limits)) {
        return "(read without error)";
    }
    return error;
}

// A lesson in the fixture folder with one attention cell whose body is `body`.
Lesson lesson(const std::string& body) {
    return parseLesson("# T\n\n```attention a\n" + body + "```\n", folder() + "/t.md");
}

// The single problem a cell body gives when read (line, column, message).
Diagnostic onlyError(const std::string& body) {
    const Lesson l = lesson(body);
    std::vector<Diagnostic> errors;
    for (const Diagnostic& d : l.diagnostics) {
        if (d.severity == Severity::Error) {
            errors.push_back(d);
        }
    }
    if (errors.size() != 1) {
        MESSAGE("expected one error, got:\n" << describe(l.diagnostics));
        return {};
    }
    return errors.front();
}

} // namespace

TEST_CASE("npyBothOrdersBothWidths") {
    CHECK(sameMatrix(load("c64.npy"), baseMatrix()));
    CHECK(sameMatrix(load("f64.npy"), baseMatrix()));
    CHECK(sameMatrix(load("c32.npy"), baseMatrix(true)));
    CHECK(sameMatrix(load("f32.npy"), baseMatrix(true)));
    CHECK(sameMatrix(load("v2.npy"), baseMatrix()));    // format version 2.0
    CHECK(!sameMatrix(baseMatrix(true), baseMatrix())); // float32 really rounds
}

TEST_CASE("npyVectorsAreRows") {
    const arma::mat v = load("vec.npy"); // 1-D: one row
    CHECK_EQ(v.n_rows, arma::uword(1));
    CHECK(sameMatrix(v, baseMatrix().row(2)));
    CHECK(sameMatrix(load("col.npy"), baseMatrix().col(3)));
}

TEST_CASE("tablesOfNumbers") {
    CHECK(sameMatrix(load("m.csv"), baseMatrix()));
    CHECK(sameMatrix(load("m.tsv"), baseMatrix()));
    CHECK(sameMatrix(load("crlf.csv"), baseMatrix()));
    const arma::mat blank = load("blank_lines.csv");
    CHECK(sameMatrix(blank, arma::mat{{1, 2}, {3, 4}}));
}

TEST_CASE("safetensorsByName") {
    CHECK(sameMatrix(load("model.safetensors", "attn.c_attn.weight"), baseMatrix(true)));
    CHECK(sameMatrix(load("model.safetensors", "attn.c_proj.bias"), baseMatrix().row(1)));
}

TEST_CASE("brokenFilesAreRefusedWithReasons") {
    struct Row {
        std::string name, file, tensor, message;
    };
    const Row rows[] = {
        {"big-endian", "big_endian.npy", "", "big-endian ('>f8')"},
        {"integers", "int.npy", "", "dtype '<i8'"},
        {"3-D", "cube.npy", "", "shape 2×3×4 has 3 dimensions"},
        {"0-D", "scalar.npy", "", "shape () has 0 dimensions"},
        {"nan", "nan.npy", "", "the number at [1, 0] is not finite (nan)"},
        {"truncated", "truncated.npy", "", "needs 280 bytes of numbers, but the file holds 272"},
        {"huge shape", "huge.npy", "", "shape 100000000×100000000 is over the limit"},
        {"not npy", "m.csv.npy", "", ""},
        {"text in csv", "text.csv", "", "line 2, field 2: 'abc' is not a number"},
        {"header row", "header.csv", "", "line 1, field 1: 'a' is not a number"},
        {"ragged", "ragged.csv", "", "line 2 has 2 numbers, but the first row has 3"},
        {"empty field", "empty_field.csv", "", "line 1, field 2: the field is empty"},
        {"decimal comma", "comma.tsv", "", "'1,5' is not a number"},
        {"no tensor name", "model.safetensors", "", "say which with tensor: NAME"},
        {"unknown tensor", "model.safetensors", "wte",
         "no tensor 'wte' (it holds attn.c_attn.weight, "
         "attn.c_proj.bias)"},
        {"float16", "half.safetensors", "w", "is of dtype F16"},
        {"header size", "bad_header.safetensors", "w",
         "header size (1099511627776 bytes) is larger"},
        {"duplicate name", "dup.safetensors", "w", "names the tensor 'w' twice"},
    };
    for (const Row& row : rows) {
        test::dataRow(row.name, [&] {
            std::string message = row.message;
            if (row.file == "m.csv.npy") {
                CHECK(std::filesystem::copy_file(folder() + "/m.csv", folder() + "/m.csv.npy"));
                message = "not a .npy file";
            }
            const std::string error = tensorError(row.file, row.tensor);
            CHECK_MESSAGE(error.find(message) != std::string::npos, error);
        });
    }
}

TEST_CASE("sizesAreCheckedBeforeReading") {
    DataFileLimits small;
    small.maxBytes = 200; // c64.npy is 128 + 280 bytes
    CHECK_MESSAGE(
        tensorError("c64.npy", {}, small).find("is 408 bytes, over the limit of 200 bytes") !=
            std::string::npos,
        tensorError("c64.npy", {}, small));
    DataFileLimits few;
    few.maxElements = 34;
    CHECK(tensorError("c64.npy", {}, few).find("shape 5×7 is over the limit of 34 numbers") !=
          std::string::npos);
    CHECK(tensorError("m.csv", {}, few).find("more than 34 numbers") != std::string::npos);
    CHECK(tensorError("model.safetensors", "attn.c_attn.weight", few)
              .find("over the limit of 34 numbers") != std::string::npos);
}

// rows, cols, transpose: slice first, then transpose, as NumPy's A[a:b, c:d].T.
TEST_CASE("slicingMatchesNumPy") {
    struct Row {
        std::string name, options, expected;
    };
    std::vector<Row> rows;
    for (const std::string file : {"c64.npy", "f64.npy", "m.csv", "m.tsv"}) {
        const std::string f = "file: " + file;
        rows.push_back({file + " rows", f + ", rows: [1, 4]", "expect_rows_1_4.npy"});
        rows.push_back({file + " cols", f + ", cols: [2, 6]", "expect_cols_2_6.npy"});
        rows.push_back({file + " all", f + ", rows: [1, 4], cols: [2, 6], transpose: true",
                        "expect_rows_1_4_cols_2_6_T.npy"});
        rows.push_back({file + " transpose", f + ", transpose: true", "expect_T.npy"});
    }
    for (const Row& row : rows) {
        test::dataRow(row.name, [&] {
            // W_Q's shape is checked when computing, not when reading: any shape reads.
            const Lesson l = lesson("tokens: [a]\nX: [[1]]\nW_Q: {" + row.options + "}\n");
            REQUIRE_MESSAGE((l.cells.size() == 1 && l.cells[0].attention()),
                            describe(l.diagnostics));
            CHECK(sameMatrix(l.cells[0].attention()->config.wQ.weights, load(row.expected)));
            CHECK_EQ(l.cells[0].read().dataFiles.size(), size_t(1));
        });
    }
}

TEST_CASE("packedHeadFromSafetensors") {
    // One head's W_Q cut from a packed matrix stored inputs × outputs (GPT-2's Conv1D).
    const Lesson l = lesson("tokens: [a]\nX: [[1, 2, 3, 4, 5]]\n"
                            "W_Q: {file: model.safetensors, tensor: attn.c_attn.weight, "
                            "cols: [2, 6], transpose: true}\n"
                            "b_Q: {file: model.safetensors, tensor: attn.c_proj.bias, "
                            "cols: [0, 4]}\n");
    REQUIRE_MESSAGE(l.cells[0].attention(), describe(l.diagnostics));
    const AttentionConfig& c = l.cells[0].attention()->config;
    CHECK(sameMatrix(c.wQ.weights, arma::mat(baseMatrix(true).cols(2, 5).t())));
    CHECK(!c.wQ.identity);
    CHECK(sameMatrix(c.bQ, baseMatrix().row(1).cols(0, 3)));
    CHECK_EQ(lessonDataFiles(l), std::vector<std::string>{"model.safetensors"});
}

TEST_CASE("vectorKeysTakeOneRowOrColumn") {
    const Lesson l = lesson("tokens: [a]\nX: [[1, 2, 3, 4, 5]]\nb_V: {file: col.npy}\n");
    REQUIRE_MESSAGE(l.cells[0].attention(), describe(l.diagnostics));
    CHECK(sameMatrix(l.cells[0].attention()->config.bV, baseMatrix().col(3).t()));
    const Diagnostic d = onlyError("tokens: [a]\nX: [[1, 2]]\nb_V: {file: c64.npy}\n");
    CHECK_EQ(d.line, 6);
    CHECK_EQ(d.column, 6);
    CHECK_MESSAGE(d.message.find("b_V: c64.npy, shape 5×7 gives 5 × 7 numbers") !=
                      std::string::npos,
                  d.message);
}

TEST_CASE("vocabWithLabels") {
    const Lesson l = lesson("tokens: [cat, mat, cat]\n"
                            "vocab: {file: emb.npy, labels: vocab.txt}\n");
    REQUIRE_MESSAGE(l.cells[0].attention(), describe(l.diagnostics));
    const AttentionCellSpec& spec = *l.cells[0].attention();
    CHECK_EQ(spec.vocabOrder, (std::vector<std::string>{"the", "cat", "sat", "mat"}));
    const arma::mat expected{{0.0, 1.0, -0.5}, {-1.0, 2.0, 3.0}, {0.0, 1.0, -0.5}};
    CHECK(sameMatrix(spec.config.X0, expected));
    CHECK_EQ(lessonDataFiles(l), (std::vector<std::string>{"emb.npy", "vocab.txt"}));
}

TEST_CASE("vocabProblems") {
    struct Row {
        std::string name, body;
        int line, column;
        std::string message;
    };
    const Row rows[] = {
        {"short", "tokens: [cat]\nvocab: {file: emb.npy, labels: vocab_short.txt}\n", 5, 32,
         "vocab: vocab_short.txt: 3 labels for the 4 rows of emb.npy, shape 4×3"},
        {"duplicate", "tokens: [cat]\nvocab: {file: emb.npy, labels: vocab_dup.txt}\n", 5, 32,
         "vocab: vocab_dup.txt: line 3: the token 'the' is listed twice"},
        {"no labels", "tokens: [cat]\nvocab: {file: emb.npy}\n", 5, 8,
         "vocab: a vocab from a file needs labels"},
        {"unknown token", "tokens: [dog]\nvocab: {file: emb.npy, labels: vocab.txt}\n", 4, 10,
         "the token 'dog' is not in the vocab"},
    };
    for (const Row& row : rows) {
        test::dataRow(row.name, [&] {
            const Diagnostic d = onlyError(row.body);
            CHECK_MESSAGE(d.message.find(row.message) != std::string::npos, d.message);
            CHECK_EQ(d.line, row.line);
            CHECK_EQ(d.column, row.column);
        });
    }
}

// Errors point at the part of the value at fault and name the key and the file.
TEST_CASE("errorsNameFileKeyAndPlace") {
    struct Row {
        std::string name, body;
        int line, column;
        std::string message;
    };
    const Row rows[] = {
        {"rows past the end",
         "tokens: [a]\nX: [[1, 2, 3, 4, 5, 6, 7]]\n"
         "W_Q: {file: c64.npy, rows: [0, 64]}\n",
         6, 28, "W_Q: c64.npy: shape 5×7 has 5 rows, so rows: [0, 64] reaches past its end"},
        {"cols past the end", "tokens: [a]\nX:\n  {file: m.csv,\n   cols: [3, 9]}\n", 7, 10,
         "X: m.csv: shape 5×7 has 7 columns, so cols: [3, 9] reaches past its end"},
        {"empty slice", "tokens: [a]\nX: {file: c64.npy, rows: [2, 2]}\n", 5, 26,
         "X: rows: [2, 2] is empty"},
        {"missing file", "tokens: [a]\nX: {file: nope.npy}\n", 5, 11,
         "X: nope.npy: no such file in the lesson's folder"},
        {"unknown option", "tokens: [a]\nX: {file: c64.npy, row: [0, 1]}\n", 5, 20,
         "X: unknown key 'row' in a file value"},
        {"format", "tokens: [a]\nX: {file: c64.json}\n", 5, 11,
         "X: c64.json: a cell reads .npy, .csv, .tsv or .safetensors"},
        {"bad file", "tokens: [a]\nX: {file: big_endian.npy}\n", 5, 11,
         "X: big_endian.npy: the numbers are big-endian"},
        {"tensor of npy", "tokens: [a]\nX: {file: c64.npy, tensor: w}\n", 5, 28,
         "X: tensor: names a tensor of a .safetensors"},
    };
    for (const Row& row : rows) {
        test::dataRow(row.name, [&] {
            const Diagnostic d = onlyError(row.body);
            CHECK_MESSAGE(d.message.find(row.message) != std::string::npos, d.message);
            CHECK_EQ(d.line, row.line);
            CHECK_EQ(d.column, row.column);
        });
    }
}

TEST_CASE("shapeErrorsSayWhatWasRead") {
    // W_Q must be d_k × d = 7 × 7; the file gives 3 × 7 after the slice.
    const Lesson l = lesson("tokens: [a]\nX: [[1, 2, 3, 4, 5, 6, 7]]\nd_k: 7\n"
                            "W_Q: {file: c64.npy, rows: [1, 4]}\n");
    CHECK(l.cells[0].attention());
    AttentionEngine engine;
    const LessonResults results = computeLesson(l, engine);
    REQUIRE_EQ(results.diagnostics.size(), size_t(1));
    const Diagnostic& d = results.diagnostics.front();
    CHECK_EQ(d.line, 7);
    CHECK_MESSAGE(d.message.find("not 3 × 7 — read from c64.npy, shape 5×7, rows: [1, 4]") !=
                      std::string::npos,
                  d.message);
}

TEST_CASE("unsafePathsAreRefused") {
    struct Row {
        std::string name, path, message;
    };
    const Row rows[] = {
        {"parent", "../outside/secret.npy", "leaves the lesson's folder (..)"},
        {"inner parent", "sub/../c64.npy", "leaves the lesson's folder (..)"},
        {"absolute", "ABSOLUTE", "the path is absolute"},
        {"backslash", "..\\\\outside\\\\secret.npy", "backslash"},
        {"drive", "C:/secret.npy", "holds ':'"},
        {"dot", "./c64.npy", "has a '.' part"},
        {"double slash", "sub//c64.npy", "empty part"},
        {"link to a file outside", "link_out.npy", "leads outside the lesson's"},
        {"link to a folder outside", "dir_out/secret.npy", "leads outside the lesson's"},
        {"fifo", "pipe.npy", "not a regular file"},
        {"folder", "folder.npy", "is a folder"},
    };
    // Links, a FIFO and a folder where the rows below look for them.
    static bool made = false;
    if (!made) {
        made = true;
        REQUIRE_EQ(
            ::symlink((outside() + "/secret.npy").c_str(), (folder() + "/link_out.npy").c_str()),
            0);
        REQUIRE_EQ(::symlink(outside().c_str(), (folder() + "/dir_out").c_str()), 0);
        REQUIRE_EQ(::mkfifo((folder() + "/pipe.npy").c_str(), 0600), 0);
        REQUIRE(test::makePath(folder() + "/folder.npy"));
    }
    for (const Row& row : rows) {
        test::dataRow(row.name, [&] {
            const std::string path = row.path == "ABSOLUTE" ? outside() + "/secret.npy" : row.path;
            const Diagnostic d = onlyError("tokens: [a]\nX: {file: \"" + path + "\"}\n");
            CHECK_MESSAGE(d.message.find(row.message) != std::string::npos, d.message);
            CHECK_MESSAGE(d.message.rfind("X: ", 0) == 0, d.message);
            CHECK_EQ(d.line, 5);
            CHECK_EQ(d.column, 11);
        });
    }
}

TEST_CASE("linksInsideTheFolderAreFollowed") {
    CHECK(test::makePath(folder() + "/sub"));
    CHECK_EQ(::symlink("../c64.npy", (folder() + "/sub/inner.npy").c_str()), 0);
    const Lesson l = lesson("tokens: [a, b, c, d, e]\nX: {file: sub/inner.npy}\n");
    REQUIRE_MESSAGE(l.cells[0].attention(), describe(l.diagnostics));
    CHECK(sameMatrix(l.cells[0].attention()->config.X0, baseMatrix()));
}

TEST_CASE("lessonWithoutFolderReadsNothing") {
    const Lesson l = parseLesson("# T\n\n```attention a\ntokens: [a]\nX: {file: c64.npy}\n```\n",
                                 ":/documents/t.md");
    CHECK_EQ(l.cells[0].attention(), nullptr);
    CHECK(describe(l.diagnostics).find("no folder yet") != std::string::npos);
}

// One error per missing file, at the first value that reads it, however many values read it
// (transformer.md's model file gave 36 errors); another missing file is an error of its own.
TEST_CASE("aMissingFileIsOneErrorHoweverManyValuesReadIt") {
    const Lesson l = lesson("tokens: [a, b]\nX: {file: gone/model.npy}\n"
                            "W_Q: {file: gone/model.npy}\nW_K: {file: gone/model.npy}\n"
                            "W_V: {file: gone/other.npy}\n");
    std::vector<std::string> messages;
    for (const Diagnostic& d : l.diagnostics) {
        messages.push_back(d.message);
    }
    REQUIRE_MESSAGE(messages.size() == 2, describe(l.diagnostics));
    CHECK(messages[0] == "X: gone/model.npy: no such file in the lesson's folder (3 values read "
                         "it; the first is here)");
    CHECK_EQ(l.diagnostics[0].line, 5); // X, the first
    CHECK(messages[1] == "W_V: gone/other.npy: no such file in the lesson's folder");
    // A lesson with no folder says so once.
    const Lesson folderless = parseLesson("# T\n\n```attention a\ntokens: [a]\n"
                                          "X: {file: c64.npy}\nW_Q: {file: c64.npy}\n```\n",
                                          ":/documents/t.md");
    REQUIRE_EQ(folderless.diagnostics.size(), size_t(1));
    CHECK(folderless.diagnostics[0].message.find("this lesson has no folder yet") !=
          std::string::npos);
    CHECK(folderless.diagnostics[0].message.find("(2 values read it") != std::string::npos);
}

TEST_CASE("memoryFilesServeBundles") {
    std::string error;
    const auto bytes = folderDataFiles(folder())->read("c64.npy", 1 << 20, error);
    CHECK(bytes);
    const std::string path = "/nowhere/bundle.zip";
    const Lesson l =
        parseLesson("# T\n\n```attention a\ntokens: [a, b, c, d, e]\nX: {file: data/w.npy}\n```\n",
                    path, memoryDataFiles({{"data/w.npy", *bytes}}));
    REQUIRE_MESSAGE(l.cells[0].attention(), describe(l.diagnostics));
    CHECK(sameMatrix(l.cells[0].attention()->config.X0, baseMatrix()));
    // The bundle's files are that lesson's alone: another read under the same path looks
    // beside it on disk (a process-wide table kept them for the path forever).
    const Lesson other = parseLesson(
        "# T\n\n```attention a\ntokens: [a, b, c, d, e]\nX: {file: data/w.npy}\n```\n", path);
    CHECK_EQ(other.cells[0].attention(), nullptr);
    CHECK(describe(other.diagnostics).find("data/w.npy: the lesson's folder cannot be read") !=
          std::string::npos);
}

// A what-if edit of a loaded matrix works like one of a typed matrix; Keep
// writes it back as the same file reference with the changed entries in
// `set:`, and leaves the file and every unedited
// {file: PATH} value alone. A second Keep adds to the first one's entries.
TEST_CASE("keepWritesAnEditOfALoadedMatrixAsSetEntries") {
    const std::string body = "tokens: [a, b, c, d, e]\nX: {file: m.csv, cols: [0, 4]}\n"
                             "W_Q: {file: c64.npy, rows: [0, 4], cols: [1, 5]}\n"
                             "W_K: {file: c64.npy, rows: [1, 5], cols: [3, 7]}\n";
    const Lesson before = lesson(body);
    REQUIRE_MESSAGE(before.cells[0].attention(), describe(before.diagnostics));
    const EditableAttention authored = EditableAttention::fromSpec(*before.cells[0].attention());
    EditableAttention edited = authored;
    CHECK_EQ(setMatrixEntry(edited, "W_Q", 1, 2, 0.1 + 0.2), EditRefusal());
    const auto changes = changedKeys(authored, edited);
    REQUIRE_EQ(changes.size(), size_t(1));
    CHECK_EQ(changes[0].first, std::string("W_Q"));
    // The shortest digits that read back as the same double.
    CHECK_EQ(changes[0].second, std::string("{file: c64.npy, rows: [0, 4], cols: [1, 5], "
                                            "set: [[1, 2, 0.30000000000000004]]}"));
    arma::mat expected = baseMatrix().submat(0, 1, 3, 4); // (4 × 4) of the file
    expected(1, 2) = 0.1 + 0.2;

    Document document = before.document;
    CHECK_EQ(setCellKey(document, "a", changes[0].first, changes[0].second),
             std::optional<std::string>());
    const Lesson after = parseLesson(document.serialize(), folder() + "/t.md");
    REQUIRE_MESSAGE(after.cells[0].attention(), describe(after.diagnostics));
    CHECK(sameMatrix(after.cells[0].attention()->config.wQ.weights, expected));
    // The same files are read as before: W_Q still comes from c64.npy.
    CHECK_EQ(after.cells[0].read().dataFiles, before.cells[0].read().dataFiles);
    CHECK_EQ(after.cells[0].read().dataFiles,
             (std::vector<std::string>{"m.csv", "c64.npy", "c64.npy"}));
    CHECK(document.serialize().find("W_K: {file: c64.npy, rows: [1, 5], cols: [3, 7]}\n") !=
          std::string::npos);
    CHECK_EQ(after.cells[0].attention()->loadedFrom.at("W_Q"),
             std::string("c64.npy, shape 5×7, rows: [0, 4], cols: [1, 5], 1 entry set"));
    CHECK(sameMatrix(load("c64.npy"), baseMatrix())); // the file is untouched

    // The window's second Keep, from the state the first one left.
    const EditableAttention kept = keptState(authored, edited);
    EditableAttention again = kept;
    CHECK_EQ(setMatrixEntry(again, "W_Q", 3, 0, -1.25), EditRefusal());
    const auto second = changedKeys(kept, again);
    REQUIRE_EQ(second.size(), size_t(1));
    CHECK_EQ(second[0].second, std::string("{file: c64.npy, rows: [0, 4], cols: [1, 5], set: "
                                           "[[1, 2, 0.30000000000000004], [3, 0, -1.25]]}"));
    // Re-reading a lesson with `set:` gives the same state as the Keep left.
    const EditableAttention reread = EditableAttention::fromSpec(*after.cells[0].attention());
    CHECK_EQ(changedKeys(reread, again), second);
}

// An edit that rewrites most of a loaded matrix, or its shape, is typed out: the file no longer
// says what the matrix is. The state the Keep leaves forgets the file then.
TEST_CASE("keepTypesAnEditThatRewritesMostOfALoadedMatrix") {
    const Lesson before = lesson("tokens: [a, b, c, d, e]\nX: {file: m.csv, cols: [0, 4]}\n"
                                 "W_Q: {file: c64.npy, rows: [0, 4], cols: [1, 5]}\n");
    REQUIRE_MESSAGE(before.cells[0].attention(), describe(before.diagnostics));
    const EditableAttention authored = EditableAttention::fromSpec(*before.cells[0].attention());
    EditableAttention edited = authored;
    CHECK_EQ(setZero(edited, "W_Q"), EditRefusal());
    const auto changes = changedKeys(authored, edited);
    REQUIRE_EQ(changes.size(), size_t(1));
    CHECK_EQ(changes[0].second, yamlFlowMatrix(arma::zeros(4, 4)));
    CHECK_EQ(keptState(authored, edited).fileValues.count("W_Q"), size_t(0));
    CHECK_EQ(keptState(authored, edited).fileValues.count("X"), size_t(1));

    EditableAttention fewer = authored; // X loses a token: 4 × 4 rows, not 5 × 4
    CHECK_EQ(removeToken(fewer, 4), EditRefusal());
    const auto typed = changedKeys(authored, fewer);
    const auto x = std::find_if(typed.begin(), typed.end(),
                                [](const auto& change) { return change.first == "X"; });
    REQUIRE(x != typed.end());
    CHECK_EQ(x->second, yamlFlowMatrix(baseMatrix().submat(0, 0, 3, 3)));
}

// A vector keeps the orientation its file gave: a 1-D array is one row, a column is one column.
TEST_CASE("keepOfALoadedVectorSetsItsEntry") {
    const Lesson before = lesson("tokens: [a, b, c, d, e]\nX: {file: m.csv, cols: [0, 4]}\n"
                                 "b_Q: {file: vec.npy, cols: [0, 4]}\n"
                                 "b_K: {file: col.npy, rows: [0, 4]}\n");
    REQUIRE_MESSAGE(before.cells[0].attention(), describe(before.diagnostics));
    const EditableAttention authored = EditableAttention::fromSpec(*before.cells[0].attention());
    EditableAttention edited = authored;
    CHECK_EQ(setMatrixEntry(edited, "b_Q", 0, 2, 9), EditRefusal());
    CHECK_EQ(setMatrixEntry(edited, "b_K", 0, 3, -2), EditRefusal());
    const auto changes = changedKeys(authored, edited);
    REQUIRE_EQ(changes.size(), size_t(2));
    CHECK_EQ(changes[0], std::pair<std::string, std::string>(
                             "b_Q", "{file: vec.npy, cols: [0, 4], set: [[0, 2, 9]]}"));
    CHECK_EQ(changes[1], std::pair<std::string, std::string>(
                             "b_K", "{file: col.npy, rows: [0, 4], set: [[3, 0, -2]]}"));
    Document document = before.document;
    for (const auto& [key, value] : changes) {
        CHECK_EQ(setCellKey(document, "a", key, value), std::optional<std::string>());
    }
    const Lesson after = parseLesson(document.serialize(), folder() + "/t.md");
    REQUIRE_MESSAGE(after.cells[0].attention(), describe(after.diagnostics));
    CHECK(
        arma::approx_equal(after.cells[0].attention()->config.bQ, edited.config.bQ, "absdiff", 0));
    CHECK(
        arma::approx_equal(after.cells[0].attention()->config.bK, edited.config.bK, "absdiff", 0));
}

// `set:` applies after the slice and the transpose, in the matrix the cell sees.
TEST_CASE("setEntriesApplyAfterSliceAndTranspose") {
    const Lesson l = lesson("tokens: [a, b, c, d, e]\nX: {file: m.csv, cols: [0, 4]}\n"
                            "W_V: {file: m.tsv, rows: [0, 4], cols: [2, 6], transpose: true,\n"
                            "      set: [[0, 3, 7], [2, 1, -0.5]]}\n");
    REQUIRE_MESSAGE(l.cells[0].attention(), describe(l.diagnostics));
    arma::mat expected = baseMatrix().submat(0, 2, 3, 5).t(); // (4 × 4) after the transpose
    expected(0, 3) = 7;
    expected(2, 1) = -0.5;
    CHECK(sameMatrix(l.cells[0].attention()->config.wV.weights, expected));
}

// Each problem of `set:` at its own line and column, naming the key (and the file when the
// problem is where the entry falls in what was read).
TEST_CASE("setEntryErrors") {
    struct Row {
        std::string name, body;
        int line, column;
        std::string message;
    };
    const Row rows[] = {
        {"row past the end",
         "tokens: [a]\nX: {file: c64.npy, rows: [0, 1], set: [[0, 1, 2], [1, 0, 5]]}\n", 5, 51,
         "X: c64.npy: set: [1, 0] is outside the 1 × 7 matrix read (rows and columns count from "
         "0)"},
        {"col past the end",
         "tokens: [a]\nX: {file: c64.npy, rows: [0, 1],\n    set: [[0, 7, 2]]}\n", 6, 11,
         "X: c64.npy: set: [0, 7] is outside the 1 × 7 matrix read"},
        {"not a list of entries", "tokens: [a]\nX: {file: c64.npy, rows: [0, 1], set: [0, 1, 2]}\n",
         5, 40, "X: set must be a list of [row, col, value] entries, like [[1, 1, 5]]"},
        {"not a list", "tokens: [a]\nX: {file: c64.npy, rows: [0, 1], set: 5}\n", 5, 39,
         "X: set must be a list of [row, col, value] entries"},
        {"negative index", "tokens: [a]\nX: {file: c64.npy, rows: [0, 1], set: [[-1, 0, 2]]}\n", 5,
         41, "X: set: row and col must be whole numbers ≥ 0"},
        {"value not a number", "tokens: [a]\nX: {file: c64.npy, rows: [0, 1], set: [[0, 0, x]]}\n",
         5, 47, "X: set: the value must be a number"},
        {"set twice",
         "tokens: [a]\nX: {file: c64.npy, rows: [0, 1], set: [[0, 0, 1], [0, 0, 2]]}\n", 5, 51,
         "X: set: [0, 0] is set twice"},
    };
    for (const Row& row : rows) {
        test::dataRow(row.name, [&] {
            const Diagnostic d = onlyError(row.body);
            CHECK_MESSAGE(d.message.find(row.message) != std::string::npos, d.message);
            CHECK_EQ(d.line, row.line);
            CHECK_EQ(d.column, row.column);
        });
    }
    // FILE:LINE:COLUMN, as `attnbook check` prints it.
    const Diagnostic d = onlyError(rows[0].body);
    CHECK_EQ(formatDiagnostic("t.md", d).rfind("t.md:5:51: ", 0), size_t(0));
}

// A cell whose matrices come from files computes exactly like the same
// cell with the numbers typed out.
TEST_CASE("loadedComputesLikeTyped") {
    const std::string fromFiles = "tokens: [a, b, c, d, e]\nX: {file: m.csv, cols: [0, 4]}\n"
                                  "W_Q: {file: c64.npy, rows: [0, 4], cols: [1, 5]}\n"
                                  "W_K: {file: f32.npy, rows: [1, 5], cols: [3, 7]}\n"
                                  "W_V: {file: m.tsv, rows: [0, 4], cols: [2, 6], "
                                  "transpose: true}\n"
                                  "b_Q: {file: vec.npy, cols: [0, 4]}\n"
                                  "heads: 2\nmask: causal\n";
    const arma::mat a = baseMatrix();
    const std::string typed = "tokens: [a, b, c, d, e]\nX: " + yamlFlowMatrix(a.cols(0, 3)) +
                              "\nW_Q: " + yamlFlowMatrix(a.submat(0, 1, 3, 4)) +
                              "\nW_K: " + yamlFlowMatrix(baseMatrix(true).submat(1, 3, 4, 6)) +
                              "\nW_V: " + yamlFlowMatrix(a.submat(0, 2, 3, 5).t()) +
                              "\nb_Q: " + yamlFlowVector(a.row(2).cols(0, 3)) +
                              "\nheads: 2\nmask: causal\n";
    AttentionEngine engine;
    const Lesson loaded = lesson(fromFiles);
    const Lesson written = lesson(typed);
    REQUIRE_MESSAGE(loaded.cells[0].attention(), describe(loaded.diagnostics));
    REQUIRE_MESSAGE(written.cells[0].attention(), describe(written.diagnostics));
    const LessonResults x = computeLesson(loaded, engine);
    const LessonResults y = computeLesson(written, engine);
    CHECK(x.diagnostics.empty());
    CHECK_EQ(x.cells[0].json.dump(), y.cells[0].json.dump());
}

// A CSV that starts with a UTF-8 byte order mark (as spreadsheets write it) was
// refused, and a file with old-Mac line ends (\r alone) reported every problem on line 1.
TEST_CASE("aByteOrderMarkAndCarriageReturnLineEnds") {
    const auto write = [](const std::string& name, const std::string& bytes) {
        std::ofstream(folder() + "/" + name, std::ios::binary) << bytes;
    };
    write("bom.csv", "\xef\xbb\xbf"
                     "1,2\n3,4\n");
    const arma::mat bom = load("bom.csv");
    CHECK(bom.n_rows == 2);
    CHECK(bom(0, 0) == 1.0);
    CHECK(bom(1, 1) == 4.0);
    write("cr.csv", "1,2\r3,4\r5,x\r");
    CHECK_MESSAGE(tensorError("cr.csv").find("line 3, field 2: 'x'") != std::string::npos,
                  tensorError("cr.csv"));
    write("crlf_blank.csv", "1,2\r\n\r\n3,4\r\n5\r\n");
    CHECK_MESSAGE(tensorError("crlf_blank.csv").find("line 4 has 1 numbers") != std::string::npos,
                  tensorError("crlf_blank.csv"));
}

// {file: PATH} cell values (document-format.md): every format and slicing
// option against files NumPy wrote (make_data_fixtures.py runs at test
// time), every unsafe path refused, errors that name the file and the key
// at the value's line and column, and loaded values computing exactly like
// typed ones.
#include "core/document/cell_editor.h"
#include "core/document/editable_attention.h"
#include "core/document/lesson.h"
#include "core/document/tensor_file.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

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

} // namespace

class TestDataFiles : public QObject {
    Q_OBJECT

    QTemporaryDir root_;  // outside/ and lesson/ below
    std::string folder_;  // the lesson's folder, holding the fixtures
    std::string outside_; // a folder next to it

    std::optional<Tensor> tensor(const std::string& name, std::string& error,
                                 const std::string& tensorName = {},
                                 const DataFileLimits& limits = {}) {
        const auto bytes = folderDataFiles(folder_)->read(name, limits.maxBytes, error);
        if (!bytes) {
            return std::nullopt;
        }
        return readTensor(*bytes, *tensorFormatOf(name), tensorName, limits, error);
    }

    arma::mat load(const std::string& name, const std::string& tensorName = {}) {
        std::string error;
        const std::optional<Tensor> t = tensor(name, error, tensorName);
        if (!t) {
            qFatal("%s: %s", name.c_str(), error.c_str());
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
        return parseLesson("# T\n\n```attention a\n" + body + "```\n", folder_ + "/t.md");
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
            qWarning("expected one error, got:\n%s", describe(l.diagnostics).c_str());
            return {};
        }
        return errors.front();
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(root_.isValid());
        folder_ = root_.filePath(QStringLiteral("lesson")).toStdString();
        outside_ = root_.filePath(QStringLiteral("outside")).toStdString();
        QProcess python;
        python.start(QStringLiteral(ATTNBOOK_PYTHON3),
                     {QStringLiteral(ATTNBOOK_SOURCE_DIR "/tests/core/make_data_fixtures.py"),
                      QString::fromStdString(folder_)});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        QVERIFY(QDir().mkpath(QString::fromStdString(outside_)));
        QVERIFY(QFile::copy(QString::fromStdString(folder_ + "/c64.npy"),
                            QString::fromStdString(outside_ + "/secret.npy")));
    }

    void npyBothOrdersBothWidths() {
        QVERIFY(sameMatrix(load("c64.npy"), baseMatrix()));
        QVERIFY(sameMatrix(load("f64.npy"), baseMatrix()));
        QVERIFY(sameMatrix(load("c32.npy"), baseMatrix(true)));
        QVERIFY(sameMatrix(load("f32.npy"), baseMatrix(true)));
        QVERIFY(sameMatrix(load("v2.npy"), baseMatrix()));    // format version 2.0
        QVERIFY(!sameMatrix(baseMatrix(true), baseMatrix())); // float32 really rounds
    }

    void npyVectorsAreRows() {
        const arma::mat v = load("vec.npy"); // 1-D: one row
        QCOMPARE(v.n_rows, arma::uword(1));
        QVERIFY(sameMatrix(v, baseMatrix().row(2)));
        QVERIFY(sameMatrix(load("col.npy"), baseMatrix().col(3)));
    }

    void tablesOfNumbers() {
        QVERIFY(sameMatrix(load("m.csv"), baseMatrix()));
        QVERIFY(sameMatrix(load("m.tsv"), baseMatrix()));
        QVERIFY(sameMatrix(load("crlf.csv"), baseMatrix()));
        const arma::mat blank = load("blank_lines.csv");
        QVERIFY(sameMatrix(blank, arma::mat{{1, 2}, {3, 4}}));
    }

    void safetensorsByName() {
        QVERIFY(sameMatrix(load("model.safetensors", "attn.c_attn.weight"), baseMatrix(true)));
        QVERIFY(sameMatrix(load("model.safetensors", "attn.c_proj.bias"), baseMatrix().row(1)));
    }

    void brokenFilesAreRefusedWithReasons_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QString>("message");
        QTest::newRow("big-endian") << "big_endian.npy"
                                    << ""
                                    << "big-endian ('>f8')";
        QTest::newRow("integers") << "int.npy"
                                  << ""
                                  << "dtype '<i8'";
        QTest::newRow("3-D") << "cube.npy"
                             << ""
                             << "shape 2×3×4 has 3 dimensions";
        QTest::newRow("0-D") << "scalar.npy"
                             << ""
                             << "shape () has 0 dimensions";
        QTest::newRow("nan") << "nan.npy"
                             << ""
                             << "the number at [1, 0] is not finite (nan)";
        QTest::newRow("truncated") << "truncated.npy"
                                   << ""
                                   << "needs 280 bytes of numbers, but the file holds 272";
        QTest::newRow("huge shape") << "huge.npy"
                                    << ""
                                    << "shape 100000000×100000000 is over the limit";
        QTest::newRow("not npy") << "m.csv.npy"
                                 << ""
                                 << "";
        QTest::newRow("text in csv") << "text.csv"
                                     << ""
                                     << "line 2, field 2: 'abc' is not a number";
        QTest::newRow("header row") << "header.csv"
                                    << ""
                                    << "line 1, field 1: 'a' is not a number";
        QTest::newRow("ragged") << "ragged.csv"
                                << ""
                                << "line 2 has 2 numbers, but the first row has 3";
        QTest::newRow("empty field") << "empty_field.csv"
                                     << ""
                                     << "line 1, field 2: the field is empty";
        QTest::newRow("decimal comma") << "comma.tsv"
                                       << ""
                                       << "'1,5' is not a number";
        QTest::newRow("no tensor name") << "model.safetensors"
                                        << ""
                                        << "say which with tensor: NAME";
        QTest::newRow("unknown tensor") << "model.safetensors"
                                        << "wte"
                                        << "no tensor 'wte' (it holds attn.c_attn.weight, "
                                           "attn.c_proj.bias)";
        QTest::newRow("float16") << "half.safetensors"
                                 << "w"
                                 << "is of dtype F16";
        QTest::newRow("header size") << "bad_header.safetensors"
                                     << "w"
                                     << "header size (1099511627776 bytes) is larger";
        QTest::newRow("duplicate name") << "dup.safetensors"
                                        << "w"
                                        << "names the tensor 'w' twice";
    }

    void brokenFilesAreRefusedWithReasons() {
        QFETCH(QString, file);
        QFETCH(QString, tensor);
        QFETCH(QString, message);
        if (file == QLatin1String("m.csv.npy")) {
            QVERIFY(QFile::copy(QString::fromStdString(folder_ + "/m.csv"),
                                QString::fromStdString(folder_ + "/m.csv.npy")));
            message = QStringLiteral("not a .npy file");
        }
        const std::string error = tensorError(file.toStdString(), tensor.toStdString());
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
    }

    void sizesAreCheckedBeforeReading() {
        DataFileLimits small;
        small.maxBytes = 200; // c64.npy is 128 + 280 bytes
        QVERIFY2(QString::fromStdString(tensorError("c64.npy", {}, small))
                     .contains(QStringLiteral("is 408 bytes, over the limit of 200 bytes")),
                 tensorError("c64.npy", {}, small).c_str());
        DataFileLimits few;
        few.maxElements = 34;
        QVERIFY(QString::fromStdString(tensorError("c64.npy", {}, few))
                    .contains(QStringLiteral("shape 5×7 is over the limit of 34 numbers")));
        QVERIFY(QString::fromStdString(tensorError("m.csv", {}, few))
                    .contains(QStringLiteral("more than 34 numbers")));
        QVERIFY(QString::fromStdString(tensorError("model.safetensors", "attn.c_attn.weight", few))
                    .contains(QStringLiteral("over the limit of 34 numbers")));
    }

    // rows, cols, transpose: slice first, then transpose, as NumPy's A[a:b, c:d].T.
    void slicingMatchesNumPy_data() {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("expected");
        for (const char* file : {"c64.npy", "f64.npy", "m.csv", "m.tsv"}) {
            const QString f = QString::fromLatin1(file);
            QTest::addRow("%s rows", file) << "file: " + f + ", rows: [1, 4]"
                                           << "expect_rows_1_4.npy";
            QTest::addRow("%s cols", file) << "file: " + f + ", cols: [2, 6]"
                                           << "expect_cols_2_6.npy";
            QTest::addRow("%s all", file)
                << "file: " + f + ", rows: [1, 4], cols: [2, 6], transpose: true"
                << "expect_rows_1_4_cols_2_6_T.npy";
            QTest::addRow("%s transpose", file) << "file: " + f + ", transpose: true"
                                                << "expect_T.npy";
        }
    }

    void slicingMatchesNumPy() {
        QFETCH(QString, options);
        QFETCH(QString, expected);
        // W_Q's shape is checked when computing, not when reading: any shape reads.
        const Lesson l = lesson("tokens: [a]\nX: [[1]]\nW_Q: {" + options.toStdString() + "}\n");
        QVERIFY2(l.cells.size() == 1 && l.cells[0].attention(), describe(l.diagnostics).c_str());
        QVERIFY(
            sameMatrix(l.cells[0].attention()->config.wQ.weights, load(expected.toStdString())));
        QCOMPARE(l.cells[0].read.dataFiles.size(), size_t(1));
    }

    void packedHeadFromSafetensors() {
        // One head's W_Q cut from a packed matrix stored inputs × outputs (GPT-2's Conv1D).
        const Lesson l = lesson("tokens: [a]\nX: [[1, 2, 3, 4, 5]]\n"
                                "W_Q: {file: model.safetensors, tensor: attn.c_attn.weight, "
                                "cols: [2, 6], transpose: true}\n"
                                "b_Q: {file: model.safetensors, tensor: attn.c_proj.bias, "
                                "cols: [0, 4]}\n");
        QVERIFY2(l.cells[0].attention(), describe(l.diagnostics).c_str());
        const AttentionConfig& c = l.cells[0].attention()->config;
        QVERIFY(sameMatrix(c.wQ.weights, arma::mat(baseMatrix(true).cols(2, 5).t())));
        QVERIFY(!c.wQ.identity);
        QVERIFY(sameMatrix(c.bQ, baseMatrix().row(1).cols(0, 3)));
        QCOMPARE(lessonDataFiles(l), std::vector<std::string>{"model.safetensors"});
    }

    void vectorKeysTakeOneRowOrColumn() {
        const Lesson l = lesson("tokens: [a]\nX: [[1, 2, 3, 4, 5]]\nb_V: {file: col.npy}\n");
        QVERIFY2(l.cells[0].attention(), describe(l.diagnostics).c_str());
        QVERIFY(sameMatrix(l.cells[0].attention()->config.bV, baseMatrix().col(3).t()));
        const Diagnostic d = onlyError("tokens: [a]\nX: [[1, 2]]\nb_V: {file: c64.npy}\n");
        QCOMPARE(d.line, 6);
        QCOMPARE(d.column, 6);
        QVERIFY2(QString::fromStdString(d.message).contains(
                     QStringLiteral("b_V: c64.npy, shape 5×7 gives 5 × 7 numbers")),
                 d.message.c_str());
    }

    void vocabWithLabels() {
        const Lesson l = lesson("tokens: [cat, mat, cat]\n"
                                "vocab: {file: emb.npy, labels: vocab.txt}\n");
        QVERIFY2(l.cells[0].attention(), describe(l.diagnostics).c_str());
        const AttentionCellSpec& spec = *l.cells[0].attention();
        QCOMPARE(spec.vocabOrder, (std::vector<std::string>{"the", "cat", "sat", "mat"}));
        const arma::mat expected{{0.0, 1.0, -0.5}, {-1.0, 2.0, 3.0}, {0.0, 1.0, -0.5}};
        QVERIFY(sameMatrix(spec.config.X0, expected));
        QCOMPARE(lessonDataFiles(l), (std::vector<std::string>{"emb.npy", "vocab.txt"}));
    }

    void vocabProblems_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("short")
            << "tokens: [cat]\nvocab: {file: emb.npy, labels: vocab_short.txt}\n"
            << 5 << 32 << "vocab: vocab_short.txt: 3 labels for the 4 rows of emb.npy, shape 4×3";
        QTest::newRow("duplicate")
            << "tokens: [cat]\nvocab: {file: emb.npy, labels: vocab_dup.txt}\n"
            << 5 << 32 << "vocab: vocab_dup.txt: line 3: the token 'the' is listed twice";
        QTest::newRow("no labels") << "tokens: [cat]\nvocab: {file: emb.npy}\n"
                                   << 5 << 8 << "vocab: a vocab from a file needs labels";
        QTest::newRow("unknown token")
            << "tokens: [dog]\nvocab: {file: emb.npy, labels: vocab.txt}\n"
            << 4 << 10 << "the token 'dog' is not in the vocab";
    }

    void vocabProblems() {
        QFETCH(QString, body);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const Diagnostic d = onlyError(body.toStdString());
        QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
        QCOMPARE(d.line, line);
        QCOMPARE(d.column, column);
    }

    // Errors point at the part of the value at fault and name the key and the file.
    void errorsNameFileKeyAndPlace_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("rows past the end")
            << "tokens: [a]\nX: [[1, 2, 3, 4, 5, 6, 7]]\n"
               "W_Q: {file: c64.npy, rows: [0, 64]}\n"
            << 6 << 28
            << "W_Q: c64.npy: shape 5×7 has 5 rows, so rows: [0, 64] reaches past its end";
        QTest::newRow("cols past the end")
            << "tokens: [a]\nX:\n  {file: m.csv,\n   cols: [3, 9]}\n"
            << 7 << 10 << "X: m.csv: shape 5×7 has 7 columns, so cols: [3, 9] reaches past its end";
        QTest::newRow("empty slice") << "tokens: [a]\nX: {file: c64.npy, rows: [2, 2]}\n"
                                     << 5 << 26 << "X: rows: [2, 2] is empty";
        QTest::newRow("missing file")
            << "tokens: [a]\nX: {file: nope.npy}\n"
            << 5 << 11 << "X: nope.npy: no such file in the lesson's folder";
        QTest::newRow("unknown option") << "tokens: [a]\nX: {file: c64.npy, row: [0, 1]}\n"
                                        << 5 << 20 << "X: unknown key 'row' in a file value";
        QTest::newRow("format") << "tokens: [a]\nX: {file: c64.json}\n"
                                << 5 << 11
                                << "X: c64.json: a cell reads .npy, .csv, .tsv or .safetensors";
        QTest::newRow("bad file") << "tokens: [a]\nX: {file: big_endian.npy}\n"
                                  << 5 << 11 << "X: big_endian.npy: the numbers are big-endian";
        QTest::newRow("tensor of npy") << "tokens: [a]\nX: {file: c64.npy, tensor: w}\n"
                                       << 5 << 28 << "X: tensor: names a tensor of a .safetensors";
    }

    void errorsNameFileKeyAndPlace() {
        QFETCH(QString, body);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const Diagnostic d = onlyError(body.toStdString());
        QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
        QCOMPARE(d.line, line);
        QCOMPARE(d.column, column);
    }

    void shapeErrorsSayWhatWasRead() {
        // W_Q must be d_k × d = 7 × 7; the file gives 3 × 7 after the slice.
        const Lesson l = lesson("tokens: [a]\nX: [[1, 2, 3, 4, 5, 6, 7]]\nd_k: 7\n"
                                "W_Q: {file: c64.npy, rows: [1, 4]}\n");
        QVERIFY(l.cells[0].attention());
        AttentionEngine engine;
        const LessonResults results = computeLesson(l, engine);
        QCOMPARE(results.diagnostics.size(), size_t(1));
        const Diagnostic& d = results.diagnostics.front();
        QCOMPARE(d.line, 7);
        QVERIFY2(QString::fromStdString(d.message).contains(
                     QStringLiteral("not 3 × 7 — read from c64.npy, shape 5×7, rows: [1, 4]")),
                 d.message.c_str());
    }

    void unsafePathsAreRefused_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("parent") << "../outside/secret.npy"
                                << "leaves the lesson's folder (..)";
        QTest::newRow("inner parent") << "sub/../c64.npy"
                                      << "leaves the lesson's folder (..)";
        QTest::newRow("absolute") << "ABSOLUTE"
                                  << "the path is absolute";
        QTest::newRow("backslash") << "..\\\\outside\\\\secret.npy"
                                   << "backslash";
        QTest::newRow("drive") << "C:/secret.npy"
                               << "holds ':'";
        QTest::newRow("dot") << "./c64.npy"
                             << "has a '.' part";
        QTest::newRow("double slash") << "sub//c64.npy"
                                      << "empty part";
        QTest::newRow("link to a file outside") << "link_out.npy"
                                                << "leads outside the lesson's";
        QTest::newRow("link to a folder outside") << "dir_out/secret.npy"
                                                  << "leads outside the lesson's";
        QTest::newRow("fifo") << "pipe.npy"
                              << "not a regular file";
        QTest::newRow("folder") << "folder.npy"
                                << "is a folder";
    }

    void unsafePathsAreRefused() {
        QFETCH(QString, path);
        QFETCH(QString, message);
        static bool made = false;
        if (!made) {
            made = true;
            QCOMPARE(
                ::symlink((outside_ + "/secret.npy").c_str(), (folder_ + "/link_out.npy").c_str()),
                0);
            QCOMPARE(::symlink(outside_.c_str(), (folder_ + "/dir_out").c_str()), 0);
            QCOMPARE(::mkfifo((folder_ + "/pipe.npy").c_str(), 0600), 0);
            QVERIFY(QDir().mkpath(QString::fromStdString(folder_ + "/folder.npy")));
        }
        if (path == QLatin1String("ABSOLUTE")) {
            path = QString::fromStdString(outside_ + "/secret.npy");
        }
        const Diagnostic d = onlyError("tokens: [a]\nX: {file: \"" + path.toStdString() + "\"}\n");
        QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
        QVERIFY2(QString::fromStdString(d.message).startsWith(QStringLiteral("X: ")),
                 d.message.c_str());
        QCOMPARE(d.line, 5);
        QCOMPARE(d.column, 11);
    }

    void linksInsideTheFolderAreFollowed() {
        QVERIFY(QDir().mkpath(QString::fromStdString(folder_ + "/sub")));
        QCOMPARE(::symlink("../c64.npy", (folder_ + "/sub/inner.npy").c_str()), 0);
        const Lesson l = lesson("tokens: [a, b, c, d, e]\nX: {file: sub/inner.npy}\n");
        QVERIFY2(l.cells[0].attention(), describe(l.diagnostics).c_str());
        QVERIFY(sameMatrix(l.cells[0].attention()->config.X0, baseMatrix()));
    }

    void lessonWithoutFolderReadsNothing() {
        const Lesson l = parseLesson(
            "# T\n\n```attention a\ntokens: [a]\nX: {file: c64.npy}\n```\n", ":/documents/t.md");
        QCOMPARE(l.cells[0].attention(), nullptr);
        QVERIFY(describe(l.diagnostics).find("no folder yet") != std::string::npos);
    }

    void memoryFilesServeBundles() {
        std::string error;
        const auto bytes = folderDataFiles(folder_)->read("c64.npy", 1 << 20, error);
        QVERIFY(bytes);
        const std::string path = "/nowhere/bundle.zip";
        mountDataFiles(path, memoryDataFiles({{"data/w.npy", *bytes}}));
        const Lesson l = parseLesson(
            "# T\n\n```attention a\ntokens: [a, b, c, d, e]\nX: {file: data/w.npy}\n```\n", path);
        mountDataFiles(path, nullptr);
        QVERIFY2(l.cells[0].attention(), describe(l.diagnostics).c_str());
        QVERIFY(sameMatrix(l.cells[0].attention()->config.X0, baseMatrix()));
        const Lesson gone = parseLesson(
            "# T\n\n```attention a\ntokens: [a, b, c, d, e]\nX: {file: data/w.npy}\n```\n", path);
        QCOMPARE(gone.cells[0].attention(), nullptr);
    }

    // A what-if edit of a loaded matrix works like one of a typed matrix;
    // Keep writes the edited matrix back as typed YAML and leaves the file
    // and every unedited {file: PATH} value alone.
    void keepWritesAnEditedLoadedMatrixAsTyped() {
        const std::string body = "tokens: [a, b, c, d, e]\nX: {file: m.csv, cols: [0, 4]}\n"
                                 "W_Q: {file: c64.npy, rows: [0, 4], cols: [1, 5]}\n"
                                 "W_K: {file: c64.npy, rows: [1, 5], cols: [3, 7]}\n";
        const Lesson before = lesson(body);
        QVERIFY2(before.cells[0].attention(), describe(before.diagnostics).c_str());
        const EditableAttention authored =
            EditableAttention::fromSpec(*before.cells[0].attention());
        EditableAttention edited = authored;
        QCOMPARE(setMatrixEntry(edited, "W_Q", 1, 2, 0.5), EditRefusal());
        const auto changes = changedKeys(authored, edited);
        QCOMPARE(changes.size(), size_t(1));
        QCOMPARE(changes[0].first, std::string("W_Q"));
        arma::mat expected = baseMatrix().submat(0, 1, 3, 4);
        expected(1, 2) = 0.5;
        QCOMPARE(changes[0].second, yamlFlowMatrix(expected));

        Document document = before.document;
        QCOMPARE(setCellKey(document, "a", changes[0].first, changes[0].second),
                 std::optional<std::string>());
        const Lesson after = parseLesson(document.serialize(), folder_ + "/t.md");
        QVERIFY2(after.cells[0].attention(), describe(after.diagnostics).c_str());
        QVERIFY(sameMatrix(after.cells[0].attention()->config.wQ.weights, expected));
        QCOMPARE(after.cells[0].read.dataFiles, (std::vector<std::string>{"m.csv", "c64.npy"}));
        QVERIFY(document.serialize().find("W_K: {file: c64.npy, rows: [1, 5], cols: [3, 7]}") !=
                std::string::npos);
        QVERIFY(sameMatrix(load("c64.npy"), baseMatrix())); // the file is untouched
    }

    // A cell whose matrices come from files computes exactly like the same
    // cell with the numbers typed out.
    void loadedComputesLikeTyped() {
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
        QVERIFY2(loaded.cells[0].attention(), describe(loaded.diagnostics).c_str());
        QVERIFY2(written.cells[0].attention(), describe(written.diagnostics).c_str());
        const LessonResults x = computeLesson(loaded, engine);
        const LessonResults y = computeLesson(written, engine);
        QVERIFY(x.diagnostics.empty());
        QCOMPARE(x.cells[0].json.dump(), y.cells[0].json.dump());
    }
};

QTEST_GUILESS_MAIN(TestDataFiles)
#include "test_data_files.moc"

// What the tests of core/ need beyond doctest, with no Qt: a temporary folder, a working
// directory moved for a while, a one-layer transformer lesson, whole-file reads and writes, running
// a program (NumPy fixtures) and the comparison QCOMPARE made of two doubles. tests/core links no
// Qt library (tests/core/CMakeLists.txt proves it).
#pragma once

#include <doctest/doctest.h>

#include <memory>

#include <chrono>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace attnbook {
struct AttentionResult;
}

namespace attnbook::test {

// A fresh folder under the system's temporary folder, removed with everything in it when
// the object goes.
class TempDir {
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    // path()/name as a string.
    std::string filePath(const std::string& name) const;

  private:
    std::filesystem::path path_;
};

// Moves the working directory to `path` (or only remembers it, without one) and moves it back
// when the object goes: for the tests that prove nothing is read beside the working directory.
class WorkingDirectory {
  public:
    WorkingDirectory() : before_(std::filesystem::current_path()) {}
    explicit WorkingDirectory(const std::filesystem::path& path) : WorkingDirectory() {
        std::filesystem::current_path(path);
    }
    ~WorkingDirectory() {
        std::error_code ignored;
        std::filesystem::current_path(before_, ignored);
    }
    WorkingDirectory(const WorkingDirectory&) = delete;
    WorkingDirectory& operator=(const WorkingDirectory&) = delete;

  private:
    std::filesystem::path before_;
};

// A lesson of one transformer cell `t`: one layer of two causal heads and an FFN over a
// four-word vocabulary, targets, and two greedy generation steps; every control allowed.
inline constexpr const char* kOneLayerTransformerLesson = R"(# One layer

```transformer t
tokens: [red, blue, red]
vocab: {red: [1, 0, 0, 0], blue: [0, 1, 0, 0], green: [0, 0, 1, 0], gold: [0, 0, 0, 1]}
positional: sinusoidal
layers:
  - attention: {heads: 2, mask: causal, W_O: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 2]]}
    ffn: {W_1: [[1, 0, 0, 0], [0, 1, 0, 0]], W_2: [[1, 0], [0, 1], [1, 1], [0, 0]], activation: relu}
targets: [blue, red, ~]
temperature: 1
generate: {steps: 2, pick: greedy}
```
)";

// The result of an attention cell of `n` tokens w0, w1, … whose vectors all differ (`shift`
// moves every one), so that a row's shares differ too; `extra` adds YAML lines to the cell.
std::shared_ptr<const AttentionResult>
attentionOfDistinctTokens(int n, const std::string& extra = "", int shift = 0);

// The file's bytes, or nothing when it cannot be opened.
std::optional<std::string> readFile(const std::filesystem::path& path);
// Writes the bytes, replacing the file; false when it cannot be written.
bool writeFile(const std::filesystem::path& path, const std::string& bytes);

// Makes the folder and any parents missing; true when it is there afterwards (as
// QDir::mkpath).
bool makePath(const std::filesystem::path& path);

// The names of the regular files in `folder` ending in `suffix`, sorted.
std::vector<std::string> filesEndingIn(const std::filesystem::path& folder,
                                       const std::string& suffix);

// `text` cut at every `separator`, empty parts kept (as QString::split did).
std::vector<std::string> split(const std::string& text, char separator);

struct ProcessResult {
    bool started = false;  // false: the program could not be run (see error)
    bool timedOut = false; // killed after the time allowed
    int exitCode = -1;     // the exit status, or -1 after a signal or a timeout
    std::string out;       // standard output
    std::string err;       // standard error, or why it could not start
    bool ok() const { return started && !timedOut && exitCode == 0; }
};

// Runs `program` with `arguments` (no shell), collecting both outputs, and kills it if it
// runs longer than `timeoutMs`.
ProcessResult runProcess(const std::string& program, const std::vector<std::string>& arguments,
                         int timeoutMs = 120000);

// One row of a data table, what a QFETCH row was: its own subcase, named in every failure,
// and a REQUIRE that fails or an exception ends this row only, so the next rows still run.
// (Messages take std::string: doctest 2.4.9 prints a const char* variable as a pointer.)
//   for (const Case& c : cases) {
//       dataRow(c.name, [&] { REQUIRE(...); CHECK_EQ(...); });
//   }
template <typename Body> void dataRow(const std::string& name, Body&& body) {
    SUBCASE(name.c_str()) {
        try {
            body();
        } catch (const doctest::detail::TestFailureException&) {
            // already reported by the REQUIRE that threw
        } catch (const std::exception& e) {
            FAIL_CHECK("threw " << std::string(e.what()));
        }
    }
}

// Milliseconds of the monotonic clock since `start`.
inline long long millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start)
        .count();
}

// The comparison QCOMPARE made of two doubles, kept so the tests did not change when they
// left Qt Test: equal within 1e-12 of the smaller magnitude, or |actual| ≤ 1e-12 when the
// expected value is 0; infinities equal by sign, NaN equals NaN.
//   CHECK_EQ(r.scale, fuzzy(1 / std::sqrt(3.0)));
struct Fuzzy {
    double expected;
};
inline Fuzzy fuzzy(double expected) {
    return Fuzzy{expected};
}
bool operator==(double actual, const Fuzzy& fuzzy);
inline bool operator==(const Fuzzy& fuzzy, double actual) {
    return actual == fuzzy;
}

} // namespace attnbook::test

namespace doctest {

template <> struct StringMaker<attnbook::test::Fuzzy> {
    static String convert(const attnbook::test::Fuzzy& fuzzy);
};

// Vectors of strings (cell ids, data files, lines) print as ["a", "b"].
template <> struct StringMaker<std::vector<std::string>> {
    static String convert(const std::vector<std::string>& strings);
};

} // namespace doctest

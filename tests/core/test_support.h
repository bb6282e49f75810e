// What the tests of core/ need beyond doctest, with no Qt: a temporary folder, whole-file
// reads and writes, running a program (NumPy fixtures) and the comparison QCOMPARE made of
// two doubles. tests/core links no Qt library (tests/core/CMakeLists.txt proves it).
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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

// readFileBytes (core/document/source_text.h), the one bounded read of a file on disk: a
// lesson, a roster and a lesson's data files (it was written twice, in two sets of
// words). Each way a read fails, in its own words, and the data files of a folder saying the
// same words for the same failures.
#include "core/document/data_files.h"
#include "core/document/source_text.h"

#include "test_support.h"

#include <sys/stat.h>
#include <unistd.h>

using namespace attnbook;

namespace {

// readFileBytes's message for `path`, or "read" when it read the file.
std::string readProblem(const std::string& path, const FileRead& how = {}) {
    std::string error;
    return readFileBytes(path, error, how) ? std::string("read") : error;
}

// The same for a data file of `folder`, read through folderDataFiles.
std::string dataProblem(const test::TempDir& folder, const std::string& name,
                        std::uint64_t maxBytes) {
    std::string error;
    return folderDataFiles(folder.path().string())->read(name, maxBytes, error) ? "read" : error;
}

} // namespace

TEST_CASE("aBoundedReadSaysWhyItFails") {
    const test::TempDir dir;
    REQUIRE(test::writeFile(dir.filePath("ten.md"), "0123456789"));
    REQUIRE(test::makePath(dir.filePath("folder.md")));
    REQUIRE_EQ(::mkfifo(dir.filePath("pipe.md").c_str(), 0600), 0);

    CHECK_EQ(readProblem(dir.filePath("ten.md")), "read");
    CHECK_EQ(readProblem(dir.filePath("missing.md")), "no such file");
    CHECK_EQ(readProblem(dir.filePath("folder.md")), "is a folder, not a lesson file");
    // A FIFO is refused at once: opening it does not wait for a writer.
    CHECK_EQ(readProblem(dir.filePath("pipe.md")),
             "is not a regular file (a device, pipe or socket)");
    CHECK_EQ(readProblem(dir.filePath("ten.md"), {.maxBytes = 9}),
             "is 10 bytes, over the limit of 9 bytes for a lesson file");
    CHECK_EQ(readProblem(dir.filePath("ten.md"), {.maxBytes = 10}), "read");
    // Another kind of file is named as what it is.
    CHECK_EQ(readProblem(dir.filePath("folder.md"), {.kind = "roster"}),
             "is a folder, not a roster");
    CHECK_EQ(readProblem(dir.filePath("ten.md"), {.maxBytes = 4, .kind = "roster"}),
             "is 10 bytes, over the limit of 4 bytes for a roster");
}

TEST_CASE("aBoundedReadMayRefuseALink") {
    const test::TempDir dir;
    REQUIRE(test::writeFile(dir.filePath("real.md"), "x"));
    REQUIRE_EQ(::symlink(dir.filePath("real.md").c_str(), dir.filePath("link.md").c_str()), 0);
    CHECK_EQ(readProblem(dir.filePath("link.md")), "read");
    CHECK(
        readProblem(dir.filePath("link.md"), {.followLink = false}).rfind("cannot be read: ", 0) ==
        0);
}

TEST_CASE("dataFilesFailInTheSameWordsAsLessons") {
    const test::TempDir dir;
    REQUIRE(test::writeFile(dir.filePath("w.csv"), "1,2,3\n"));
    REQUIRE(test::makePath(dir.filePath("folder.csv")));
    REQUIRE_EQ(::mkfifo(dir.filePath("pipe.csv").c_str(), 0600), 0);

    CHECK_EQ(dataProblem(dir, "w.csv", 6), "read");
    CHECK_EQ(dataProblem(dir, "missing.csv", 6), "no such file in the lesson's folder");
    CHECK_EQ(dataProblem(dir, "folder.csv", 6), "is a folder, not a file");
    CHECK_EQ(dataProblem(dir, "pipe.csv", 6), "is not a regular file (a device, pipe or socket)");
    CHECK_EQ(dataProblem(dir, "w.csv", 5), "is 6 bytes, over the limit of 5 bytes");
    // A bundle's files in memory say a size the same way.
    std::string error;
    CHECK_FALSE(memoryDataFiles({{"w.csv", "1,2,3\n"}})->read("w.csv", 5, error));
    CHECK_EQ(error, overTheLimit(6, 5, ""));
}

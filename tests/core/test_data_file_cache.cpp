// A lesson keeps its own source of data files, and a re-read of it (after each edit
// in the window) reads none of them again. Reads are counted through a DataFiles that counts;
// a file changed on disk is read again, a problem is never kept, and a folder is the one the
// lesson was in when it was opened, whatever the working directory is later.
#include "core/document/data_files.h"
#include "core/document/lesson.h"
#include "core/document/tensor_memo.h"

#include "test_support.h"

#include <map>
#include <mutex>

#include <unistd.h>

using namespace attnbook;

namespace {

const std::string kDocuments = ATTNBOOK_SOURCE_DIR "/documents";

// Serves `files` from memory and counts every read, by PATH.
class CountingDataFiles final : public DataFiles {
  public:
    explicit CountingDataFiles(std::map<std::string, std::string> files)
        : files_(memoryDataFiles(std::move(files))) {}

    std::optional<std::string> read(const std::string& path, std::uint64_t maxBytes,
                                    std::string& error) const override {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            ++reads_[path];
        }
        return files_->read(path, maxBytes, error);
    }

    int reads(const std::string& path) const {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto it = reads_.find(path);
        return it == reads_.end() ? 0 : it->second;
    }
    int allReads() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        int sum = 0;
        for (const auto& [path, count] : reads_) {
            sum += count;
        }
        return sum;
    }

  private:
    std::shared_ptr<const DataFiles> files_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, int> reads_;
};

// documents/real-head.md's data files, as its bundle carries them.
std::shared_ptr<CountingDataFiles> realHeadFiles() {
    std::map<std::string, std::string> files;
    for (const char* name : {"c_attn.npy", "emb.npy", "pos.npy", "vocab.txt", "w_o.csv"}) {
        const std::string path = std::string("data/real-head/") + name;
        const std::optional<std::string> bytes = test::readFile(kDocuments + "/" + path);
        REQUIRE_MESSAGE(bytes, path);
        files[path] = *bytes;
    }
    return std::make_shared<CountingDataFiles>(std::move(files));
}

std::string realHeadText() {
    const std::optional<std::string> text = test::readFile(kDocuments + "/real-head.md");
    REQUIRE(text);
    return *text;
}

int errorCount(const Lesson& lesson) {
    int errors = 0;
    for (const Diagnostic& d : lesson.diagnostics) {
        errors += d.severity == Severity::Error ? 1 : 0;
    }
    return errors;
}

} // namespace

// Every document edit in the window reads the lesson again: the session's re-read, then the
// export controller's. Without the cache that is 7 reads of real-head.md's files per read of
// the lesson (c_attn.npy once for each of W_Q, W_K and W_V), 14 per edit; with it, each file
// is read once when the lesson opens and never again while it is unchanged.
TEST_CASE("aReReadOfTheLessonReadsNoDataFileAgain") {
    const std::string text = realHeadText();
    const std::shared_ptr<CountingDataFiles> plain = realHeadFiles();
    const Lesson uncached = parseLesson(text, "real-head.md", plain);
    CHECK_EQ(errorCount(uncached), 0);
    CHECK_EQ(plain->reads("data/real-head/c_attn.npy"), 3);
    CHECK_EQ(plain->allReads(), 7);
    (void)parseLesson(text, "real-head.md", plain); // an edit: the session's re-read …
    (void)parseLesson(text, "real-head.md", plain); // … and the export controller's
    CHECK_EQ(plain->allReads(), 21);

    const std::shared_ptr<CountingDataFiles> counted = realHeadFiles();
    const std::shared_ptr<const DataFiles> cached = cachedDataFiles(counted);
    const Lesson opened = parseLesson(text, "real-head.md", cached);
    CHECK_EQ(errorCount(opened), 0);
    CHECK_EQ(counted->reads("data/real-head/c_attn.npy"), 1);
    CHECK_EQ(counted->allReads(), 5); // each of the five files once
    for (int edit = 0; edit < 3; ++edit) {
        const Lesson session = parseLesson(text, "real-head.md", opened.files);
        const Lesson exportController = parseLesson(text, "real-head.md", opened.files);
        CHECK_EQ(errorCount(session), 0);
        CHECK_EQ(errorCount(exportController), 0);
        CHECK(arma::approx_equal(session.cells[0].attention()->config.wQ.weights,
                                 uncached.cells[0].attention()->config.wQ.weights, "absdiff", 0.0));
    }
    CHECK_EQ(counted->allReads(), 5);
}

// A lesson read from disk (check, compute, the exports) reads each data file once, however many
// values name it: 200 references to a 128 MiB file read it 200 times (60 s). Measured as the
// bytes the process read (/proc/self/io), with ten references to one 300 KB file.
TEST_CASE("aLessonOnDiskReadsEachDataFileOnce") {
    test::TempDir folder;
    std::string csv;
    for (int row = 0; row < 200; ++row) {
        for (int col = 0; col < 200; ++col) {
            csv += (col ? ",0." : "0.") + std::to_string((row * 7 + col * 3) % 10) + "125";
        }
        csv += '\n';
    }
    REQUIRE(test::writeFile(folder.filePath("w.csv"), csv));
    const auto readBytes = [] {
        const std::optional<std::string> io = test::readFile("/proc/self/io");
        REQUIRE(io);
        return std::stoll(io->substr(io->find("rchar: ") + 7));
    };
    std::string cell = "tokens: [a, b]\nX: {file: w.csv, rows: [0, 2]}\nW_Q: {file: w.csv}\n"
                       "W_K: {file: w.csv}\nW_V: {file: w.csv}\nW_O: {file: w.csv}\n";
    const std::string lesson =
        "# T\n\n```attention a\n" + cell + "```\n\n```attention b\n" + cell + "```\n";
    REQUIRE(test::writeFile(folder.filePath("t.md"), lesson));
    const long long before = readBytes();
    const Lesson read = loadLesson(folder.filePath("t.md"));
    const long long read_ = readBytes() - before;
    CHECK_EQ(errorCount(read), 0);
    CHECK_MESSAGE(read_ < 2 * (long long)csv.size(), read_, " bytes read for a file of ",
                  csv.size());
}

// The cache asks the folder for each file's version (its identity, size and times) and reads
// the file again when it changed: an author who writes new weights sees them at the next edit.
TEST_CASE("aFileChangedOnDiskIsReadAgain") {
    test::TempDir folder;
    REQUIRE(test::writeFile(folder.filePath("w.csv"), "1,2\n"));
    const std::shared_ptr<const DataFiles> cached =
        cachedDataFiles(folderDataFiles(folder.filePath("")));
    std::string error;
    CHECK_EQ(cached->read("w.csv", 1 << 20, error), std::optional<std::string>("1,2\n"));
    REQUIRE(test::writeFile(folder.filePath("w.csv"), "1,2\n3,4\n"));
    CHECK_EQ(cached->read("w.csv", 1 << 20, error), std::optional<std::string>("1,2\n3,4\n"));
    // A limit holds for kept bytes as for read ones, in the same words.
    CHECK_EQ(cached->read("w.csv", 4, error), std::nullopt);
    CHECK_EQ(error, std::string("is 8 bytes, over the limit of 4 bytes"));
    // Removed: its problem, not the bytes kept.
    REQUIRE(std::filesystem::remove(folder.filePath("w.csv")));
    CHECK_EQ(cached->read("w.csv", 1 << 20, error), std::nullopt);
    CHECK_EQ(error, std::string("no such file in the lesson's folder"));
    // A problem is not kept either: the file put in place is found.
    REQUIRE(test::writeFile(folder.filePath("w.csv"), "5\n"));
    CHECK_EQ(cached->read("w.csv", 1 << 20, error), std::optional<std::string>("5\n"));
}

// A what-if reads its cell again, and every tensor in it: the bytes a source holds are shared
// (the same object while unchanged), and what was decoded from them is taken again, never from
// other bytes. Checked by the numbers: a kept tensor of changed bytes would show the old ones.
TEST_CASE("aTensorIsDecodedFromTheBytesItIsReadFromAndNoOthers") {
    test::TempDir folder;
    REQUIRE(test::writeFile(folder.filePath("w.csv"), "1,2\n3,4\n"));
    const std::shared_ptr<const DataFiles> cached =
        cachedDataFiles(folderDataFiles(folder.filePath("")));
    const DataFileLimits limits;
    std::string error;
    const auto tensorOf = [&](const std::shared_ptr<const DataFiles>& files,
                              const DataFileLimits& within) {
        const std::shared_ptr<const std::string> bytes =
            files->readShared("w.csv", within.maxBytes, error);
        REQUIRE(bytes);
        return readKeptTensor(bytes, TensorFormat::Csv, "", within, error);
    };
    const std::shared_ptr<const std::string> first = cached->readShared("w.csv", 1 << 20, error);
    CHECK_EQ(first, cached->readShared("w.csv", 1 << 20, error)); // the same bytes, shared
    for (int again = 0; again < 3; ++again) {
        const std::optional<Tensor> t = tensorOf(cached, limits);
        REQUIRE(t);
        CHECK(arma::approx_equal(t->values, arma::mat{{1, 2}, {3, 4}}, "absdiff", 0.0));
    }
    // new numbers in the file: new bytes, and the tensor decoded from them
    REQUIRE(test::writeFile(folder.filePath("w.csv"), "5,6,7\n"));
    std::optional<Tensor> changed = tensorOf(cached, limits);
    REQUIRE(changed);
    CHECK(arma::approx_equal(changed->values, arma::mat{{5, 6, 7}}, "absdiff", 0.0));
    // a tighter limit refuses the tensor in the same words as a first read
    DataFileLimits few = limits;
    few.maxElements = 2;
    CHECK_FALSE(tensorOf(cached, few));
    std::string uncachedError;
    CHECK_FALSE(readTensor("5,6,7\n", TensorFormat::Csv, "", few, uncachedError));
    CHECK_EQ(error, uncachedError);
    // two bundles with a file of the same name: each gives its own numbers
    const auto bundle = [](const std::string& bytes) {
        return memoryDataFiles({{"w.csv", bytes}});
    };
    const std::shared_ptr<const DataFiles> a = bundle("1\n"), b = bundle("2\n");
    CHECK_EQ(a->readShared("w.csv", 1 << 20, error), a->readShared("w.csv", 1 << 20, error));
    for (int again = 0; again < 2; ++again) {
        CHECK_EQ(tensorOf(a, limits)->values(0, 0), 1.0);
        CHECK_EQ(tensorOf(b, limits)->values(0, 0), 2.0);
    }
}

// A link swapped to lead outside after the file was kept is refused, as an uncached read is.
TEST_CASE("aLinkLeadingOutsideIsRefusedAfterTheFileWasKept") {
    test::TempDir root;
    REQUIRE(test::makePath(root.filePath("lesson")));
    REQUIRE(test::writeFile(root.filePath("lesson/real.csv"), "1\n"));
    REQUIRE(test::writeFile(root.filePath("secret.csv"), "2\n"));
    REQUIRE_EQ(::symlink("real.csv", root.filePath("lesson/w.csv").c_str()), 0);
    const std::shared_ptr<const DataFiles> cached =
        cachedDataFiles(folderDataFiles(root.filePath("lesson")));
    std::string error;
    CHECK_EQ(cached->read("w.csv", 1 << 20, error), std::optional<std::string>("1\n"));
    REQUIRE(std::filesystem::remove(root.filePath("lesson/w.csv")));
    REQUIRE_EQ(::symlink("../secret.csv", root.filePath("lesson/w.csv").c_str()), 0);
    CHECK_EQ(cached->read("w.csv", 1 << 20, error), std::nullopt);
    CHECK_EQ(error, std::string("leads outside the lesson's folder (through a link)"));
}

// A lesson opened by a relative path reads beside it after the working directory changed
// (its files were looked up against the process's working directory at each read).
TEST_CASE("aLessonsFolderIsTheOneItWasOpenedFrom") {
    const test::WorkingDirectory restore;
    std::filesystem::current_path(kDocuments);
    const std::shared_ptr<const DataFiles> beside = dataFilesBeside("real-head.md");
    test::TempDir elsewhere;
    std::filesystem::current_path(elsewhere.path());
    const Lesson lesson = parseLesson(realHeadText(), "real-head.md", beside);
    CHECK_EQ(errorCount(lesson), 0);
    CHECK_EQ(lessonDataFiles(lesson).size(), size_t(5));
}

// A path with no folder of its own reads nothing: not the working directory's files.
TEST_CASE("aResourcePathReadsNothing") {
    std::string error;
    CHECK_EQ(
        dataFilesBeside(":/documents/real-head.md")->read("data/real-head/w_o.csv", 1 << 20, error),
        std::nullopt);
    CHECK(error.find("no folder yet") != std::string::npos);
}

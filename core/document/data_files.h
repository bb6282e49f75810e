#pragma once
// Where a lesson's `{file: PATH}` values come from (docs/lesson-format.md): the
// lesson's own folder, or the `data/files/` entries of a bundle held in
// memory. Every read goes through one of these, so the safety rules stand in
// one place: PATH is a plain relative path, it stays inside the folder once
// links are resolved, only regular files are read, and nothing is read past
// the size limit.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace attnbook {

// Sizes refused before anything is read or allocated (reliability.md §8).
struct DataFileLimits {
    std::uint64_t maxBytes = 128ull << 20;     // one file on disk
    std::uint64_t maxElements = 16ull << 20;   // numbers in one tensor (128 MB as doubles)
    std::uint64_t maxLabelBytes = 8ull << 20;  // a vocab labels file
    std::uint64_t maxHeaderBytes = 1ull << 20; // a .npy or .safetensors header
};

class DataFiles {
  public:
    virtual ~DataFiles() = default;
    // The bytes of PATH (one that dataPathProblem accepts), or nullopt with
    // `error` saying why ("no such file", "is a folder", "leads outside ...").
    virtual std::optional<std::string> read(const std::string& path, std::uint64_t maxBytes,
                                            std::string& error) const = 0;
    // What changes whenever PATH's bytes may have: "" for a source whose files never change
    // (held in memory), nullopt when it cannot tell (then a cache reads the file again).
    virtual std::optional<std::string> version(const std::string& path) const;
    // The bytes of PATH as read() gives them, shared. A source that holds them (in memory, or
    // kept by cachedDataFiles) gives the same object for as long as they are unchanged, so
    // that what is decoded from them can be kept with them (tensor_memo.h); any other source
    // reads them afresh.
    virtual std::shared_ptr<const std::string>
    readShared(const std::string& path, std::uint64_t maxBytes, std::string& error) const;
};

// Why a data file could not be read, as DataFiles::read says it when the file is missing: a
// lesson that names one file many times (a model's 36 tensors) reports it once
// (collapseMissingDataFiles).
inline constexpr const char* kNoSuchDataFile = "no such file in the lesson's folder";
inline constexpr const char* kNoFolderYet =
    "this lesson has no folder yet: save it, then put the file next to it";

// Why PATH may not name a data file, or "" when it may: it must be relative,
// with '/' between non-empty parts, and hold no "..", "." part, backslash,
// ':' or control character — the same names a bundle entry may have, so
// that every file a lesson reads can travel in its bundle as data/files/PATH.
std::string dataPathProblem(const std::string& path);

// Files next to a lesson: `folder` is the lesson's folder ("" for the
// current one, taken when this is made: a later change of the working
// directory does not move it). A symlink is followed only when its target stays inside.
std::shared_ptr<const DataFiles> folderDataFiles(const std::string& folder);

// No files: a lesson with no folder yet (a new, unsaved one, a Qt resource) reads nothing,
// and says why, rather than looking beside the process's working directory.
std::shared_ptr<const DataFiles> noDataFiles();

// Files held in memory, by PATH (a bundle's data/files/PATH entries).
std::shared_ptr<const DataFiles> memoryDataFiles(std::map<std::string, std::string> files);

// The files beside a lesson file at `lessonPath`: the folder it stands in. A path
// with no folder of its own (empty, or a Qt resource ":/...") reads nothing. A bundle
// or a resource brings its own source instead (files/lesson_source.h); there is no
// process-wide table from lesson paths to sources: each Lesson keeps its own. Cached
// (cachedDataFiles): each file is read once however many values name it (200 references to a
// 128 MiB file read it 200 times, 60 s).
std::shared_ptr<const DataFiles> dataFilesBeside(const std::string& lessonPath);

// `source`, keeping the bytes it read by PATH for as long as `source` gives the same
// version() of the file, so that re-reading a lesson after each edit does not read its
// data files again (real-head.md read c_attn.npy six times per keystroke). Problems are
// not kept: a missing file put in place is found on the next read. Safe to share
// between threads (the window's export renders on a worker).
std::shared_ptr<const DataFiles> cachedDataFiles(std::shared_ptr<const DataFiles> source);

} // namespace attnbook

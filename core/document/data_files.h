#pragma once
// Where a lesson's `{file: PATH}` values come from (document-format.md): the
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
};

// Why PATH may not name a data file, or "" when it may: it must be relative,
// with '/' between non-empty parts, and hold no "..", "." part, backslash,
// ':' or control character — the same names a bundle entry may have, so
// that every file a lesson reads can travel in its bundle as data/files/PATH.
std::string dataPathProblem(const std::string& path);

// Files next to a lesson: `folder` is the lesson's folder ("" for the
// current one). A symlink is followed only when its target stays inside.
std::shared_ptr<const DataFiles> folderDataFiles(const std::string& folder);

// No files: a lesson with no folder yet (a new, unsaved one, a Qt resource) reads nothing,
// and says why, rather than looking beside the process's working directory.
std::shared_ptr<const DataFiles> noDataFiles();

// Files held in memory, by PATH (a bundle's data/files/PATH entries).
std::shared_ptr<const DataFiles> memoryDataFiles(std::map<std::string, std::string> files);

// The source for the lesson at `lessonPath`: what was mounted for it (an
// opened bundle), else the folder the path stands in. A path with no folder
// of its own (a Qt resource, ":/...") reads nothing.
std::shared_ptr<const DataFiles> dataFilesFor(const std::string& lessonPath);

// Makes `files` the source of every lesson parsed under `lessonPath` (a
// bundle's path), so the window's re-reads after an edit find the same
// files. Mounting again replaces; a null `files` unmounts.
void mountDataFiles(const std::string& lessonPath, std::shared_ptr<const DataFiles> files);

} // namespace attnbook

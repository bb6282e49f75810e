#include "core/document/data_files.h"

#include "core/document/source_text.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

#include <sys/stat.h>

namespace attnbook {

std::optional<std::string> DataFiles::version(const std::string&) const {
    return std::string(); // held in memory: never changes
}

std::shared_ptr<const std::string>
DataFiles::readShared(const std::string& path, std::uint64_t maxBytes, std::string& error) const {
    std::optional<std::string> bytes = read(path, maxBytes, error);
    return bytes ? std::make_shared<const std::string>(std::move(*bytes)) : nullptr;
}

std::string dataPathProblem(const std::string& path) {
    if (path.empty()) {
        return "the path is empty";
    }
    if (path.front() == '/') {
        return "the path is absolute; give it relative to the lesson's folder";
    }
    for (const char c : path) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            return "the path holds a control character";
        }
        if (c == '\\') {
            return "the path holds a backslash; separate folders with /";
        }
        if (c == ':') {
            return "the path holds ':' (a drive letter or a URL is not a path in the lesson's "
                   "folder)";
        }
    }
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find('/', start);
        end = end == std::string::npos ? path.size() : end;
        const std::string_view part(path.data() + start, end - start);
        if (part.empty()) {
            return "the path has an empty part (//, or a trailing /)";
        }
        if (part == "..") {
            return "the path leaves the lesson's folder (..)";
        }
        if (part == ".") {
            return "the path has a '.' part; write it without";
        }
        start = end + 1;
    }
    return {};
}

namespace {

std::optional<std::string> realPath(const std::string& path, int& errorNumber) {
    char resolved[PATH_MAX];
    if (!::realpath(path.c_str(), resolved)) {
        errorNumber = errno;
        return std::nullopt;
    }
    return std::string(resolved);
}

// `folder` made absolute against the working directory of now.
std::string absoluteFolder(const std::string& folder) {
    std::error_code error;
    const std::filesystem::path made =
        std::filesystem::absolute(folder.empty() ? std::string(".") : folder, error);
    return error ? (folder.empty() ? std::string(".") : folder) : made.string();
}

class FolderDataFiles final : public DataFiles {
  public:
    explicit FolderDataFiles(const std::string& folder) : folder_(absoluteFolder(folder)) {}

    std::optional<std::string> read(const std::string& path, std::uint64_t maxBytes,
                                    std::string& error) const override {
        const std::optional<std::string> resolved = resolve(path, error);
        if (!resolved) {
            return std::nullopt;
        }
        // followLink false: the resolved path has no link left; one put there since is refused.
        return readFileBytes(*resolved, error,
                             {.maxBytes = maxBytes, .kind = "", .followLink = false});
    }

    // The file's identity, size and times: a write, a replacement or a touch changes it.
    std::optional<std::string> version(const std::string& path) const override {
        std::string error;
        const std::optional<std::string> resolved = resolve(path, error);
        struct stat info {};
        if (!resolved || ::stat(resolved->c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
            return std::nullopt;
        }
        return std::to_string(info.st_dev) + ':' + std::to_string(info.st_ino) + ':' +
               std::to_string(info.st_size) + ':' + std::to_string(info.st_mtim.tv_sec) + '.' +
               std::to_string(info.st_mtim.tv_nsec) + ':' + std::to_string(info.st_ctim.tv_sec) +
               '.' + std::to_string(info.st_ctim.tv_nsec);
    }

  private:
    // PATH inside the folder with every link resolved, or nullopt with `error` saying why.
    std::optional<std::string> resolve(const std::string& path, std::string& error) const {
        if (std::string problem = dataPathProblem(path); !problem.empty()) {
            error = problem;
            return std::nullopt;
        }
        int code = 0;
        const std::optional<std::string> base = realPath(folder_, code);
        if (!base) {
            error = "the lesson's folder cannot be read: " + std::string(std::strerror(code));
            return std::nullopt;
        }
        // Resolve every link, then compare: the file must lie inside the
        // folder as it really is, whatever links the path passes through.
        std::optional<std::string> resolved = realPath(*base + "/" + path, code);
        if (!resolved) {
            error = code == ENOENT ? std::string(kNoSuchDataFile)
                                   : "cannot be read: " + std::string(std::strerror(code));
            return std::nullopt;
        }
        const std::string inside = *base == "/" ? *base : *base + "/";
        if (resolved->compare(0, inside.size(), inside) != 0) {
            error = "leads outside the lesson's folder (through a link)";
            return std::nullopt;
        }
        return resolved;
    }

    std::string folder_;
};

class MemoryDataFiles final : public DataFiles {
  public:
    explicit MemoryDataFiles(std::map<std::string, std::string> files) {
        for (auto& [path, bytes] : files) {
            files_[path] = std::make_shared<const std::string>(std::move(bytes));
        }
    }

    std::optional<std::string> read(const std::string& path, std::uint64_t maxBytes,
                                    std::string& error) const override {
        const std::shared_ptr<const std::string> bytes = readShared(path, maxBytes, error);
        return bytes ? std::optional<std::string>(*bytes) : std::nullopt;
    }

    std::shared_ptr<const std::string> readShared(const std::string& path, std::uint64_t maxBytes,
                                                  std::string& error) const override {
        if (std::string problem = dataPathProblem(path); !problem.empty()) {
            error = problem;
            return nullptr;
        }
        const auto it = files_.find(path);
        if (it == files_.end()) {
            error = "is not in the bundle (data/files/" + path + ")";
            return nullptr;
        }
        if (it->second->size() > maxBytes) {
            error = overTheLimit(it->second->size(), maxBytes, "");
            return nullptr;
        }
        return it->second;
    }

  private:
    std::map<std::string, std::shared_ptr<const std::string>> files_;
};

class NoDataFiles final : public DataFiles {
  public:
    std::optional<std::string> read(const std::string&, std::uint64_t,
                                    std::string& error) const override {
        error = kNoFolderYet;
        return std::nullopt;
    }
};

// Keeps what `source_` read, by PATH, with the version it had then.
class CachedDataFiles final : public DataFiles {
  public:
    explicit CachedDataFiles(std::shared_ptr<const DataFiles> source)
        : source_(std::move(source)) {}

    std::optional<std::string> read(const std::string& path, std::uint64_t maxBytes,
                                    std::string& error) const override {
        const std::shared_ptr<const std::string> bytes = readShared(path, maxBytes, error);
        return bytes ? std::optional<std::string>(*bytes) : std::nullopt;
    }

    std::shared_ptr<const std::string> readShared(const std::string& path, std::uint64_t maxBytes,
                                                  std::string& error) const override {
        const std::optional<std::string> now = source_->version(path);
        if (now) {
            const std::lock_guard<std::mutex> lock(mutex_);
            const auto kept = kept_.find(path);
            if (kept != kept_.end() && kept->second.version == *now) {
                if (kept->second.bytes->size() > maxBytes) {
                    error = overTheLimit(kept->second.bytes->size(), maxBytes, "");
                    return nullptr;
                }
                return kept->second.bytes;
            }
        }
        std::shared_ptr<const std::string> bytes = source_->readShared(path, maxBytes, error);
        const std::lock_guard<std::mutex> lock(mutex_);
        if (bytes && now) {
            // Changed between version() and read(): the next version() differs, and reads again.
            kept_[path] = {*now, bytes};
        } else {
            kept_.erase(path);
        }
        return bytes;
    }

    std::optional<std::string> version(const std::string& path) const override {
        return source_->version(path);
    }

  private:
    struct Kept {
        std::string version;
        std::shared_ptr<const std::string> bytes;
    };
    std::shared_ptr<const DataFiles> source_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, Kept> kept_;
};

} // namespace

std::shared_ptr<const DataFiles> folderDataFiles(const std::string& folder) {
    return std::make_shared<FolderDataFiles>(folder);
}

std::shared_ptr<const DataFiles> noDataFiles() {
    return std::make_shared<NoDataFiles>();
}

std::shared_ptr<const DataFiles> memoryDataFiles(std::map<std::string, std::string> files) {
    return std::make_shared<MemoryDataFiles>(std::move(files));
}

std::shared_ptr<const DataFiles> dataFilesBeside(const std::string& lessonPath) {
    if (lessonPath.empty() || lessonPath.front() == ':') {
        return noDataFiles();
    }
    const size_t slash = lessonPath.rfind('/');
    // Cached: a lesson that names one file many times (a model's tensors) reads it once.
    return cachedDataFiles(folderDataFiles(
        slash == std::string::npos ? std::string() : lessonPath.substr(0, slash + 1)));
}

std::shared_ptr<const DataFiles> cachedDataFiles(std::shared_ptr<const DataFiles> source) {
    return std::make_shared<CachedDataFiles>(std::move(source));
}

} // namespace attnbook

#include "test_support.h"

#include "core/document/lesson.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace attnbook::test {

std::shared_ptr<const AttentionResult> attentionOfDistinctTokens(int n, const std::string& extra,
                                                                 int shift) {
    std::string tokens, vocab;
    for (int i = 0; i < n; ++i) {
        tokens += (i ? ", w" : "w") + std::to_string(i);
        vocab += "  w" + std::to_string(i) + ": [" + std::to_string((i + shift) % 7) + ", " +
                 std::to_string((i * 3) % 5) + "]\n";
    }
    const Lesson lesson = parseLesson("# Distinct tokens\n\n```attention c\ntokens: [" + tokens +
                                          "]\nvocab:\n" + vocab + extra + "```\n",
                                      "distinct.md");
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    const ComputedCell* cell = results.cell("c");
    REQUIRE(cell);
    REQUIRE(cell->ok);
    return cell->attention;
}

TempDir::TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "attnbook-test-XXXXXX");
    if (!::mkdtemp(pattern.data())) {
        throw std::runtime_error("cannot make a temporary folder: " +
                                 std::string(std::strerror(errno)));
    }
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored; // a folder that cannot be removed is left, not an error
    std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::filePath(const std::string& name) const {
    return (path_ / name).string();
}

std::optional<std::string> readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out.flush());
}

bool makePath(const std::filesystem::path& path) {
    std::error_code error;
    std::filesystem::create_directories(path, error);
    return std::filesystem::is_directory(path, error);
}

std::vector<std::string> filesEndingIn(const std::filesystem::path& folder,
                                       const std::string& suffix) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.size() >= suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
            names.push_back(name);
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t at = text.find(separator); at != std::string::npos;
         at = text.find(separator, start)) {
        parts.push_back(text.substr(start, at - start));
        start = at + 1;
    }
    parts.push_back(text.substr(start));
    return parts;
}

namespace {

// A pipe whose ends close with the object.
struct Pipe {
    int fds[2] = {-1, -1};
    Pipe() {
        if (::pipe2(fds, O_CLOEXEC) != 0) {
            fds[0] = fds[1] = -1;
        }
    }
    ~Pipe() {
        closeRead();
        closeWrite();
    }
    bool valid() const { return fds[0] >= 0; }
    void closeRead() {
        if (fds[0] >= 0) {
            ::close(fds[0]);
        }
        fds[0] = -1;
    }
    void closeWrite() {
        if (fds[1] >= 0) {
            ::close(fds[1]);
        }
        fds[1] = -1;
    }
};

} // namespace

ProcessResult runProcess(const std::string& program, const std::vector<std::string>& arguments,
                         int timeoutMs) {
    ProcessResult result;
    Pipe out, err;
    if (!out.valid() || !err.valid()) {
        result.err = "cannot make a pipe: " + std::string(std::strerror(errno));
        return result;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out.fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err.fds[1], STDERR_FILENO);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& argument : arguments) {
        argv.push_back(const_cast<char*>(argument.c_str()));
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned =
        ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        result.err = "cannot run " + program + ": " + std::strerror(spawned);
        return result;
    }
    result.started = true;
    out.closeWrite();
    err.closeWrite();

    // Both outputs at once, so a child that fills one pipe is never left waiting.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    pollfd fds[2] = {{out.fds[0], POLLIN, 0}, {err.fds[0], POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open = 2;
    while (open > 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            result.timedOut = true;
            ::kill(pid, SIGKILL);
            break;
        }
        if (::poll(fds, 2, int(left.count())) < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            char buffer[65536];
            const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
            if (got > 0) {
                sinks[i]->append(buffer, size_t(got));
            } else if (got == 0 || errno != EINTR) {
                fds[i].fd = -1; // end of this output
                --open;
            }
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!result.timedOut && WIFEXITED(status)) {
        result.exitCode = WEXITSTATUS(status);
    }
    return result;
}

bool operator==(double actual, const Fuzzy& fuzzy) {
    const double expected = fuzzy.expected;
    switch (std::fpclassify(expected)) {
    case FP_INFINITE:
        return std::isinf(actual) && (expected < 0) == (actual < 0);
    case FP_NAN:
        return std::isnan(actual);
    case FP_ZERO:
    case FP_SUBNORMAL:
        return std::abs(actual) <= 1e-12;
    default:
        if (std::abs(expected) <= 1e-12) {
            return std::abs(actual) <= 1e-12;
        }
        return std::abs(actual - expected) * 1e12 <= std::min(std::abs(actual), std::abs(expected));
    }
}

} // namespace attnbook::test

namespace doctest {

String StringMaker<attnbook::test::Fuzzy>::convert(const attnbook::test::Fuzzy& fuzzy) {
    char text[64];
    std::snprintf(text, sizeof text, "%.17g (within 1e-12)", fuzzy.expected);
    return text;
}

String StringMaker<std::vector<std::string>>::convert(const std::vector<std::string>& strings) {
    std::string text = "[";
    for (size_t i = 0; i < strings.size(); ++i) {
        text += (i ? ", \"" : "\"") + strings[i] + "\"";
    }
    return (text + "]").c_str();
}

} // namespace doctest

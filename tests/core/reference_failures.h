#pragma once
// What a comparison with a plain reference found wrong: the first few failures, word for word,
// and how many there were in all (attention_reference_compare.h, transformer_reference_compare.h).

#include <cstddef>
#include <string>
#include <vector>

namespace attnbook::test {

class ReferenceFailures {
  public:
    explicit ReferenceFailures(std::size_t kept) : kept_(kept) {}

    void add(const std::string& what) {
        if (failures_.size() < kept_) {
            failures_.push_back(what);
        }
        ++count_;
    }
    bool none() const { return count_ == 0; }
    // "first; second; … (N in all)"
    std::string report() const {
        std::string text;
        for (const std::string& failure : failures_) {
            text += (text.empty() ? "" : "; ") + failure;
        }
        return text + " (" + std::to_string(count_) + " in all)";
    }

  private:
    std::size_t kept_;
    std::vector<std::string> failures_;
    int count_ = 0;
};

} // namespace attnbook::test

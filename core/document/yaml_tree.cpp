#include "core/document/yaml_tree.h"

#include "core/document/text_scan.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <unordered_map>

namespace attnbook {

const YamlNode* YamlNode::find(const std::string& key) const {
    for (const auto& [k, v] : entries) {
        if (k.isScalar() && k.scalar == key) {
            return &v;
        }
    }
    return nullptr;
}

std::string YamlNode::describe() const {
    switch (kind) {
    case Kind::Null:
        return "nothing";
    case Kind::Scalar:
        return "'" + scalar + "'";
    case Kind::Sequence:
        return "a list";
    case Kind::Map:
        return "a map";
    }
    return "";
}

namespace {

class TreeBuilder : public YAML::EventHandler {
  public:
    TreeBuilder(int firstLine, int columnOffset) : firstLine_(firstLine), offset_(columnOffset) {}

    FilePosition toFile(const YAML::Mark& mark) const {
        return {firstLine_ + std::max(mark.line, 0), offset_ + std::max(mark.column, 0) + 1};
    }

    YamlNode takeRoot() { return std::move(root_); }
    bool hasRoot() const { return hasRoot_; }

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        refuseAnchor(mark, anchor);
        YamlNode node;
        node.at = toFile(mark);
        add(std::move(node));
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
        throw YamlError(toFile(mark), "aliases (*name) are not allowed in a lesson");
    }
    void OnAnchor(const YAML::Mark& mark, const std::string&) override {
        throw YamlError(toFile(mark), "anchors (&name) are not allowed in a lesson");
    }
    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& value) override {
        refuseAnchor(mark, anchor);
        refuseTag(mark, tag);
        YamlNode node;
        node.kind = YamlNode::Kind::Scalar;
        node.at = toFile(mark);
        node.scalar = value;
        node.quoted = tag == "!";
        add(std::move(node));
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value style) override {
        open(mark, tag, anchor, YamlNode::Kind::Sequence, style == YAML::EmitterStyle::Flow);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override {
        open(mark, tag, anchor, YamlNode::Kind::Map, style == YAML::EmitterStyle::Flow);
    }
    void OnMapEnd() override {
        const YamlNode& map = stack_.back();
        if (map.items.size() % 2 != 0) { // keys and values alternate while building
            throw YamlError(map.at, "a map key has no value");
        }
        YamlNode done = std::move(stack_.back());
        stack_.pop_back();
        flow_.pop_back();
        // Each key's line by name, to find a duplicate in one pass (a vocab may have 50,000).
        std::unordered_map<std::string, int> keyLines;
        for (size_t i = 0; i < done.items.size(); i += 2) {
            checkDuplicate(keyLines, done.items[i]);
            done.entries.emplace_back(std::move(done.items[i]), std::move(done.items[i + 1]));
        }
        done.items.clear();
        add(std::move(done));
    }

    // Where the innermost list or map still open in brackets (`[`, `{`) of `kind` starts: what
    // an unclosed bracket is about, though yaml-cpp notices it lines later.
    std::optional<FilePosition> openBracket(YamlNode::Kind kind) const {
        for (size_t i = stack_.size(); i-- > 0;) {
            if (flow_[i] && stack_[i].kind == kind) {
                return stack_[i].at;
            }
        }
        return std::nullopt;
    }

  private:
    void refuseAnchor(const YAML::Mark& mark, YAML::anchor_t anchor) const {
        if (anchor != YAML::NullAnchor) {
            throw YamlError(toFile(mark), "anchors (&name) are not allowed in a lesson");
        }
    }
    void refuseTag(const YAML::Mark& mark, const std::string& tag) const {
        if (!tag.empty() && tag != "?" && tag != "!") {
            throw YamlError(toFile(mark), "YAML tags (" + tag + ") are not used in a lesson");
        }
    }
    void open(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
              YamlNode::Kind kind, bool flow) {
        refuseAnchor(mark, anchor);
        refuseTag(mark, tag);
        if (int(stack_.size()) >= kMaxYamlDepth) {
            throw YamlError(toFile(mark), "nesting too deep (more than " +
                                              std::to_string(kMaxYamlDepth) + " levels)");
        }
        YamlNode node;
        node.kind = kind;
        node.at = toFile(mark);
        stack_.push_back(std::move(node));
        flow_.push_back(flow);
    }
    void close() {
        YamlNode done = std::move(stack_.back());
        stack_.pop_back();
        flow_.pop_back();
        add(std::move(done));
    }
    // While a map is open its keys and values sit in `items`, alternating.
    void add(YamlNode node) {
        if (stack_.empty()) {
            root_ = std::move(node);
            hasRoot_ = true;
        } else {
            stack_.back().items.push_back(std::move(node));
        }
    }
    static void checkDuplicate(std::unordered_map<std::string, int>& keyLines,
                               const YamlNode& key) {
        if (!key.isScalar()) {
            throw YamlError(key.at, "a map key must be a plain name");
        }
        const auto [earlier, isNew] = keyLines.emplace(key.scalar, key.at.line);
        if (!isNew) {
            throw YamlError(key.at, "duplicate key '" + key.scalar + "' (also at line " +
                                        std::to_string(earlier->second) + ")");
        }
    }

    int firstLine_;
    int offset_;
    std::vector<YamlNode> stack_;
    std::vector<bool> flow_; // per open node: written in brackets
    YamlNode root_;
    bool hasRoot_ = false;
};

// yaml-cpp's message in an author's words, at the place to fix: an unclosed bracket where it
// opens (yaml-cpp notices it where the next key starts, a line or more later).
YamlError plainYamlError(const TreeBuilder& builder, const YAML::Exception& e) {
    const FilePosition at = builder.toFile(e.mark);
    const auto unclosed = [&](YamlNode::Kind kind, const char* what, char open, char close) {
        const FilePosition from = builder.openBracket(kind).value_or(at);
        return YamlError(from, std::string(what) + " opened with '" + open + "' on line " +
                                   std::to_string(from.line) + " is not closed with '" + close +
                                   "'");
    };
    namespace msg = YAML::ErrorMsg;
    const std::string& m = e.msg;
    if (m == msg::END_OF_SEQ_FLOW) {
        return unclosed(YamlNode::Kind::Sequence, "a list", '[', ']');
    }
    if (m == msg::END_OF_MAP_FLOW) {
        return unclosed(YamlNode::Kind::Map, "a map", '{', '}');
    }
    static const std::pair<const char*, const char*> plain[] = {
        {msg::FLOW_END, "this ']' or '}' closes nothing that is open"},
        {msg::END_OF_MAP, "this line's indentation does not match the lines above it"},
        {msg::END_OF_SEQ, "this line's indentation does not match the list above it"},
        {msg::BLOCK_ENTRY, "a list item ('- ') cannot start here: check the indentation"},
        {msg::MAP_VALUE, "a second ': ' on one line: put the value in quotes if it holds ': '"},
        {msg::MAP_KEY, "a key ('? ') cannot start here: check the indentation"},
        {msg::TAB_IN_INDENTATION, "a tab indents this line: indent with spaces"},
        {msg::EOF_IN_SCALAR, "a quoted text is never closed"},
        {msg::DOC_IN_SCALAR, "a line of a text starts with '---' or '...': put the text in quotes"},
    };
    for (const auto& [raw, words] : plain) {
        if (m == raw) {
            return YamlError(at, words);
        }
    }
    return YamlError(at, m);
}

} // namespace

namespace {

YamlNode parseYamlNow(const std::string& text, int firstLine, int columnOffset) {
    std::istringstream in(text);
    TreeBuilder builder(firstLine, columnOffset);
    try {
        YAML::Parser parser(in);
        if (!parser.HandleNextDocument(builder)) {
            return YamlNode{};
        }
        TreeBuilder extra(firstLine, columnOffset);
        if (parser.HandleNextDocument(extra)) {
            throw YamlError({firstLine, 1}, "a cell holds one YAML document, not several");
        }
    } catch (const YAML::DeepRecursion& e) {
        throw YamlError(builder.toFile(e.mark), "nesting too deep");
    } catch (const YAML::Exception& e) {
        throw plainYamlError(builder, e);
    }
    return builder.hasRoot() ? builder.takeRoot() : YamlNode{};
}

} // namespace

// The last few bodies parsed (or asked for again) on this thread are kept: a what-if on the live
// page finds its key in the lesson's own cell body, the same text each time (docs/web-page.md), and
// yaml-cpp takes longer over a model's body than copying its tree. A body that does not parse is
// parsed (and refused) again each time.
YamlNode parseYaml(const std::string& text, int firstLine, int columnOffset) {
    return *parsedYaml(text, firstLine, columnOffset);
}

std::shared_ptr<const YamlNode> parsedYaml(const std::string& text, int firstLine,
                                           int columnOffset) {
    struct Kept {
        std::string text;
        int firstLine = 0;
        int columnOffset = 0;
        std::shared_ptr<const YamlNode> tree;
    };
    constexpr size_t kKept = 8;
    thread_local std::vector<Kept> kept; // the most recently used last
    for (auto k = kept.begin(); k != kept.end(); ++k) {
        if (k->firstLine == firstLine && k->columnOffset == columnOffset && k->text == text) {
            std::rotate(k, k + 1, kept.end()); // a lesson's body stays while values come and go
            return kept.back().tree;
        }
    }
    auto tree = std::make_shared<const YamlNode>(parseYamlNow(text, firstLine, columnOffset));
    if (kept.size() == kKept) {
        kept.erase(kept.begin());
    }
    kept.push_back({text, firstLine, columnOffset, tree});
    return tree;
}

YamlNode::YamlNode() = default;
YamlNode::YamlNode(const YamlNode&) = default;
YamlNode::YamlNode(YamlNode&&) noexcept = default;
YamlNode& YamlNode::operator=(const YamlNode&) = default;
YamlNode& YamlNode::operator=(YamlNode&&) noexcept = default;
YamlNode::~YamlNode() = default;

std::optional<double> yamlNumber(const YamlNode& node, std::string& whyNot) {
    if (!node.isScalar() || node.quoted) {
        whyNot = "expected a number, found " +
                 (node.quoted ? "the text \"" + node.scalar + "\"" : node.describe());
        return std::nullopt;
    }
    const std::string& s = node.scalar;
    if (isYamlInfinity(s) || isYamlNotANumber(s)) {
        whyNot = "the number " + s + " is not finite";
        return std::nullopt;
    }
    if (isPrefixedNumber(s, "0o", [](char c) { return c >= '0' && c <= '7'; })) {
        return double(std::strtoll(s.c_str() + 2, nullptr, 8));
    }
    if (isPrefixedNumber(s, "0x", [](char c) {
            return isAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        })) {
        return double(std::strtoll(s.c_str() + 2, nullptr, 16));
    }
    if (!isDecimalNumber(s)) {
        if (s.find(',') != std::string::npos) {
            whyNot = "expected a number, found '" + s + "' (write decimals with a point: 1.5)";
        } else {
            whyNot = "expected a number, found '" + s + "'";
        }
        return std::nullopt;
    }
    errno = 0;
    const double value = std::strtod(s.c_str(), nullptr);
    if (!std::isfinite(value)) {
        whyNot = "the number " + s + " is not finite (too large for a double)";
        return std::nullopt;
    }
    return value;
}

std::optional<bool> yamlBool(const YamlNode& node) {
    if (node.isScalar() && !node.quoted) {
        if (node.scalar == "true") {
            return true;
        }
        if (node.scalar == "false") {
            return false;
        }
    }
    return std::nullopt;
}

} // namespace attnbook

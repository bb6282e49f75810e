#pragma once
// A cell body's YAML as a small tree that remembers where each value stands
// in the file. Built from yaml-cpp's parser events, so that the rules a lesson
// needs are ours to enforce (docs/lesson-format.md): YAML 1.2 core scalars, no
// anchors or aliases, no duplicate keys, no nesting deeper than 64.

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnbook {

struct FilePosition {
    int line = 0;   // from 1
    int column = 0; // from 1
};

struct YamlNode {
    enum class Kind { Null, Scalar, Sequence, Map };
    Kind kind = Kind::Null;
    FilePosition at;
    std::string scalar;                                 // Kind::Scalar
    bool quoted = false;                                // a quoted scalar is always a string
    std::vector<YamlNode> items;                        // Kind::Sequence
    std::vector<std::pair<YamlNode, YamlNode>> entries; // Kind::Map, in file order

    // Defined in yaml_tree.cpp, where YamlNode is complete: clang with libstdc++ in C++20
    // instantiates the members' vector of pairs too early otherwise (scripts/fuzz.sh).
    YamlNode();
    YamlNode(const YamlNode&);
    YamlNode(YamlNode&&) noexcept;
    YamlNode& operator=(const YamlNode&);
    YamlNode& operator=(YamlNode&&) noexcept;
    ~YamlNode();

    bool isNull() const { return kind == Kind::Null; }
    bool isScalar() const { return kind == Kind::Scalar; }
    bool isSequence() const { return kind == Kind::Sequence; }
    bool isMap() const { return kind == Kind::Map; }
    const YamlNode* find(const std::string& key) const; // a map's value for `key`
    std::string describe() const; // "a list", "the text 'abc'", ... for messages
};

struct YamlError : std::runtime_error {
    YamlError(FilePosition where, const std::string& message)
        : std::runtime_error(message), at(where) {}
    FilePosition at;
};

constexpr int kMaxYamlDepth = 64;

// Parses `text`, whose first line is the file's line `firstLine` and whose
// columns start `columnOffset` characters into the file's lines. An empty
// text is a Null node. Throws YamlError at the file position of the fault.
YamlNode parseYaml(const std::string& text, int firstLine, int columnOffset = 0);
// The same tree, shared with parseYaml's kept ones rather than copied: for a caller that only
// reads it (a model's body is hundreds of nodes).
std::shared_ptr<const YamlNode> parsedYaml(const std::string& text, int firstLine,
                                           int columnOffset = 0);

// YAML 1.2 core schema readings of a plain scalar.
std::optional<double> yamlNumber(const YamlNode& node, std::string& whyNot);
std::optional<bool> yamlBool(const YamlNode& node);

} // namespace attnbook

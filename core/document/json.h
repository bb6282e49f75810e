#pragma once
// A small ordered JSON value: `compute` prints keys in the order cli.md
// shows them (QJsonObject would sort them), numbers in their shortest
// round-trip form, and bindings walk the same tree.
// Why not nlohmann::ordered_json (the notebook's JSON is nlohmann::json): its dump writes
// 1.0 as "1.0" where cli.md has "1", and puts each number of a matrix on its own line where
// this prints one row per line, so `compute` would need a writer of its own anyway; and
// core/ keeps nlohmann private to tensor_file.cpp, where this type is in headers and app/.

#include <armadillo>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace attnbook {

class Json {
  public:
    using Array = std::vector<Json>;
    using Object = std::vector<std::pair<std::string, Json>>;

    Json() = default; // null
    Json(std::nullptr_t) {}
    Json(bool b) : value_(b) {}
    Json(double d) : value_(d) {}
    Json(int i) : value_(double(i)) {}
    Json(const char* s) : value_(std::string(s)) {}
    Json(std::string s) : value_(std::move(s)) {}
    Json(Array a) : value_(std::move(a)) {}
    static Json object() { return Json(Object{}); }

    bool isNull() const { return std::holds_alternative<std::monostate>(value_); }
    bool isBool() const { return std::holds_alternative<bool>(value_); }
    bool isNumber() const { return std::holds_alternative<double>(value_); }
    bool isString() const { return std::holds_alternative<std::string>(value_); }
    bool isArray() const { return std::holds_alternative<Array>(value_); }
    bool isObject() const { return std::holds_alternative<Object>(value_); }
    bool boolean() const { return std::get<bool>(value_); }
    double number() const { return std::get<double>(value_); }
    const std::string& string() const { return std::get<std::string>(value_); }
    const Array& array() const { return std::get<Array>(value_); }
    const Object& object_() const { return std::get<Object>(value_); }

    // Appends to an object, keeping the order.
    Json& set(const std::string& key, Json value);
    const Json* find(const std::string& key) const;
    const Json* at(size_t index) const;

    // Pretty text: arrays of plain values stay on one line, so a matrix
    // prints one row per line.
    std::string dump() const;

  private:
    explicit Json(Object o) : value_(std::move(o)) {}
    void write(std::string& out, int indent) const;
    std::variant<std::monostate, bool, double, std::string, Array, Object> value_;
};

// The shortest text that reads back to the same double, as std::to_chars writes it
// (shortestDecimal, decimal_text.h).
std::string shortestDouble(double value);

// `text` as a JSON string literal, quotes included, escaped as Python's json module does.
std::string jsonStringLiteral(const std::string& text);

Json jsonMatrix(const arma::mat& m);
Json jsonVector(const arma::rowvec& v);
Json jsonStrings(const std::vector<std::string>& strings);

} // namespace attnbook

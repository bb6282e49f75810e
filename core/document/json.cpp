#include "core/document/json.h"

#include "core/document/decimal_text.h"

#include <cmath>
#include <cstdio>
#include <string_view>

namespace attnbook {

Json& Json::set(const std::string& key, Json value) {
    std::get<Object>(value_).emplace_back(key, std::move(value));
    return *this;
}

const Json* Json::find(const std::string& key) const {
    if (!isObject()) {
        return nullptr;
    }
    for (const auto& [k, v] : std::get<Object>(value_)) {
        if (k == key) {
            return &v;
        }
    }
    return nullptr;
}

const Json* Json::at(size_t index) const {
    if (!isArray() || index >= array().size()) {
        return nullptr;
    }
    return &array()[index];
}

std::string shortestDouble(double value) {
    if (!std::isfinite(value)) {
        return "null"; // never reached: the core refuses and never makes non-finite numbers
    }
    return shortestDecimal(value);
}

namespace {

// `text` as a JSON string literal, appended to `out`: runs that need no escape are copied
// whole (the live page's answers carry views of tens of kilobytes of HTML).
void appendJsonString(std::string& out, std::string_view text) {
    out += '"';
    size_t run = 0; // the start of the characters not copied yet
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != '"' && c != '\\') {
            continue;
        }
        out.append(text, run, i - run);
        run = i + 1;
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default: {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        }
        }
    }
    out.append(text, run, text.size() - run);
    out += '"';
}

} // namespace

std::string jsonStringLiteral(const std::string& text) {
    std::string out;
    out.reserve(text.size() + 2);
    appendJsonString(out, text);
    return out;
}

namespace {

void writeString(std::string& out, const std::string& s) {
    appendJsonString(out, s);
}

bool isPlain(const Json& j) {
    return !j.isArray() && !j.isObject();
}

} // namespace

void Json::write(std::string& out, int indent) const {
    const std::string pad(size_t(indent + 2), ' ');
    const std::string closePad(size_t(indent), ' ');
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>) {
                out += "null";
            } else if constexpr (std::is_same_v<T, bool>) {
                out += v ? "true" : "false";
            } else if constexpr (std::is_same_v<T, double>) {
                out += shortestDouble(v);
            } else if constexpr (std::is_same_v<T, std::string>) {
                writeString(out, v);
            } else if constexpr (std::is_same_v<T, Array>) {
                const bool oneLine = std::all_of(v.begin(), v.end(), isPlain);
                out += '[';
                for (size_t i = 0; i < v.size(); ++i) {
                    out += i ? (oneLine ? ", " : ",\n" + pad) : (oneLine ? "" : "\n" + pad);
                    v[i].write(out, indent + 2);
                }
                out += oneLine || v.empty() ? "]" : "\n" + closePad + "]";
            } else {
                out += '{';
                for (size_t i = 0; i < v.size(); ++i) {
                    out += i ? ",\n" + pad : "\n" + pad;
                    writeString(out, v[i].first);
                    out += ": ";
                    v[i].second.write(out, indent + 2);
                }
                out += v.empty() ? "}" : "\n" + closePad + "}";
            }
        },
        value_);
}

std::string Json::dump() const {
    std::string out;
    write(out, 0);
    return out;
}

Json jsonMatrix(const arma::mat& m) {
    Json::Array rows;
    rows.reserve(m.n_rows);
    for (arma::uword r = 0; r < m.n_rows; ++r) {
        Json::Array row;
        row.reserve(m.n_cols);
        for (arma::uword c = 0; c < m.n_cols; ++c) {
            row.emplace_back(m(r, c));
        }
        rows.emplace_back(std::move(row));
    }
    return Json(std::move(rows));
}

Json jsonVector(const arma::rowvec& v) {
    Json::Array out;
    for (arma::uword i = 0; i < v.n_elem; ++i) {
        out.emplace_back(v(i));
    }
    return Json(std::move(out));
}

Json jsonStrings(const std::vector<std::string>& strings) {
    Json::Array out;
    for (const std::string& s : strings) {
        out.emplace_back(s);
    }
    return Json(std::move(out));
}

} // namespace attnbook

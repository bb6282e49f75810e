#include "core/document/setting_words.h"

#include <array>
#include <utility>

namespace attnbook {
namespace {

template <class Kind, size_t N>
std::string nameOf(const std::array<std::pair<Kind, const char*>, N>& words, Kind kind) {
    for (const auto& [value, word] : words) {
        if (value == kind) {
            return word;
        }
    }
    return words[0].second;
}

template <class Kind, size_t N>
std::optional<Kind> kindOf(const std::array<std::pair<Kind, const char*>, N>& words,
                           std::string_view name) {
    for (const auto& [value, word] : words) {
        if (name == word) {
            return value;
        }
    }
    return std::nullopt;
}

constexpr std::array<std::pair<MaskKind, const char*>, 2> kMasks = {
    {{MaskKind::None, "none"}, {MaskKind::Causal, "causal"}}};
constexpr std::array<std::pair<PositionalKind, const char*>, 3> kPositionals = {
    {{PositionalKind::None, "none"},
     {PositionalKind::Sinusoidal, "sinusoidal"},
     {PositionalKind::Learned, "learned"}}};
constexpr std::array<std::pair<ScaleKind, const char*>, 3> kScales = {
    {{ScaleKind::InverseSqrtDk, "sqrt"}, {ScaleKind::Off, "off"}, {ScaleKind::Divisor, "divisor"}}};
constexpr std::array<std::pair<PickKind, const char*>, 2> kPicks = {
    {{PickKind::Greedy, "greedy"}, {PickKind::Sample, "sample"}}};

} // namespace

std::string maskName(MaskKind mask) {
    return nameOf(kMasks, mask);
}
std::optional<MaskKind> maskNamed(std::string_view name) {
    return kindOf(kMasks, name);
}
std::string positionalName(PositionalKind kind) {
    return nameOf(kPositionals, kind);
}
std::optional<PositionalKind> positionalNamed(std::string_view name) {
    return kindOf(kPositionals, name);
}
std::string scaleName(ScaleKind kind) {
    return nameOf(kScales, kind);
}
std::optional<ScaleKind> scaleNamed(std::string_view name) {
    return kindOf(kScales, name);
}
std::string pickName(PickKind pick) {
    return nameOf(kPicks, pick);
}
std::optional<PickKind> pickNamed(std::string_view name) {
    return kindOf(kPicks, name);
}

} // namespace attnbook

#pragma once
// The words of a cell's settings as the window's controls, the lesson's YAML and Keep spell
// them ("causal", "sinusoidal", "sqrt", "sample"), both ways, for every cell kind: the attention
// and transformer models only pass them through to QML.

#include "core/math/attention_config.h"
#include "core/math/transformer_config.h"

#include <optional>
#include <string>
#include <string_view>

namespace attnbook {

std::string maskName(MaskKind mask); // "none", "causal"
std::optional<MaskKind> maskNamed(std::string_view name);
std::string positionalName(PositionalKind kind); // "none", "sinusoidal", "learned"
std::optional<PositionalKind> positionalNamed(std::string_view name);
std::string scaleName(ScaleKind kind); // "sqrt" (1/√d_k), "off", "divisor"
std::optional<ScaleKind> scaleNamed(std::string_view name);
std::string pickName(PickKind pick); // "greedy", "sample"
std::optional<PickKind> pickNamed(std::string_view name);

} // namespace attnbook

#pragma once
// The words of a cell's settings, both ways, for every cell kind. The mask's, the positional
// encoding's and the pick's are the lesson's own (docs/lesson-format.md, transformer.md): the cell
// readers read them, Keep and the result JSON write them, and the window's controls show them.
// The scale's ("sqrt", "off", "divisor") are the controls' only: YAML writes `scale: true`,
// `false` or a number.

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

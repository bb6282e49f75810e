#pragma once
// A transformer cell's Settings view, without Qt (transformer.md): what the cell is set to, in
// words, and one row per layer. The PDF paints it (exports/paint/transformer_model_boxes.cpp)
// and the web page writes it as HTML (transformer_view_html.h), again after each what-if, so
// that a reader who changes the temperature sees T change there too.

#include "core/document/lesson.h"
#include "core/math/transformer_config.h"
#include "core/math/transformer_result.h"
#include "core/math/transformer_training.h"

#include <string>
#include <vector>

namespace attnbook {

// One row of the settings: its label and its text. The Tokens row ends with the focus token,
// which is shown apart (in italics): `focusWord`, "" elsewhere.
struct SettingRow {
    std::string label;
    std::string text;
    std::string focusWord;
};

// The tokens, the model, positions, LayerNorm and temperature, then the targets, generation,
// training and the files read when the cell has them.
std::vector<SettingRow> transformerSettingRows(const LessonCell& cell,
                                               const TransformerCellSpec& spec,
                                               const TransformerResult& result);

// One layer's row: layer, heads, d_k, d_v, mask, LN₁, FFN, LN₂ (layerSettingHeaders); a layer
// that did not run says so, with "—" for its widths.
struct LayerSettingRow {
    std::vector<std::string> entries;
    bool ran = true;
};
const std::vector<std::string>& layerSettingHeaders();
std::vector<LayerSettingRow> layerSettingRows(const TransformerConfig& config,
                                              const TransformerResult& result);

// "none", "γ, β given", "γ given, β = 0", "γ = 1, β given", "γ = 1, β = 0".
std::string layerNormWords(const LayerNormParams& norm);

// How a cell trains: "Adam, lr 0.05, 4 sentences, from random weights (seed 7)".
std::string trainingMethodText(const TrainingSpec& training);

// The sentence over the training curve: "Adam, lr 0.05, 4 sentences. The loss fell from 2.3026
// to 0.4100 in 100 steps; every other view shows the model after step 100 (loss 0.4100)."
std::string trainingCurveText(const TrainingSpec& training, const std::vector<double>& loss,
                              int shown, double shownLoss);

// The first `most` tokens, each on one line and shortened, joined with commas, and how many in
// all past them: "a, b, … (14 in all)".
std::string tokenListText(const std::vector<std::string>& tokens, size_t most = 12);

// The files the cell read, as the settings list them: those that gave weights, with how many
// values each gave when more than one ("data/tiny/model.safetensors (34 values)"), and those
// that gave training sentences only. Plain text, one file each.
struct CellSourceTexts {
    std::vector<std::string> weights;
    std::vector<std::string> sentences;
};
CellSourceTexts cellSourceTexts(const LessonCell& cell, const TransformerCellSpec& spec);

} // namespace attnbook

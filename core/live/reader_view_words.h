#pragma once
// A transformer cell's reader views as what-if words (docs/document-format.md, "Reader
// views"): the window's switches that no key of the cell holds (transformer.md) — the layers
// run, LayerNorm, the FFN and the mask — written `ID.view.layers=K`, `ID.view.norm=off`,
// `ID.view.ffn=off` and `ID.view.mask=none`. `compute --set`, the live page and its links take
// them beside the cell's keys; they change what the cell computes, never its text: `edit`
// refuses them, Keep never writes them, and training never reads them.

#include "core/document/cell_specs.h"
#include "core/live/transformer_live_cell.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnbook {

// Whether `key` (of ID.KEY=YAML) names a reader view: it starts with "view.".
bool isReaderViewKey(const std::string& key);

// The control that switches the view `key` ("layers", "norm", "ffn", "mask"), "" when `key`
// names none.
std::string readerViewControl(const std::string& key);

// One view, read from its words against the cell it switches.
struct ReaderView {
    std::string control;              // "layers", "norm", "ffn", "mask"
    int layers = -1;                  // layers: the first k run; −1 for all of them
    bool on = true;                   // norm, ffn
    MaskKind mask = MaskKind::Causal; // mask: every layer's
};

// The view `key` = `value` of `spec`, or nullopt with `why`: an unknown view, a value it does
// not take (layers 1 … L; on or off; none or causal), a cell whose layers have different masks.
std::optional<ReaderView> parseReaderView(const TransformerCellSpec& spec, const std::string& key,
                                          const std::string& value, std::string& why);

// Switches the view in `spec.config`, first noting in `spec.beforeViews` what the cell had, so
// that its training reads the cell's own switches and masks.
void applyReaderView(TransformerCellSpec& spec, const ReaderView& view);

// Reads and switches the view `key` = `value` of `spec` (parseReaderView, then
// applyReaderView): "" when switched, else why not, and `spec` is as it was.
std::string switchReaderView(TransformerCellSpec& spec, const std::string& key,
                             const std::string& value);

// The view words (KEY → value) that take a cell of `layerCount` layers from `was` to `now`:
// those that differ, in the order layers, norm, ffn, mask.
std::vector<std::pair<std::string, std::string>>
readerViewKeys(const TransformerSettings& was, const TransformerSettings& now, int layerCount);

} // namespace attnbook

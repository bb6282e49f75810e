#include "core/present/shown_cell.h"

namespace attnbook {

TransformerCellSpec shownSpec(const TransformerCellSpec& authored,
                              const TransformerResult* computed) {
    return computed && computed->training ? shownSpec(authored, computed->training->weights)
                                          : authored;
}

TransformerCellSpec shownSpec(const TransformerCellSpec& authored,
                              const TransformerConfig& trained) {
    TransformerCellSpec shown = authored;
    shown.config = trained;
    // A reader's new token takes its row of the vocab as trained.
    const TransformerConfig& c = shown.config;
    for (size_t w = 0; w < c.vocabLabels.size() && w < c.vocab.n_rows; ++w) {
        shown.vocab[c.vocabLabels[w]] = c.vocab.row(arma::uword(w));
    }
    return shown;
}

} // namespace attnbook

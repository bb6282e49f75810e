#pragma once
// What a reader may do to a cell with the window's controls (its `controls:`), said in the
// cell's own keys: which keys a `--set` may change and still be a reader's what-if, which never
// makes a lesson unusable, and the what-ifs a sweep of a lesson tries, each written
// as the keys the window's Keep would write for it.

#include "core/document/lesson.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace attnbook {

class TransformerLiveCell;

// Whether the cell's controls let a reader change its top-level key `key`. A control changes
// the keys the window's Keep writes for it: `tokens` also rewrites the per-token keys (padding,
// learned positions, upstream rows, a new word's vocab entry), `mask` the padding, `vectors`
// the vocab or X (queries, keys and values in direct mode), `projections` W_Q … b_O. The focus
// is the reader's in every cell. A transformer cell's layers, norm, ffn and mask are the
// window's view and have no key: their what-if words, view.layers … view.mask
// (reader_view_words.h), are a reader's when the cell's controls offer them.
bool readerMayChange(const LessonCell& cell, const std::string& key);

struct ReaderWhatIf {
    std::string cellId;
    std::string control; // the control that makes it: "tokens", "mask", "scale", …
    std::string label;   // "remove token 2 (blue)"
    std::vector<std::pair<std::string, std::string>> keys; // KEY → YAML, as Keep writes them
    std::string setText(size_t i) const {
        return cellId + "." + keys[i].first + "=" + keys[i].second;
    }
};

// A what-if of a transformer cell's view, which no key holds (transformer.md: layers run,
// normalization, feed-forward networks, the mask): applied to the cell's live state.
struct ReaderViewWhatIf {
    std::string cellId;
    std::string control;                                    // "layers", "norm", "ffn", "mask"
    std::string label;                                      // "norm off"
    std::function<std::string(TransformerLiveCell&)> apply; // "" when applied
    std::string key, value; // its what-if words (reader_view_words.h): view.norm, off
    std::string setText() const { return cellId + "." + key + "=" + value; }
};

// The what-ifs the cell's controls allow, bounded and in a fixed order: each control's values
// one at a time (every heads count the widths allow, the other mask, every positional kind,
// each scale kind with a divisor of 2, each projection as the identity and as zeros, the first
// vector entry plus one and each of its first four entries negated, the first and the last key
// padded), and the token edits a lesson invites (removing each token, replacing each with up
// to three other words of the vocab, swapping neighbours and the first with the last, adding
// the vocab's first word). Edits that the window refuses or that change nothing are left out.
// A transformer cell's temperature (0.5, 2), generation (none, three greedy words) and
// positions (none, sinusoidal) as well.
std::vector<ReaderWhatIf> readerWhatIfs(const LessonCell& cell);

// The view what-ifs a transformer cell's controls allow: each number of layers short of all,
// normalization off, the feed-forward networks off, no mask. None for other cells.
std::vector<ReaderViewWhatIf> readerViewWhatIfs(const LessonCell& cell);

} // namespace attnbook

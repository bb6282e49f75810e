#pragma once
// The `compute` JSON of each kind of cell (cli.md). Bindings are paths into
// these objects.

#include "core/document/cell_specs.h"
#include "core/document/chart_series.h"
#include "core/document/expression.h"
#include "core/document/json.h"
#include "core/math/attention_result.h"
#include "core/math/transformer_result.h"

#include <map>

namespace attnbook {

// The parts of a cell's JSON that some binding paths read: a 512-token cell's whole
// JSON costs more to build than the cell costs to compute, while its prose quotes a handful of
// numbers. Of each table a path reaches, a selection keeps the rows it indexes (every row when
// a path takes the whole table); the other rows are null and the tables no path names are
// left out, so each selected path resolves to the same value, or fails with the same message,
// as in the whole JSON. The small entries (shapes, tokens, the gradient check) are kept.
class JsonSelection {
  public:
    void add(const BindingPath& path);
    bool empty() const { return !whole_ && keys_.empty() && indices_.empty(); }

    // The part under key `name` or index `i`; nullptr when no path goes there.
    const JsonSelection* key(const std::string& name) const;
    const JsonSelection* index(size_t i) const;
    // A path ends here: take all of it.
    bool whole() const { return whole_; }
    // Some path goes on through an index (a table's row).
    bool indexed() const { return !indices_.empty(); }

  private:
    bool whole_ = false;
    std::map<std::string, JsonSelection> keys_;
    std::map<size_t, JsonSelection> indices_;
};

// Whether a cell is small enough for its whole JSON to be built each time it computes, so that
// a binding an author is still typing finds every value; a larger cell's JSON is built for
// the paths that quote it (JsonSelection). Judged by its forward tables, so that a cell is
// judged alike with and without its gradients.
bool buildsWholeJson(const AttentionForward& r);

// The whole JSON, or (with `only`) the part of it that the selected paths read.
Json attentionJson(const std::string& id, const AttentionResult& result,
                   const JsonSelection* only = nullptr);
// transformer.md, "What compute prints": every stage of every layer (each layer's attention as
// attentionJson prints an attention cell), the logits, chances, next words, loss, generation,
// every gradient by its parameter's path and the gradient check.
Json transformerJson(const std::string& id, const TransformerResult& result,
                     const JsonSelection* only = nullptr);
Json chartJson(const std::string& id, const std::vector<ChartSeries>& series);
// `answer` is the resolved answer: a number, a choice index or the text.
Json quizJson(const std::string& id, Json answer);

} // namespace attnbook

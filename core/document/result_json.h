#pragma once
// The `compute` JSON of each kind of cell (cli.md). Bindings are paths into
// these objects.

#include "core/document/cell_specs.h"
#include "core/document/chart_series.h"
#include "core/document/json.h"
#include "core/math/attention_result.h"

namespace attnbook {

Json attentionJson(const std::string& id, const AttentionResult& result);
Json chartJson(const std::string& id, const std::vector<ChartSeries>& series);
// `answer` is the resolved answer: a number, a choice index or the text.
Json quizJson(const std::string& id, Json answer);

} // namespace attnbook

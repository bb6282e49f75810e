#include "core/present/next_words_view.h"

#include "core/present/transformer_summary.h"
#include "core/present/transformer_views.h"
#include "core/present/view_titles.h"

#include <algorithm>

namespace attnbook {

NextWordsView nextWordsView(const TransformerCellSpec& spec, const TransformerResult& r) {
    NextWordsView view;
    const int last = r.n - 1;
    const std::string lastToken = last >= 0 && size_t(last) < r.tokens.size()
                                      ? shortWordText(r.tokens[size_t(last)])
                                      : "#" + std::to_string(last + 1);
    view.title =
        viewTitle("next") + " after “" + lastToken + "” (row " + std::to_string(last + 1) + ")";
    const bool generated = r.generation.ran && !r.generation.steps.empty();
    view.mark = !generated ? "greedy pick"
                : spec.config.generate && spec.config.generate->pick == PickKind::Greedy
                    ? "chosen (greedy)"
                    : "chosen (sampled)";
    view.note = "p = softmax(logits / T) with T = " + settingText(spec.config.temperature) +
                ", the " + std::to_string(std::min<size_t>(r.next.size(), 10)) +
                " most likely of " + std::to_string(r.V) + " words:";
    view.loss = r.loss;
    if (r.probs.n_rows == 0) {
        return view;
    }
    // The words by chance, as `next` lists them, and the chosen word if it is not among them.
    const int chosen = transformer_views::chosenNextWord(r);
    const arma::rowvec p = r.probs.row(r.probs.n_rows - 1);
    const auto bar = [&](int k, bool extra) {
        return NextWordBar{r.words[size_t(k)], p(arma::uword(k)), k == chosen, extra};
    };
    bool chosenShown = false;
    for (const NextWord& w : r.next) {
        const auto it = std::find(r.words.begin(), r.words.end(), w.word);
        if (it != r.words.end()) {
            const int k = int(it - r.words.begin());
            view.bars.push_back(bar(k, false));
            chosenShown = chosenShown || k == chosen;
        }
    }
    if (chosen >= 0 && !chosenShown) {
        view.bars.push_back(bar(chosen, true));
    }
    return view;
}

} // namespace attnbook

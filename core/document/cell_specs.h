#pragma once
// What each kind of cell says, read from its YAML body, with the file
// position of every value so that later errors can point at it.

#include "core/document/expression.h"
#include "core/document/file_value_source.h"
#include "core/document/shared_model.h"
#include "core/document/yaml_tree.h"
#include "core/math/attention_config.h"
#include "core/math/transformer_config.h"
#include "core/math/transformer_training.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace attnbook {

// Where each value of a cell stands in the file: a key's value, and for
// matrices and lists each element.
struct ValuePositions {
    std::map<std::string, FilePosition> keys;                               // the key itself
    std::map<std::string, FilePosition> values;                             // the value's start
    std::map<std::string, std::vector<std::vector<FilePosition>>> elements; // [row][col]

    FilePosition of(const std::string& key, int row = -1, int col = -1) const;
};

struct WorksheetSpec {
    std::vector<std::string> blank; // names of views/matrices shown as empty boxes
    // The values a draw takes: min, min + step, …, max. A step of 1 gives whole numbers; 0.5 or
    // 0.25 give halves or quarters, still workable by hand, and many more different answers
    // (30 sheets for a class need 30 of each).
    struct Range {
        int min = -2;
        int max = 2;
        double step = 1.0;
        int count() const { return int(std::lround((max - min) / step)); } // steps from min to max
    };
    std::map<std::string, Range> vary; // cell key (vocab, X, W_Q, queries ...) → range
    // A variant is redrawn until every scaled score lies within ±maxScore, so that
    // e^score stays a number a student can work out by hand (e^3 ≈ 20).
    double maxScore = 3.0;
};

struct AttentionCellSpec {
    AttentionConfig config;
    std::vector<std::string> views; // matrices, heatmap, shares, arithmetic, trace, gradients
    std::vector<std::string>
        controls; // tokens, vectors, heads, mask, positional, scale, projections
    std::map<std::string, arma::rowvec> vocab; // label → vector, when the cell has a vocab
    std::vector<std::string> vocabOrder;       // labels in file order
    std::optional<WorksheetSpec> worksheet;
    // Keys read from {file: PATH} values → where from ("wq.npy, shape 768×2304,
    // cols: [0, 64]"), so that a shape error can say what was read.
    std::map<std::string, std::string> loadedFrom;
    // The same keys → the reference Keep writes back, with the entries an edit sets.
    std::map<std::string, FileValueSource> fileValues;
};

// A transformer cell (transformer.md): the decoder's numbers and what the window shows of it.
struct TransformerCellSpec {
    TransformerConfig config;
    std::vector<std::string> views;            // transformerViewNames(); default stream, next
    std::vector<std::string> controls;         // transformerControlNames(); default all
    std::map<std::string, arma::rowvec> vocab; // label → vector
    std::vector<std::string> vocabOrder;       // labels in file order
    int blockSize = 2;                         // keys per block in the `blocks` view
    std::optional<TrainingSpec> training;      // the `train` key (docs/training.md)
    // The lesson's text reads ID.knockout: the knock-outs are needed for its words, not only
    // for the view (config.knockouts is either); what the what-if sweep computes.
    bool knockoutsQuoted = false;
    std::optional<WorksheetSpec> worksheet;
    std::map<std::string, std::string> loadedFrom; // as AttentionCellSpec's
    std::optional<SharedModelUse> sharedModel;     // `model: ID` (shared_model.h)
    // What a what-if's reader views (core/live/reader_view_words.h) replaced in `config`: the
    // cell's own switches and each layer's mask. Training reads these, never the views, as the
    // window trains the cell as written and switches only what it shows.
    struct AuthoredSwitches {
        TransformerSwitches run;
        std::vector<MaskKind> masks; // one per layer
    };
    std::optional<AuthoredSwitches> beforeViews;
};

struct QuizCellSpec {
    std::string question;
    std::vector<std::string> choices;
    // One of: the right choice's index, a number, a binding "{{...}}", free text.
    enum class AnswerKind { Choice, Number, Binding, Text };
    AnswerKind answerKind = AnswerKind::Text;
    int choice = -1;
    double number = 0.0;
    std::string text; // the binding (without braces) or the free text
    // A binding answer parsed once, as it was read; nullopt when it does not parse.
    std::optional<Binding> answerBinding;
    std::string answerBindingError; // why it does not parse
    // `tolerance:` as written: absolute (0.001) or relative (1%); unset: the default of
    // docs/lesson-format.md (quiz_answer.h computes it).
    struct Tolerance {
        double absolute = 0.0;
        double relative = 0.0;
    };
    std::optional<Tolerance> tolerance;
    int answerDecimals = 4; // decimals the key shows: the binding's digits, or as typed
    std::string explain;
    std::string cell; // `cell:` as written; empty: the first cell the quiz's text binds
};

struct ChartSeriesSpec {
    std::string label;
    std::string formula;
    FilePosition at;
};

struct ChartCellSpec {
    std::string title;
    std::string xLabel;
    std::string variable = "n";
    double from = 0.0;
    double to = 1.0;
    int points = 50;
    bool xLog = false;
    std::string yLabel;
    bool yLog = false;
    std::vector<ChartSeriesSpec> series;
};

const std::vector<std::string>& attentionViewNames();
const std::vector<std::string>& attentionControlNames();
// The attention cell's views and controls, plus the transformer's own (transformer.md).
const std::vector<std::string>& transformerViewNames();
const std::vector<std::string>& transformerControlNames();

} // namespace attnbook

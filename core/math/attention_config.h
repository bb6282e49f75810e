#pragma once
// The inputs of one attention cell, as numbers (attention.md). The document
// layer fills it from YAML; the window fills it from its controls.
//
// Names used throughout the core:
//   n    query rows (tokens)            m    key/value rows (= n unless direct mode)
//   d    model width                    h    heads
//   d_k  query/key width of one head    d_v  value width of one head
//   d_o  output width

#include <armadillo>

#include <optional>
#include <string>
#include <vector>

namespace attnbook {

enum class MaskKind { None, Causal };
enum class PositionalKind { None, Sinusoidal, Learned };
enum class ScaleKind { InverseSqrtDk, Off, Divisor };

// A weight matrix stores one output unit per row: (outputs × inputs).
struct Projection {
    bool identity = true;
    arma::mat weights; // used when !identity
};

struct AttentionConfig {
    // Projection mode: token rows X0 (n × d) with labels.
    std::vector<std::string> tokens;
    arma::mat X0;

    // Direct mode: Q (n × h·d_k), K (m × h·d_k), V (m × h·d_v) given as is.
    bool direct = false;
    arma::mat queries, keys, values;
    std::vector<std::string> queryTokens; // optional labels of the n query rows

    int heads = 1;
    std::optional<int> dK, dV;

    ScaleKind scaleKind = ScaleKind::InverseSqrtDk;
    double scaleDivisor = 1.0; // c, when scaleKind == Divisor

    MaskKind mask = MaskKind::None;
    std::vector<bool> padding; // empty: no padding; else one flag per key row

    PositionalKind positional = PositionalKind::None;
    arma::mat learnedP; // n × d when positional == Learned

    Projection wQ, wK, wV, wO;
    arma::rowvec bQ, bK, bV, bO; // empty: zeros

    std::optional<arma::mat> upstream; // ∂L/∂Y (n × d_o); nullopt: all ones

    int focus = 0;
};

// Sizes refused before anything is allocated (reliability.md §8).
struct AttentionLimits {
    int maxTokens = 4096; // n and m
    int maxWidth = 4096;  // d, h·d_k, h·d_v, d_o
    int maxHeads = 4096;
};

// A configuration the core cannot compute. `key` names the cell key at fault
// ("heads", "W_Q", ...), `row`/`col` the element when one is, so the document
// layer can point at the exact place in the file.
struct ConfigError {
    std::string key;
    std::string message;
    int row = -1;
    int col = -1;
};

class InvalidConfig : public std::runtime_error {
  public:
    explicit InvalidConfig(ConfigError error)
        : std::runtime_error(error.message), error_(std::move(error)) {}
    const ConfigError& error() const { return error_; }

  private:
    ConfigError error_;
};

} // namespace attnbook

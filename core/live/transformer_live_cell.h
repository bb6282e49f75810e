#pragma once
// A transformer cell's what-ifs (transformer.md, "controls"): what a reader may change, the
// configuration those changes give, their undo, and what "Keep" writes into the lesson. No Qt:
// the window's TransformerCellModel only adapts this to QML, and doctest checks it.
//
// The authored cell is never changed here: every configuration is the authored one with the
// reader's settings applied, so Undo and Reset are exact and cost nothing to store.

#include "core/document/cell_specs.h"
#include "core/live/live_undo.h"

#include <string>
#include <utility>
#include <vector>

namespace attnbook {

// What the cell's controls change. The weights are the lesson's; only these vary.
struct TransformerSettings {
    std::vector<std::string> tokens; // vocabulary words
    PositionalKind positional = PositionalKind::None;
    MaskKind mask = MaskKind::Causal; // every layer's
    bool maskMixed = false;           // the layers differ (as authored): left alone
    TransformerSwitches run;
    double temperature = 1.0;
    int generateSteps = 0;
    PickKind pick = PickKind::Greedy;
    std::uint64_t seed = 0;

    bool operator==(const TransformerSettings&) const = default;
};

// What "Keep" writes: top-level keys of the cell as YAML (`tokens`, `temperature`, …), and
// the settings that are the reader's view rather than part of the lesson.
struct TransformerKeepPlan {
    std::vector<std::pair<std::string, std::string>> keys;
    std::vector<std::string> notKept; // "layers: 1 of 2", "norm off", "mask none"
};

class TransformerLiveCell {
  public:
    explicit TransformerLiveCell(TransformerCellSpec authored);

    const TransformerCellSpec& authored() const { return authored_; }
    const TransformerSettings& settings() const { return settings_; }
    const TransformerSettings& authoredSettings() const { return authoredSettings_; }
    // The authored cell with the settings applied: what the engine computes. Its weight
    // matrices alias the authored cell's (transformer::sharedWeights): valid while this cell
    // is; move it, never copy it.
    TransformerConfig config() const;
    bool edited() const { return settings_ != authoredSettings_; }
    bool allows(const std::string& control) const;

    // Each edit returns "" when applied, else why it was refused (and nothing changed).
    std::string replaceToken(int index, const std::string& word);
    std::string addToken(const std::string& word);
    std::string removeToken(int index);
    std::string setLayersRun(int layers);
    std::string setNorm(bool on);
    std::string setFeedForward(bool on);
    std::string setTemperature(double temperature);
    std::string setGenerate(int steps, PickKind pick, std::uint64_t seed);
    std::string setMask(MaskKind mask);
    std::string setPositional(PositionalKind positional);

    bool canUndo() const { return !undo_.empty(); }
    // When the latest edit was made (what_if_clock.h), or 0 with none.
    std::int64_t latestStamp() const { return undo_.latestStamp(); }
    // Takes back the latest edit; false when there is none.
    bool undo();
    // Back to the authored settings, as an edit that Undo takes back.
    void reset();
    // One gesture is one Undo step: between these, a drag of the temperature slider or a held
    // spin button may make many edits, and only the first records the settings to go back to.
    // A gesture that ends where it began leaves no step.
    void beginGesture();
    void endGesture();

    TransformerKeepPlan keepPlan() const;

    // The cell's numbers replaced by `shown` (the same cell at another training step, or after
    // another training run): the reader's settings and their undo stay, since they are about
    // tokens and switches. Configurations made before alias the old weights: the caller lets
    // every job that holds one finish first.
    void replaceWeights(TransformerCellSpec shown) { authored_ = std::move(shown); }

    // The most tokens a reader may have (the cell's own cost grows with n²).
    static constexpr int kMaxTokens = 32;

  private:
    std::string apply(TransformerSettings next, const char* control);

    TransformerCellSpec authored_;
    TransformerSettings authoredSettings_;
    TransformerSettings settings_;
    LiveUndo<TransformerSettings> undo_; // the settings before each edit
    bool gestureOpen_ = false;
    bool gestureRecorded_ = false; // the open gesture's first edit pushed its step
};

} // namespace attnbook

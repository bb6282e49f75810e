#pragma once
// How far a render is, for a progress bar: the exports report `done` of `total` per phase
// ("page 3", "variant 2", "the worksheet"); this turns them into one fraction that only grows,
// and a line saying what is being done ("Painted page 3 of 12").

#include "exports/export_choice.h"

#include <QtCore/QString>

#include <utility>

namespace attnbook {

class ExportProgress {
  public:
    explicit ExportProgress(ExportKind kind) : kind_(kind) {}

    // The fraction done so far (0 to 0.99: 1 is for the render's end) and what is being done.
    std::pair<double, QString> map(int done, int total, const QString& step);

  private:
    // A bundle's phases: which of them is running.
    std::pair<double, QString> bundleStep(double fraction, bool page, const QString& step,
                                          const QString& inner);

    ExportKind kind_;
    double last_ = 0;
    int bundleStage_ = 0;
};

} // namespace attnbook

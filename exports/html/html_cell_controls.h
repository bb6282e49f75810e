#pragma once
// A cell's reader controls on the live page (docs/web-page.md, "What a reader does"): the
// window's reading-mode controls as form widgets — the tokens as chips, the heads as a
// stepper, the mask as a switch, the positional encoding and the scale as choices, a
// transformer's temperature and the words it generates — each showing the state the core
// reports (core/live/reader_controls.h). The page script sends a reader's change to the core,
// which writes its `compute --set` words; no widget holds YAML.

#include "core/live/reader_controls.h"

#include <QtCore/QString>

namespace attnbook {

// The widgets of `controls`' controls, for the cell's form; `field` is the form's id prefix
// (escaped already). "" when the cell offers none of them.
QString cellControlsHtml(const ReaderControls& controls, const QString& field);

} // namespace attnbook

#pragma once
// What makes the web page live (docs/web-page.md): the places of the prose's bound values and
// claims as elements the page script writes into, each cell's what-if controls, and the
// scripts themselves — the lesson's source and data files as JSON, the core's WebAssembly
// module (web/, embedded in this build when ATTNBOOK_WEB is on) and the page script
// (live_page.js). The page reads as today with scripts off; the controls show once it is live.

#include "core/document/lesson.h"
#include "core/present/live_marks.h"

#include <QtCore/QString>
#include <QtCore/QStringList>

namespace attnbook {

// Whether this build carries the live page's module: without it, the page stays static.
bool livePageModuleBuiltIn();

// `page` with each mark of live_marks.h turned into its element: a value into
// <span class="bound" data-bind="N">…</span>, a claim into an empty, hidden
// <span class="claim" data-claim="N">. Each also says what it shows, from `numbered` (the
// lesson's numbered bindings): a value its path and decimals (data-path, data-digits) when it
// is a lone path, else its expression (data-expr); a claim its expression and its line
// (data-expr, data-line). A mark inside a tag (an attribute) leaves only its text.
QString withLiveElements(const QString& page, const NumberedProse& numbered);

// The page's bar of live controls (Undo, Reset, Copy a link), hidden until the page is live.
QString liveBarHtml();

// Cell `cell`'s what-if controls: the what-ifs its `controls:` invite (reader_what_ifs.h) to
// choose from, a field for a what-if of one's own, and Reset; "" for a cell a reader cannot
// change. Hidden until the page is live.
QString whatIfControlsHtml(const LessonCell& cell);

// The scripts of the live page and the Content-Security-Policy hashes that let exactly them
// run.
struct LivePageScripts {
    QString html;          // <script> elements, for the end of <body>
    QStringList scriptSrc; // 'sha256-…' of each script that runs, and 'wasm-unsafe-eval'
};
// Fails (returns false with `error`) when a data file the lesson reads cannot be read.
bool livePageScripts(const Lesson& lesson, LivePageScripts* scripts, QString* error);

} // namespace attnbook

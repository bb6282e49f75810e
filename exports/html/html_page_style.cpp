#include "exports/html/html_page_style.h"

#include <initializer_list>

namespace attnbook {

// The style sheet in parts, in the order the page lists them; each is its lines between two
// line breaks.
namespace {

// The colours of the light and dark schemes, as properties the rest reads.
QString colourScheme() {
    return QStringLiteral(R"CSS(
:root {
  color-scheme: light dark;
  --ink: #1b1f24; --muted: #5c636e; --rule: #c9ced6; --faint: #f4f5f7;
  --accent: #1f4e8c; --page: #ffffff; --code: #f4f5f7; --blocked: #eef0f3;
  --right: #1b6b34; --wrong: #a33a00;
  --serif: "DejaVu Serif", Georgia, "Times New Roman", serif;
  --sans: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif;
  --mono: "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --ink: #e3e6ea; --muted: #a3aab5; --rule: #3d444d; --faint: #1d2228;
    --accent: #8ab4f8; --page: #15191e; --code: #222830; --blocked: #2a3038;
    --right: #7fd18b; --wrong: #f0a070;
  }
}
)CSS");
}

// The page: its grid of outline and text, and the outline (nav).
QString pageLayout() {
    return QStringLiteral(R"CSS(
* { box-sizing: border-box; }
html { background: var(--page); color: var(--ink); }
body { margin: 0; font-family: var(--serif); font-size: 1.0625rem; line-height: 1.6; }
.layout { display: grid; grid-template-columns: 15rem minmax(0, 46rem); gap: 3rem;
  justify-content: center; padding: 2.5rem 1.5rem 4rem; }
nav { position: sticky; top: 1.5rem; align-self: start; max-height: calc(100vh - 3rem);
  overflow-y: auto; font-family: var(--sans); font-size: 0.875rem; line-height: 1.4; }
nav h2 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.08em;
  color: var(--muted); margin: 0 0 0.75rem; }
nav ol { list-style: none; margin: 0; padding: 0; }
nav li { margin: 0 0 0.45rem; }
nav li.level-2 { padding-left: 0.9rem; }
nav li.level-3 { padding-left: 1.8rem; font-size: 0.8125rem; }
nav a { color: var(--ink); text-decoration: none; }
nav a:hover, nav a:focus { color: var(--accent); text-decoration: underline; }
main { min-width: 0; }
)CSS");
}

// The lesson's text: the title block, headings, code, quotes and tables.
QString textStyle() {
    return QStringLiteral(R"CSS(
header.title-block { border-bottom: 1px solid var(--rule); margin-bottom: 2rem;
  padding-bottom: 1.25rem; }
header.title-block h1 { margin: 0; }
.subtitle { font-style: italic; font-size: 1.2rem; margin: 0.4rem 0 0; }
.byline { font-family: var(--sans); color: var(--muted); font-size: 0.875rem; margin: 0.5rem 0 0; }
h1, h2, h3, h4, h5, h6 { font-family: var(--sans); line-height: 1.25; margin: 2.2rem 0 0.8rem;
  scroll-margin-top: 1rem; }
h1 { font-size: 1.75rem; color: var(--accent); }
header.title-block h1 { font-size: 2.4rem; }
h2 { font-size: 1.45rem; }
h3 { font-size: 1.2rem; }
h4, h5, h6 { font-size: 1.05rem; }
p { margin: 0 0 1rem; }
a { color: var(--accent); }
code { font-family: var(--mono); font-size: 0.88em; background: var(--code);
  padding: 0.1em 0.3em; border-radius: 3px; }
pre { background: var(--code); padding: 0.9rem 1.1rem; border-radius: 6px; overflow-x: auto;
  line-height: 1.45; margin: 0 0 1.2rem; }
pre code { background: none; padding: 0; font-size: 0.85rem; }
blockquote { margin: 0 0 1rem; padding: 0.2rem 1rem; border-left: 3px solid var(--rule);
  color: var(--muted); font-style: italic; }
hr { border: 0; border-top: 1px solid var(--rule); margin: 2rem 0; }
.table-wrap { overflow-x: auto; margin: 0 0 1.2rem; }
table { border-collapse: collapse; font-family: var(--sans); font-size: 0.875rem;
  font-variant-numeric: tabular-nums; }
th, td { padding: 0.3rem 0.75rem; border-bottom: 1px solid var(--rule); text-align: left; }
thead th { border-bottom: 2px solid var(--ink); }
.right { text-align: right; }
.centre { text-align: center; }
)CSS");
}

// A cell: its head, its figures on a white sheet, its matrices as tables.
QString cellStyle() {
    // Figures are drawn in the PDF's ink on white; in the dark scheme they keep a white sheet
    // under them rather than be redrawn in other colours than the PDF's.
    return QStringLiteral(R"CSS(
.cell { margin: 2rem 0; padding: 1rem 0 0; border-top: 2px solid var(--accent); }
.cell-head { font-family: var(--sans); font-size: 0.875rem; color: var(--muted); margin: 0 0 1rem; }
.cell-kind { color: var(--accent); font-weight: bold; margin-right: 0.4rem; }
figure.view { margin: 0 0 1.5rem; scroll-margin-top: 7rem; }
figure.view > figcaption { font-family: var(--sans); font-weight: bold; font-size: 0.9375rem;
  margin: 0 0 0.6rem; }
.paper { background: #ffffff; border-radius: 6px; padding: 0.75rem; overflow-x: auto; }
/* A figure keeps its own size and scrolls inside .paper where the screen is narrower: shrunk to
   a phone's width, its numbers were 4-5 px high. */
.paper svg { display: block; max-width: none; height: auto; }
@media (prefers-color-scheme: dark) { .paper { border: 1px solid var(--rule); } }
.matrix-group { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start;
  margin: 0 0 1rem; overflow-x: auto; }
table.matrix { font-size: 0.8125rem; }
table.matrix caption { caption-side: top; text-align: left; font-weight: bold;
  padding: 0 0 0.3rem; white-space: nowrap; }
table.matrix caption .note { font-weight: normal; color: var(--muted); margin-left: 0.3rem; }
table.matrix th { color: var(--muted); font-weight: normal; text-align: center;
  padding: 0.15rem 0.5rem; border: 0; }
table.matrix tbody th { text-align: right; }
table.matrix thead th { border-bottom: 1px solid var(--ink); }
table.matrix td { text-align: right; padding: 0.15rem 0.5rem; border: 0; white-space: nowrap; }
table.matrix tbody tr:last-child td { border-bottom: 1px solid var(--ink); }
table.matrix td.blocked { background: var(--blocked); color: var(--muted); }
table.matrix .more { color: var(--muted); text-align: center; }
.view-note { font-family: var(--sans); font-size: 0.8125rem; font-style: italic; color: var(--muted); }
/* Bars: a query's shares of each key, the next word's chances: a label, a bar as long as its
   share, the share, and (for the chances) the pick. */
table.bars { font-family: var(--sans); font-size: 0.8125rem; border-collapse: collapse;
  width: 100%; max-width: 36rem; }
table.bars caption { caption-side: top; text-align: left; font-weight: bold; padding: 0 0 0.3rem; }
table.bars caption .note { font-weight: normal; color: var(--muted); margin-left: 0.3rem; }
table.bars th, table.bars td { padding: 0.1rem 0.4rem; border: 0; }
table.bars thead th { color: var(--muted); font-weight: normal; text-align: left; }
table.bars tbody th { text-align: right; font-weight: normal; white-space: nowrap;
  max-width: 8rem; overflow: hidden; text-overflow: ellipsis; }
table.bars td.track { width: 60%; min-width: 5rem;
  background: linear-gradient(var(--faint), var(--faint)) no-repeat left center / 100% 0.7rem; }
table.bars .bar { display: block; height: 0.7rem; background: var(--accent); opacity: 0.45;
  border-radius: 2px; min-width: 1px; }
table.bars td.chance { text-align: right; font-variant-numeric: tabular-nums; }
table.bars td.mark { color: var(--accent); font-weight: bold; white-space: nowrap; }
table.bars tr.chosen th { color: var(--accent); font-weight: bold; }
table.bars tr.chosen .bar { opacity: 1; }
table.bars tr.apart th, table.bars tr.apart td { border-top: 1px dashed var(--rule); }
table.bars tr.blocked td.chance { color: var(--muted); }
/* The worked arithmetic and the trace: formulas as text, the lines numbered or listed. */
.worked { font-family: var(--sans); font-size: 0.8125rem; margin: 0 0 0.5rem; }
.worked-title { font-weight: bold; margin: 0.4rem 0 0.1rem; }
.worked ol { margin: 0; padding-left: 2.5rem; }
.worked li, table.trace li { overflow-wrap: anywhere; }
.worked li::marker { color: var(--muted); }
li.more { color: var(--muted); list-style: none; }
table.trace { font-family: var(--sans); font-size: 0.8125rem; border-collapse: collapse;
  margin: 0 0 0.8rem; }
table.trace th { text-align: left; vertical-align: top; white-space: nowrap; border: 0;
  padding: 0.2rem 0.8rem 0.2rem 0; }
table.trace td { border: 0; padding: 0.2rem 0; }
table.trace ul { list-style: none; margin: 0; padding: 0; }
/* The shares as a grid of coloured squares (core/present/heat_colours.h), on white as on paper. */
table.heatmap { font-family: var(--sans); font-size: 0.75rem; border-collapse: collapse;
  background: #ffffff; color: #1b1f24; }
table.heatmap caption { caption-side: top; text-align: left; font-weight: bold;
  padding: 0 0 0.3rem; color: var(--ink); }
table.heatmap caption .note { font-weight: normal; color: var(--muted); margin-left: 0.3rem; }
table.heatmap th { color: #5c636e; font-weight: normal; padding: 0.1rem 0.3rem; border: 0; }
table.heatmap tbody th { text-align: right; }
table.heatmap td { min-width: 2.6rem; height: 1.6rem; text-align: center; padding: 0 0.2rem;
  border: 1px solid #ffffff; font-variant-numeric: tabular-nums; }
table.heatmap td.blocked { background: repeating-linear-gradient(45deg, #e2e2e6 0 3px,
  #ffffff 3px 6px); }
/* A transformer cell's views (core/present/transformer_view_html.h): a table wider than a
   phone scrolls in its view; the stream's added rows grey under their sums, as on paper. */
.view-body { overflow-x: auto; }
table.matrix th.what { text-align: left; color: var(--ink); white-space: nowrap; }
table.matrix tr.added td, table.matrix tr.added th.what, table.matrix tr.masked td,
table.matrix tr.masked th { color: var(--muted); }
table.matrix tr.rule td, table.matrix tr.rule th { border-top: 1px solid var(--rule); }
table.matrix td.strong, table.matrix tr.total td { font-weight: bold; }
table.matrix tr.total td, table.matrix tr.total th { border-top: 1px solid var(--rule); }
table.matrix td.word { text-align: left; color: var(--accent); font-weight: bold; }
table.matrix td.text { text-align: left; }
svg.line-chart { max-width: 100%; height: auto; font: 10px system-ui, sans-serif; }
svg.line-chart .grid { stroke: var(--rule); stroke-width: 0.5; }
svg.line-chart .axis { stroke: var(--ink); stroke-width: 1; }
svg.line-chart text { fill: var(--ink); }
svg.line-chart text.tick { fill: var(--muted); }
svg.line-chart polyline, svg.line-chart line[class^="series"] { fill: none; stroke-width: 1.8; }
svg.line-chart .series-0 { stroke: var(--accent); }
svg.line-chart .series-1 { stroke: #d97706; stroke-dasharray: 5 3; }
svg.line-chart circle.series-0 { fill: var(--accent); }
svg.line-chart circle.series-1 { fill: #d97706; }
table.matrix td.shape { color: var(--muted); text-align: left; }
table.matrix tr.group th, table.matrix tr.group td { border-top: 1px solid var(--rule); }
table.matrix tr.not-run { color: var(--muted); }
table.settings { font-size: 0.8125rem; margin-bottom: 0.6rem; }
table.settings th { color: var(--muted); font-weight: normal; text-align: left;
  vertical-align: top; padding: 0.1rem 1rem 0.1rem 0; white-space: nowrap; }
table.settings td { padding: 0.1rem 0; }
table.matrix.units td { text-align: center; font-variant-numeric: tabular-nums; }
.view-text { font-family: var(--sans); font-size: 0.875rem; }
p.generated strong { color: var(--accent); }
table.matrix.stream th, table.matrix.generation tbody th, table.matrix.blocks tbody th {
  white-space: nowrap; }
table.matrix.blocks tbody th { text-align: left; }
table.matrix.stream td, table.matrix.stream th { padding: 0.15rem 0.3rem; }
table.heatmap.units td { min-width: 2.1rem; }
table.heatmap.units th { white-space: nowrap; }
table.bars.knockout td.track { width: 40%; min-width: 3rem; }
table.bars.knockout td.mark { white-space: normal; font-weight: normal; min-width: 6.5rem; }
.layer-title { font-family: var(--sans); font-weight: bold; font-size: 0.875rem;
  margin: 0.6rem 0 0.3rem; }
.layer-view { margin: 0 0 1rem; }
table.bars tr.without .bar { background: var(--muted); opacity: 0.35; }
table.bars tr.without td.mark { color: var(--muted); font-weight: normal; }
table.bars.cost tbody tr:not(.without) th, table.bars.cost tbody tr:not(.without) td {
  padding-top: 0.4rem; }
)CSS");
}

// A quiz, its choices, and the answers folded away (details).
QString quizStyle() {
    return QStringLiteral(R"CSS(
.quiz { background: var(--faint); border-top: 0; border-left: 4px solid var(--accent);
  border-radius: 0 6px 6px 0; padding: 1rem 1.25rem 0.5rem; }
.question-number { font-family: var(--sans); font-weight: bold; color: var(--accent);
  margin: 0 0 0.4rem; }
.choices { margin: 0 0 1rem; padding-left: 1.75rem; }
.choices li { margin: 0 0 0.3rem; }
details { margin: 0 0 1rem; }
summary { cursor: pointer; font-family: var(--sans); font-weight: bold; color: var(--accent);
  font-size: 0.9375rem; }
summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
details[open] > summary { margin-bottom: 0.6rem; }
details.sample-answer { border: 1px solid var(--rule); border-radius: 6px; padding: 0.6rem 1rem; }
)CSS");
}

// The live page (html_live.h): its bar, each cell's what-if controls, values a what-if changed
// or took away, and the mark of a claim it made false.
QString liveStyle() {
    return QStringLiteral(R"CSS(
.live-bar { position: sticky; top: 0; z-index: 2; background: var(--page);
  border: 1px solid var(--rule); border-radius: 6px; padding: 0.6rem 0.9rem; margin: 0 0 1.5rem;
  font-family: var(--sans); font-size: 0.875rem; }
.live-bar p { margin: 0 0 0.4rem; }
.live-notes { margin: 0.4rem 0 0; padding-left: 1.2rem; color: #a33a00; }
.live-actions { display: flex; flex-wrap: wrap; gap: 0.3rem; }
@media (max-width: 480px) {
  .live-bar { padding: 0.4rem 0.6rem; }
  .live-actions button { min-height: 2rem; padding: 0.15rem 0.5rem; font-size: 0.8125rem; }
}
button, select, input { font: inherit; font-size: 0.875rem; }
button { border: 1px solid var(--accent); color: var(--accent); background: var(--page);
  border-radius: 4px; padding: 0.3rem 0.7rem; cursor: pointer; min-height: 2.25rem; }
button:disabled { border-color: var(--rule); color: var(--muted); cursor: default; }
button:focus-visible, select:focus-visible, input:focus-visible {
  outline: 2px solid var(--accent); outline-offset: 2px; }
form.what-ifs { font-family: var(--sans); font-size: 0.875rem; border: 1px dashed var(--rule);
  border-radius: 6px; padding: 0.6rem 0.9rem; margin: -1rem 0 2rem; }
form.what-ifs.edited { border-color: var(--accent); border-style: solid; }
.what-ifs-title { font-weight: bold; margin: 0 0 0.4rem; }
.what-if-row { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center;
  margin: 0 0 0.4rem; }
.what-if-row label { min-width: 5rem; color: var(--muted); }
.what-if-row select, .what-if-row input { flex: 1 1 12rem; min-width: 0; min-height: 2.25rem;
  padding: 0.2rem 0.4rem; color: var(--ink); background: var(--page);
  border: 1px solid var(--rule); border-radius: 4px; }
.edited-note { color: var(--muted); font-style: italic; margin: 0 0 0.4rem; }
.controls { margin: 0 0 0.6rem; padding: 0 0 0.4rem; border-bottom: 1px solid var(--rule); }
.controls .what-if-hint { margin: 0 0 0.4rem; }
.controls .what-if-row select { flex: 0 1 14rem; }
fieldset.control-tokens { border: 0; padding: 0; margin: 0 0 0.4rem; min-width: 0; }
fieldset.control-tokens legend { color: var(--muted); padding: 0; margin: 0 0 0.3rem; }
.token-chips { list-style: none; display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0 0 0.4rem;
  padding: 0; }
.chip { display: inline-flex; align-items: center; border: 1px solid var(--rule);
  border-radius: 999px; background: var(--faint); padding: 0 0.15rem 0 0.7rem; max-width: 100%; }
.chip-word { font-family: var(--mono); margin-right: 0.2rem; overflow-wrap: anywhere; }
.chip button { border: 0; background: transparent; min-width: 2rem; min-height: 2rem;
  padding: 0 0.3rem; border-radius: 999px; }
.chip button:disabled { color: var(--rule); }
.chip button:hover:not(:disabled) { background: var(--page); }
.control-label { min-width: 5rem; color: var(--muted); }
.stepper-value { min-width: 2rem; text-align: center; font-weight: bold; }
.what-if-row input.narrow { flex: 0 0 6rem; }
.what-if-row input[type=range] { flex: 1 1 8rem; padding: 0; border: 0; }
.what-if-row input[type=checkbox] { flex: 0 0 auto; width: 1.25rem; height: 1.25rem;
  min-height: 0; margin: 0; accent-color: var(--accent); }
.what-if-row label.switch-label { min-width: 0; color: var(--ink); }
.control-refusal { color: var(--wrong); margin: 0 0 0.4rem; }
.matrix-grids { display: flex; flex-wrap: wrap; gap: 0.2rem 1.5rem; }
fieldset.control-matrix { border: 0; padding: 0; margin: 0 0 0.6rem; min-width: 0;
  max-width: 100%; overflow-x: auto; }
fieldset.control-matrix legend { font-family: var(--mono); color: var(--muted); padding: 0;
  margin: 0 0 0.2rem; }
fieldset.control-entry { border: 0; padding: 0; margin: 0 0 0.6rem; min-width: 0;
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.3rem 0.6rem; }
fieldset.control-entry legend { font-family: var(--mono); color: var(--muted); padding: 0;
  margin: 0 0 0.2rem; }
fieldset.control-entry label { color: var(--muted); white-space: nowrap; }
fieldset.control-entry input { width: 5rem; min-height: 2rem; padding: 0.1rem 0.3rem;
  text-align: right; font-family: var(--mono); color: var(--ink); background: var(--page);
  border: 1px solid var(--rule); border-radius: 4px; }
fieldset.control-entry button { min-height: 2rem; }
.matrix-grid { border-collapse: collapse; }
.matrix-grid th { font-weight: normal; color: var(--muted); text-align: right;
  padding: 0 0.4rem 0 0; white-space: nowrap; font-family: var(--mono); font-size: 0.8125rem; }
.matrix-grid th, .matrix-grid td { border: 0; }
.matrix-grid td { padding: 0.1rem; }
.matrix-grid input { width: 4.5rem; min-height: 2rem; padding: 0.1rem 0.3rem; text-align: right;
  font-family: var(--mono); color: var(--ink); background: var(--page);
  border: 1px solid var(--rule); border-radius: 4px; }
@media (max-width: 480px) {
  .matrix-grid input { width: 3.3rem; padding: 0.1rem 0.2rem; }
  .matrix-grid th { padding-right: 0.2rem; }
}
.what-if-hint { color: var(--muted); font-size: 0.8125rem; margin: 0; }
section.cell { scroll-margin-top: 7rem; }
figure.view.stale, .cell-summary.stale { opacity: 0.35; }
figure.view td.changed { background: rgba(255, 196, 0, 0.28); }
button[aria-pressed=true] { background: var(--accent); color: var(--page); }
.was { display: block; color: var(--muted); font-family: var(--sans); font-size: 0.75rem;
  font-weight: normal; line-height: 1.2; white-space: nowrap; }
.cell-head .was { white-space: normal; margin-top: 0.15rem; }
.was.in-text { display: inline; margin-left: 0.3em; white-space: normal; }
.was.in-text::before { content: "("; }
.was.in-text::after { content: ")"; }
table.heatmap .was { color: inherit; opacity: 0.8; }
@media (max-width: 480px) {
  td .was-word { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip-path: inset(50%); white-space: nowrap; }
  td .was-text { text-decoration: line-through; }
}
.bound { transition: background-color 0.4s; }
.bound.changed { background: rgba(255, 196, 0, 0.28); border-radius: 2px; }
.bound.taken-away { color: var(--muted); }
.bound.pending, .claim.pending { color: var(--muted); font-style: italic; }
.claim-false { color: #a33a00; font-family: var(--sans); font-size: 0.8125rem;
  font-weight: bold; }
)CSS");
}

// A quiz answered on the live page (html_quiz_form.h): its choices as radio buttons with the
// letters of the static list, a field for a number or words, Check, and the verdict.
QString quizFormStyle() {
    return QStringLiteral(R"CSS(
form.quiz-form { font-family: var(--sans); font-size: 0.9375rem; margin: 0 0 1rem; }
form.quiz-form fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
form.quiz-form legend { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
.quiz-choices { margin: 0 0 0.75rem; padding-left: 1.75rem; font-family: var(--serif);
  font-size: 1.0625rem; }
.quiz-choices li { margin: 0 0 0.35rem; }
.quiz-choices input { float: left; width: 1.1rem; height: 1.1rem; margin: 0.3rem 0.55rem 0 0;
  accent-color: var(--accent); }
.quiz-choices label { display: block; overflow: hidden; cursor: pointer; }
.quiz-choices input:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.quiz-row { display: flex; flex-wrap: wrap; gap: 0.4rem 0.6rem; align-items: center;
  margin: 0 0 0.4rem; }
.quiz-row label { color: var(--muted); }
.quiz-row input, .quiz-row textarea { font: inherit; color: var(--ink); background: var(--page);
  border: 1px solid var(--rule); border-radius: 4px; padding: 0.3rem 0.5rem; min-height: 2.25rem;
  box-sizing: border-box; }
.quiz-row input { flex: 0 1 12rem; min-width: 0; }
.quiz-row textarea { flex: 1 1 100%; width: 100%; resize: vertical; font-family: var(--serif); }
.quiz-row input:focus-visible, .quiz-row textarea:focus-visible {
  outline: 2px solid var(--accent); outline-offset: 2px; }
.quiz-hint { color: var(--muted); font-size: 0.8125rem; margin: 0 0 0.5rem; }
.quiz-actions { margin: 0.25rem 0 0; }
.quiz-verdict { margin: 0.5rem 0 0; font-weight: bold; }
.quiz-verdict:empty { display: none; }
.quiz-verdict[data-verdict=right] { color: var(--right); }
.quiz-verdict[data-verdict=wrong], .quiz-verdict[data-verdict=not-a-number],
.quiz-verdict[data-verdict=unknown] { color: var(--wrong); }
.quiz-verdict[data-verdict=sample], .quiz-verdict[data-verdict=unanswered] {
  color: var(--muted); }
)CSS");
}

// The image placeholder, the footer, and the page on a narrow screen and in print.
QString pageEndStyle() {
    return QStringLiteral(R"CSS(
.image { color: var(--muted); font-style: italic; }
footer { font-family: var(--sans); font-size: 0.8125rem; color: var(--muted);
  border-top: 1px solid var(--rule); margin-top: 3rem; padding-top: 1rem; }
@media (max-width: 62rem) {
  .layout { grid-template-columns: minmax(0, 46rem); gap: 1.5rem; padding: 1.25rem 1rem 3rem; }
  nav { position: static; max-height: none; border-bottom: 1px solid var(--rule);
    padding-bottom: 1rem; }
}
@media print {
  :root { --ink: #000000; --muted: #444444; --rule: #999999; --faint: #ffffff;
    --accent: #1f4e8c; --page: #ffffff; --code: #f4f5f7; }
  body { font-size: 10.5pt; }
  .layout { display: block; padding: 0; }
  nav, details.answer, details.sample-answer, footer, .live-bar, form.what-ifs, form.quiz-form {
    display: none; }
  h1, h2, h3, h4 { break-after: avoid; }
  figure, table, pre, .quiz { break-inside: avoid; }
  .paper { padding: 0; border: 0; }
  a { color: inherit; text-decoration: none; }
}
)CSS");
}

} // namespace

QString htmlPageStyle() {
    QString css;
    for (const QString& part : {colourScheme(), pageLayout(), textStyle(), cellStyle(), quizStyle(),
                                liveStyle(), quizFormStyle(), pageEndStyle()}) {
        css += part.chopped(1); // its last line break is the next part's first
    }
    return css + u'\n';
}

} // namespace attnbook

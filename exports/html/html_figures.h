#pragma once
// The lesson PDF's figures as inline SVG for the web page: the same painting code (a Figure or
// a whole PdfBox, pdf_layout.h) drawn through QSvgGenerator instead of QPdfWriter, so the page
// and the PDF can never show different pictures of one cell. Text stays text (<text>), lines
// stay vectors; the 72-dpi layout units become the SVG's user units.

#include "exports/paint/pdf_layout.h"

#include <QtCore/QString>

namespace attnbook {

// One figure as an <svg> element (no XML prolog), scaled to its container's width at most,
// with `label` (lesson text, escaped here) as its accessible name.
QString figureSvg(const Figure& figure, const QString& label);

// A whole print box (a view with its title and its rows of figures) as one <svg> element.
QString boxSvg(const PdfBox& box, qreal width, const QString& label);

} // namespace attnbook

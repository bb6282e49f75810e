#pragma once
// Paginated sections (pdf_layout.h) painted into one PDF with its outline and document
// information. Apart from the layout, as the one part of the PDF wing that needs qpdf
// (pdf_outline.h): what paints figures and boxes (the web page's SVG too) links without it.

#include "exports/paint/pdf_layout.h"
#include "files/export_control.h"

#include <QtCore/QIODevice>

namespace attnbook {

// Paints the sections, already paginated, into `out` as one PDF, with the document information
// and an outline of the boxes that have an outline title. Reports one progress step per page
// (from `firstStep` of `totalSteps`); stops at once when cancelled.
ExportResult renderPdf(QIODevice& out, const PageGeometry& geometry, const PdfDocumentInfo& info,
                       const std::vector<const PdfSection*>& sections, const ExportControl& control,
                       int firstStep = 0, int totalSteps = 0);

} // namespace attnbook

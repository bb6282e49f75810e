#pragma once
// One sheet of a worksheet variant laid out as pages: a student's worksheet or its answer key
// (docs/worksheets.md). The key is laid out by the same code as its sheet, page for page.

#include "exports/paint/pdf_layout.h"
#include "exports/worksheet/worksheet_variants.h"

#include <QtCore/QString>

namespace attnbook {

enum class Sheet { Worksheet, Key };

// The pages of variant V as SHEET, for STUDENT ("" without a roster), on pages of geometry G.
PdfSection sheetSection(const WorksheetVariant& v, Sheet sheet, const QString& student,
                        const PageGeometry& g);

} // namespace attnbook

#pragma once
// Where the window's file dialogs (Save As, exports, figures, Open) open and how they are shown:
// one rule for all of them.

#include "app/models/file_url.h"

#include <QtCore/QString>

class QDialog;

namespace attnbook {

// The folder a dialog opens in: `place` itself, or the folder of the file it names (the
// lesson), else the user's documents (a lesson built into attnbook, ":/documents/...").
QString dialogStartFolder(const QString& place);

// Shows `dialog` modally above the window it was asked from, and gives that window the
// keyboard back afterwards. Returns the dialog's result.
int runDialogAbove(QDialog& dialog);

} // namespace attnbook

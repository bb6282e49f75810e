#pragma once

#include <QStringList>

class QQmlEngine;

namespace attnbook {

// The window's QML, in the static module Attnbook.
extern const char* const kMainQml;

// Lets `engine` find the window's static QML modules (Attnbook,
// Attnbook.Models): Qt 6.4 does not search qrc:/qt/qml by itself. Also keeps the engine off the
// network (offline_network.h).
void addModuleImportPath(QQmlEngine& engine);

// Picks the Qt Quick Controls style the window is designed for; call
// before the first QML engine loads.
void chooseControlsStyle();

// Opens the notebook window on FILE (or the bundled default lesson) and runs
// the event loop; returns the exit code. Needs a QApplication.
int runWindow(const QStringList& arguments);

} // namespace attnbook

#pragma once
// Which of Qt Quick's renderers draws the window.
//
// Where OpenGL is only Mesa's CPU rasteriser (llvmpipe, softpipe: no GPU driver, a virtual
// machine, a remote desktop, Xvfb), Qt Quick's own software renderer draws the same window (the
// pixels `shot` draws) with half the memory and under half the CPU time: llvmpipe keeps every
// texture and vertex buffer in the process's RAM beside Qt's copy, with its compiled shaders and
// LLVM, and Qt 6.4's batch renderer keeps the buffers of a closed lesson for reuse.

#include <QString>

namespace attnbook {

// True when `glRenderer` (OpenGL's GL_RENDERER string) names a rasteriser that runs on the CPU.
bool isCpuRasteriser(const QString& glRenderer);

// Before the first window: chooses the software renderer when OpenGL would draw on the CPU or is
// missing, unless the user chose a renderer (QT_QUICK_BACKEND, QSG_RHI_BACKEND). Needs a
// QGuiApplication.
void chooseSceneGraphRenderer();

// What chooseSceneGraphRenderer chose and why, one sentence for Help → About; empty before it.
QString sceneGraphRendererSentence();

} // namespace attnbook
